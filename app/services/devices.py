"""Devices: a browser remembered by an HttpOnly cookie, so "my rosters" needs no account.

Which rosters a browser opened, which of them it may edit (from their edit link), the bounds
on how many browsers one roster is remembered by, and the lists of the home page."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import case, delete, func, insert, or_, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.domain.base import Verdict
from app.services.errors import EditRefused, UnknownDevice
from app.services.stored_rosters import (
    EDITABLE_ROW,
    RESTORE_DAYS,
    StoredRoster,
    digest,
    live_roster,
    refuse_deleted,
    searched,
    stored_roster,
    utc,
)
from app.storage.db import StorageLimits, limits_of
from app.storage.db import transaction as _transaction
from app.storage.tables import (
    Device,
    DeviceRoster,
    Roster,
    utcnow,
)

# "My rosters" sorts by last change, not by last opening: when a roster was last opened is
# kept only this precisely.
REMEMBER_AGAIN_AFTER = timedelta(minutes=10)
# Browsers one roster is remembered by, the latest-opened: those that may edit it, by its edit
# link (open_with_key), and those that keep it in "my rosters" only to read (bound_readers).
# The defaults of MUSTER_MAX_EDITING_BROWSERS and MUSTER_MAX_READING_BROWSERS; the bounds in
# force are those the session carries (storage's limits_of).
MAX_EDITING_BROWSERS = StorageLimits.max_editing_browsers
MAX_READING_BROWSERS = StorageLimits.max_reading_browsers

SortKey = Literal["name", "ruleset", "nation", "points", "verdict", "updated"]
SORT_KEYS: tuple[SortKey, ...] = ("name", "ruleset", "nation", "points", "verdict", "updated")


@dataclass(frozen=True)
class MyRoster:
    id: str
    name: str
    ruleset: str
    nation: str | None
    total: float
    points_limit: int | None
    updated_at: datetime
    can_edit: bool
    verdict: Verdict = Verdict.legal


@dataclass(frozen=True)
class DeletedRoster:
    """A roster this browser could edit, deleted and still restorable (the home page)."""

    id: str
    name: str
    restorable_until: datetime


def new_device(session: Session) -> tuple[int, str]:
    token = secrets.token_urlsafe(32)
    device = Device(token_hash=digest(token), created_at=utcnow())
    with _transaction(session, write=True):
        session.add(device)
        session.flush()
        assert device.id is not None
        device_id = device.id
    return device_id, token


def find_device(session: Session, token: str) -> int | None:
    with _transaction(session):
        return session.exec(select(Device.id).where(Device.token_hash == digest(token))).first()


def remember(session: Session, device_id: int, roster_id: str, can_edit: bool) -> None:
    """Note that the device opened the roster; once it could edit, it keeps that right. A
    browser noted to read may push the roster's readers past their bound (bound_readers)."""
    if _note_opened(session, device_id, roster_id, can_edit) and not can_edit:
        bound_readers(session, roster_id, keep=device_id)


def _note_opened(session: Session, device_id: int, roster_id: str, can_edit: bool) -> bool:
    """remember's note; False when there was nothing to write."""
    now = utcnow()
    # Most calls come from a browser reopening a roster it already knows: a read tells, and
    # saves a write (and, on SQLite, the database's one write lock) on every page view.
    with _transaction(session):
        seen = session.get(DeviceRoster, (device_id, roster_id))
        if (seen is not None and (seen.can_edit or not can_edit)
                and now - utc(seen.last_opened) < REMEMBER_AGAIN_AFTER):
            return False
    table = DeviceRoster.__table__
    values = {"device_id": device_id, "roster_id": roster_id, "can_edit": can_edit,
              "last_opened": now}
    with _transaction(session, write=True):
        live_roster(session, roster_id)
        if session.get(Device, device_id) is None:
            raise UnknownDevice(device_id)
        dialect = session.get_bind().dialect.name
        if dialect in ("sqlite", "postgresql"):
            upsert = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(table)
            statement = upsert.values(**values).on_conflict_do_update(
                index_elements=["device_id", "roster_id"],
                set_={"can_edit": or_(table.c.can_edit, upsert.excluded.can_edit),
                      "last_opened": upsert.excluded.last_opened})
            try:
                session.exec(statement)
            except IntegrityError as error:
                # Forgotten between the read above and this write (a bound or the purge,
                # which locked it first): its foreign key now names nothing.
                raise UnknownDevice(device_id) from error
            return True
        seen = session.get(DeviceRoster, (device_id, roster_id))
        if seen is None:
            session.exec(insert(table).values(**values))
        else:
            seen.can_edit = seen.can_edit or can_edit
            seen.last_opened = now
    return True


