"""Events on both databases: the keys are kept as hashes, a list keeps the version handed in,
only a list's own key replaces or withdraws it, names that grow when case-folded are kept, the
organiser closes hand-ins, the deadline closes them and opens publishing."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.services import events, rosters
from app.services.errors import KeyRejected
from app.storage.tables import Event, EventList, utcnow
from app.systems.events import EventRules
from tests.helpers.events import event, mongols, russians


def _event(session: Session, **changes: object) -> events.CreatedEvent:
    return events.create_event(session, EventRules.model_validate(event(**changes)))


def test_keys_are_stored_only_as_hashes_and_each_opens_its_own_door(session: Session) -> None:
    created = _event(session)
    row = session.exec(select(Event)).one()
    assert created.organiser_key not in row.model_dump_json()
    assert created.hand_in_key not in row.model_dump_json()
    events.check_key(session, created.event.id, created.organiser_key, "organiser")
    events.check_key(session, created.event.id, created.hand_in_key, "hand_in")
    with pytest.raises(KeyRejected):
        events.check_key(session, created.event.id, created.hand_in_key, "organiser")
    with pytest.raises(events.EventNotFound):
        events.check_key(session, "nosuchevent00000", created.organiser_key, "organiser")


def test_a_list_keeps_the_version_handed_in_and_only_its_key_replaces_it(
        session: Session) -> None:
    created = _event(session)
    roster = rosters.create_roster(session, mongols()).roster
    first = events.hand_in(session, created.event.id, "Бату", roster.id)
    assert first.key is not None
    row = session.exec(select(EventList)).one()
    assert first.key not in row.model_dump_json() and row.key_hash is not None
    rosters.replace_roster(session, roster.id, {**mongols(), "name": "Другая орда"}, 1)
    kept = events.lists(session, created.event.id)
    assert [(k.player, k.roster_version, k.document.name) for k in kept] == [  # type: ignore[attr-defined]
        ("Бату", 1, "Орда Субэдэя")]
    other = rosters.create_roster(session, russians()).roster
    # Another player under the same name, folded: refused without the list's key.
    for keys in ([], ["not-the-key"], [created.hand_in_key]):
        with pytest.raises(events.NameTaken):
            events.hand_in(session, created.event.id, "БАТУ", other.id, list_keys=keys)
    assert [k.roster_id for k in events.lists(session, created.event.id)] == [roster.id]
    replaced = events.hand_in(session, created.event.id, "БАТУ", other.id,
                              list_keys=["other", first.key])
    assert replaced.key is None and replaced.handed.id == first.handed.id
    events.hand_in(session, created.event.id, "Ян", roster.id, 1)
    kept = events.lists(session, created.event.id, history=True)
    assert [(k.player, k.roster_id) for k in kept] == [("БАТУ", other.id), ("Ян", roster.id)]
    (earlier,) = kept[0].replaced
    assert (earlier.player, earlier.name, earlier.roster_version) == ("Бату", "Орда Субэдэя", 1)
    assert events.lists(session, created.event.id)[0].replaced == ()
    assert events.get_event(session, created.event.id).lists == 2


def test_a_list_is_withdrawn_only_with_its_key_and_its_name_is_free_again(
        session: Session) -> None:
    created = _event(session)
    roster = rosters.create_roster(session, mongols()).roster
    handed = events.hand_in(session, created.event.id, "Бату", roster.id)
    other = events.hand_in(session, created.event.id, "Ян", roster.id)
    assert other.key is not None and handed.key is not None
    with pytest.raises(KeyRejected):
        events.withdraw(session, created.event.id, handed.handed.id, [other.key])
    with pytest.raises(events.ListNotFound):
        events.withdraw(session, created.event.id, "nosuchlist000000", [handed.key])
    assert events.held(session, created.event.id, [handed.key, "x"])[0].id == handed.handed.id
    events.withdraw(session, created.event.id, handed.handed.id, [handed.key])
    assert [h.player for h in events.lists(session, created.event.id)] == ["Ян"]
    assert events.hand_in(session, created.event.id, "бату", roster.id).key is not None


def test_closed_hand_ins_take_no_new_list_but_a_lists_key_still_replaces_it(
        session: Session) -> None:
    created = _event(session)
    roster = rosters.create_roster(session, mongols()).roster
    handed = events.hand_in(session, created.event.id, "Бату", roster.id)
    closed = events.set_hand_ins(session, created.event.id, open_=False)
    assert closed.hand_ins_closed and not closed.open_to_new()
    with pytest.raises(events.HandInsClosed):
        events.hand_in(session, created.event.id, "Ян", roster.id)
    assert handed.key is not None
    events.hand_in(session, created.event.id, "Бату", roster.id, list_keys=[handed.key])
    assert events.set_hand_ins(session, created.event.id, open_=True).open_to_new()
    events.hand_in(session, created.event.id, "Ян", roster.id)


# Names that case-folding makes longer than the column (ß → ss, ﬃ → ffi, ΐ → three
# characters): stored on both databases, and told apart past the column's length.
GROWING = ["ß" * 120, "ﬃ" * 120, "ΐ" * 120, "ß" * 119 + "a", "ß" * 119 + "b"]


def test_names_that_grow_when_case_folded_are_stored_and_told_apart(session: Session) -> None:
    created = _event(session)
    roster = rosters.create_roster(session, mongols()).roster
    for name in GROWING:
        assert events.hand_in(session, created.event.id, name, roster.id).key is not None
    assert sorted(h.player for h in events.lists(session, created.event.id)) == sorted(GROWING)
    with pytest.raises(events.NameTaken):  # the same player, written in capitals
        events.hand_in(session, created.event.id, "ẞ" * 119 + "A", roster.id)


def test_the_deadline_closes_hand_ins_and_opens_publishing(session: Session) -> None:
    created = _event(session)
    roster = rosters.create_roster(session, mongols()).roster
    with pytest.raises(events.EventOpen):
        events.publish(session, created.event.id)
    after = created.event.rules.deadline + timedelta(seconds=1)
    with pytest.raises(events.EventClosed):
        events.hand_in(session, created.event.id, "Бату", roster.id, now=after)
    published = events.publish(session, created.event.id, now=after)
    assert published.published_at is not None and published.lists == 0
    again = events.publish(session, created.event.id, now=after + timedelta(days=1))
    assert again.published_at == published.published_at
    assert utcnow() < after


def test_one_player_handing_in_twice_at_once_keeps_one_list(engine: Engine) -> None:
    with Session(engine) as session:
        created = _event(session)
        roster = rosters.create_roster(session, mongols()).roster
    start, failures, keys = threading.Barrier(4), [], []

    def hand_in() -> None:
        with Session(engine) as own:
            start.wait()
            try:
                keys.append(events.hand_in(own, created.event.id, "Бату", roster.id).key)
            except events.NameTaken:
                pass
            except Exception as error:  # noqa: BLE001 - any other failure fails the test
                failures.append(error)

    threads = [threading.Thread(target=hand_in) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == [] and len(keys) == 1 and keys[0]  # one winner, with its key
    with Session(engine) as session:
        assert [h.player for h in events.lists(session, created.event.id)] == ["Бату"]
