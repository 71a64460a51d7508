"""Opening the editor is one use-case (app/services/opening.py): the roster for a browser that
may edit it, noted among its rosters; each refusal says what the page says."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.services import devices, rosters
from app.services.errors import EditRefused, RosterDeleted, RosterNotFound
from app.services.opening import RestorableRoster, open_for_editing


def _roster(session: Session) -> str:
    return rosters.create_roster(session, {"name": "Орда", "ruleset": "chainmail",
                                           "nation": "mongols"}).roster.id


def test_a_browser_with_the_right_gets_the_roster_and_keeps_it_among_its_rosters(
        session: Session) -> None:
    roster_id = _roster(session)
    device_id, token = devices.new_device(session)
    devices.open_with_key(session, device_id, roster_id)
    opened = open_for_editing(session, roster_id, token)
    assert opened.id == roster_id and opened.document.name == "Орда"
    [mine] = devices.my_rosters(session, device_id)
    assert mine.id == roster_id and mine.can_edit


def test_a_browser_without_the_right_is_refused_and_kept_nowhere(session: Session) -> None:
    roster_id = _roster(session)
    device_id, token = devices.new_device(session)
    for stranger in (token, "", "no-such-browser"):
        with pytest.raises(EditRefused):
            open_for_editing(session, roster_id, stranger)
    assert devices.my_rosters(session, device_id) == []


def test_no_roster_and_a_deleted_one_are_said_so_restorable_only_by_its_editor(
        session: Session) -> None:
    roster_id = _roster(session)
    owner, owner_token = devices.new_device(session)
    devices.open_with_key(session, owner, roster_id)
    _, stranger = devices.new_device(session)
    with pytest.raises(RosterNotFound) as missing:
        open_for_editing(session, "nosuchroster1", owner_token)
    assert not isinstance(missing.value, RosterDeleted)
    rosters.delete_roster(session, roster_id)
    with pytest.raises(RestorableRoster):
        open_for_editing(session, roster_id, owner_token)
    with pytest.raises(RosterDeleted) as gone:
        open_for_editing(session, roster_id, stranger)
    assert not isinstance(gone.value, RestorableRoster)