def open_with_key(session: Session, device_id: int, roster_id: str) -> None:
    """The device opened the roster with its edit key (the editor's link): it may edit it.

    A roster is edited by at most MUSTER_MAX_EDITING_BROWSERS browsers (the session's
    `max_editing_browsers`, else MAX_EDITING_BROWSERS): past that, the ones that opened it
    longest ago lose the right (a new edit link takes it from all of them at once). One whose
    "my rosters" holds other rosters keeps this one to read, as after a new link, within the
    readers' bound (bound_readers); one that was remembered for this roster alone is
    forgotten. Without the bound, a script opening a link again and again, each time as a new
    browser, left a device and a grant behind every time. Callers check the key first
    (check_edit_key).
    """
    remember(session, device_id, roster_id, True)
    bound = limits_of(session).max_editing_browsers
    with _transaction(session):
        past = session.exec(
            select(DeviceRoster.device_id)
            .where(DeviceRoster.roster_id == roster_id, col(DeviceRoster.can_edit))
            .order_by(col(DeviceRoster.last_opened).desc(), col(DeviceRoster.device_id).desc())
            .offset(bound)).all()
    if past:
        _forget_editors(session, roster_id, list(past))
        bound_readers(session, roster_id, keep=device_id)


def bound_readers(session: Session, roster_id: str, keep: int | None = None) -> None:
    """Keep the roster in the "my rosters" of at most MUSTER_MAX_READING_BROWSERS readers
    (browsers that may not edit it; the session's `max_reading_browsers`, else
    MAX_READING_BROWSERS): `keep`, then those that opened it latest. The others forget it, and
    a browser that was remembered for it alone is forgotten, as past the editors' bound. The
    owner renewing the link may edit, so is no reader and stays as it was. Without the bound,
    opening the edit link from new browsers and renewing it, again and again (each renewal
    leaves those browsers as readers), or share links opened by ever new browsers, grew one
    roster's rows and the devices behind them without end."""
    bound = limits_of(session).max_reading_browsers
    readers = [col(DeviceRoster.roster_id) == roster_id, col(DeviceRoster.can_edit).is_(False)]
    # `keep` (the browser opening the roster now, or renewing its link) counts first, whatever
    # the clocks of the servers that noted the others.
    first = [] if keep is None else [case((col(DeviceRoster.device_id) == keep, 0), else_=1)]
    # A query, not a list of ids: rows stored before the bound may be more than one statement
    # can carry. Not correlated with the DELETE below, which is of the same table.
    past = (select(DeviceRoster.device_id).where(*readers)
            .order_by(*first, col(DeviceRoster.last_opened).desc(),
                      col(DeviceRoster.device_id).desc())
            .offset(bound).correlate(None))
    with _transaction(session):  # nearly always nobody is past it: a read, not a write
        if session.exec(past.limit(1)).first() is None:
            return
    elsewhere = select(DeviceRoster.device_id).where(
        DeviceRoster.device_id == Device.id, DeviceRoster.roster_id != roster_id)
    with _transaction(session, write=True):
        lock_devices(session, col(Device.id).in_(past))
        # Browsers remembered for this roster alone go, their row with them (ON DELETE
        # CASCADE); that leaves the latest-opened readers as they were, so `past` still
        # finds the rest of those past the bound.
        session.exec(delete(Device).where(  # type: ignore[call-overload]
            col(Device.id).in_(past), ~elsewhere.exists()))
        session.exec(delete(DeviceRoster).where(  # type: ignore[call-overload]
            *readers, col(DeviceRoster.device_id).in_(past)))


def _forget_editors(session: Session, roster_id: str, device_ids: list[int]) -> None:
    with _transaction(session, write=True):
        lock_devices(session, col(Device.id).in_(device_ids))
        alone = list(session.exec(
            select(DeviceRoster.device_id)
            .where(col(DeviceRoster.device_id).in_(device_ids))
            .group_by(col(DeviceRoster.device_id))
            .having(func.count() == 1)).all())
        if alone:
            # Only those still remembered for this roster alone (lock_devices): their row goes
            # with them (ON DELETE CASCADE).
            elsewhere = select(DeviceRoster.device_id).where(
                DeviceRoster.device_id == Device.id, DeviceRoster.roster_id != roster_id)
            session.exec(delete(Device).where(  # type: ignore[call-overload]
                col(Device.id).in_(alone), ~elsewhere.exists()))
        session.exec(update(DeviceRoster).where(  # type: ignore[call-overload]
            DeviceRoster.roster_id == roster_id, col(DeviceRoster.device_id).in_(device_ids))
            .values(can_edit=False))


