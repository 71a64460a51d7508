"""Opening a roster's editor: the roster, for a browser that may edit it, noted among that
browser's rosters as opened now ("my rosters" keeps them in that order)."""

from __future__ import annotations

from sqlmodel import Session

from app.services import devices, rosters
from app.services.errors import EditRefused, RosterDeleted, UnknownDevice
from app.services.stored_rosters import StoredRoster


class RestorableRoster(RosterDeleted):
    """The roster was deleted, and the browser opening it may edit it: it may restore it."""


def open_for_editing(session: Session, roster_id: str, device_token: str) -> StoredRoster:
    """The roster as the editor shows it, to the browser holding `device_token`, noted as
    opened by it now. Refused with what the page says: RosterNotFound for no such roster;
    RestorableRoster for a deleted one this browser may edit, RosterDeleted for one it may
    not; EditRefused for a roster this browser may not edit (or no browser known here, or
    one forgotten meanwhile: a bound, the purge)."""
    try:
        stored, device_id = devices.editable_by(session, device_token, roster_id)
    except EditRefused:
        rosters.get_roster(session, roster_id)  # no roster, or a deleted one, is said so
        raise
    except RosterDeleted as gone:
        raise RestorableRoster(roster_id, gone.restorable_until) from None
    try:
        devices.remember(session, device_id, roster_id, True)
    except UnknownDevice:
        raise EditRefused(roster_id) from None
    return stored