def can_edit(session: Session, device_id: int, roster_id: str) -> bool:
    with _transaction(session):
        granted = session.exec(select(DeviceRoster.can_edit)
                               .where(DeviceRoster.device_id == device_id,
                                      DeviceRoster.roster_id == roster_id)).first()
        return bool(granted)


def editable_roster(session: Session, device_token: str, roster_id: str) -> StoredRoster:
    """The roster, if the browser holding `device_token` may edit it, in one read: the
    editor's every change asks this first. EditRefused without that right (whether or not
    the roster exists, as the grant is asked first); RosterDeleted for a deleted roster."""
    return editable_by(session, device_token, roster_id)[0]


def editable_by(session: Session, device_token: str,
                roster_id: str) -> tuple[StoredRoster, int]:
    """`editable_roster`, and the id of the browser's device, from the same read."""
    if not device_token:
        raise EditRefused(roster_id)
    with _transaction(session):
        found = session.exec(EDITABLE_ROW, params={  # type: ignore[call-overload]
            "roster_id": roster_id, "token_hash": digest(device_token)}).first()
    if found is None:
        raise EditRefused(roster_id)
    refuse_deleted(found)
    return stored_roster(found), found.device_id


def lock_devices(session: Session, which: Any) -> None:
    """Lock the devices about to be forgotten if they turn out to be remembered for nothing
    else (PostgreSQL; SQLite's writers take turns anyway). A browser noting another roster at
    that moment holds its device's key lock until it commits (the row's foreign key), so this
    waits for it, and the statements after it see its row and keep the device. Unlocked, a
    DELETE could go by what it saw before, and its cascade take that new roster from the
    browser's "my rosters"."""
    # In the order of their ids, as every caller locks them: two callers whose devices overlap
    # then wait for each other instead of each holding what the other waits for (a deadlock).
    session.exec(select(Device.id).where(which).order_by(col(Device.id))
                 .with_for_update()).all()


# Ascending: broken, then legal with warnings, then legal; descending the other way round.
_VERDICT_RANK = case({Verdict.broken.value: 0, Verdict.warnings.value: 1,
                      Verdict.legal.value: 2}, value=col(Roster.verdict))


def my_rosters(session: Session, device_id: int, *, query: str = "", sort: str = "updated",
               descending: bool = True) -> list[MyRoster]:
    """The live rosters this device opened, filtered by name and sorted."""
    order_by = {"name": col(Roster.search_name), "ruleset": col(Roster.ruleset),
                "nation": col(Roster.nation), "points": col(Roster.total),
                "verdict": _VERDICT_RANK, "updated": col(Roster.updated_at)}
    if sort not in order_by:
        raise ValueError(f"sort must be one of {', '.join(SORT_KEYS)}, not {sort!r}")
    column = order_by[sort]
    statement = (
        select(Roster.id, Roster.name, Roster.ruleset, Roster.nation, Roster.total,
               Roster.points_limit, Roster.updated_at, DeviceRoster.can_edit, Roster.verdict)
        .join(DeviceRoster, col(DeviceRoster.roster_id) == Roster.id)
        .where(DeviceRoster.device_id == device_id, col(Roster.deleted_at).is_(None))
        .order_by((column.desc() if descending else column.asc()).nulls_last(), col(Roster.id)))
    needle = searched(query).strip()
    if needle:
        statement = statement.where(col(Roster.search_name).contains(needle, autoescape=True))
    with _transaction(session):
        rows = session.exec(statement).all()
        return [MyRoster(id=r[0], name=r[1], ruleset=r[2], nation=r[3], total=float(r[4]),
                         points_limit=r[5], updated_at=utc(r[6]), can_edit=bool(r[7]),
                         verdict=Verdict(r[8]))
                for r in rows]


def deleted_rosters(session: Session, device_id: int, *,
                    days: int = RESTORE_DAYS) -> list[DeletedRoster]:
    """The rosters this device may edit that were deleted and can still be restored, the
    latest deleted first: the home page offers them back (their grants outlive the deletion
    until the purge)."""
    since = utcnow() - timedelta(days=days)
    statement = (
        select(Roster.id, Roster.name, Roster.deleted_at)
        .join(DeviceRoster, col(DeviceRoster.roster_id) == Roster.id)
        .where(DeviceRoster.device_id == device_id, col(DeviceRoster.can_edit),
               col(Roster.deleted_at).is_not(None), col(Roster.deleted_at) >= since)
        .order_by(col(Roster.deleted_at).desc(), col(Roster.id)))
    with _transaction(session):
        rows = session.exec(statement).all()
    return [DeletedRoster(id=r[0], name=r[1],
                          restorable_until=utc(r[2]) + timedelta(days=days)) for r in rows]
