"""Events on both databases: the keys are kept as hashes, a list keeps the version handed in,
the newest list of a player counts, the deadline closes hand-ins and opens publishing."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import Engine
from sqlmodel import Session, select

from app.services import events, rosters
from app.services.errors import KeyRejected
from app.storage.tables import Event, utcnow
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


def test_a_list_keeps_the_version_handed_in_and_the_newest_counts(session: Session) -> None:
    created = _event(session)
    roster = rosters.create_roster(session, mongols()).roster
    events.hand_in(session, created.event.id, "Бату", roster.id)
    rosters.replace_roster(session, roster.id, {**mongols(), "name": "Другая орда"}, 1)
    kept = events.lists(session, created.event.id)
    assert [(k.player, k.roster_version, k.document.name) for k in kept] == [  # type: ignore[attr-defined]
        ("Бату", 1, "Орда Субэдэя")]
    other = rosters.create_roster(session, russians()).roster
    events.hand_in(session, created.event.id, "БАТУ", other.id)
    events.hand_in(session, created.event.id, "Ян", roster.id, 1)
    kept = events.lists(session, created.event.id)
    assert [(k.player, k.roster_id) for k in kept] == [("БАТУ", other.id), ("Ян", roster.id)]
    assert events.get_event(session, created.event.id).lists == 2


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
    start, failures = threading.Barrier(4), []

    def hand_in() -> None:
        with Session(engine) as own:
            start.wait()
            try:
                events.hand_in(own, created.event.id, "Бату", roster.id)
            except Exception as error:  # noqa: BLE001 - any failure fails the test
                failures.append(error)

    threads = [threading.Thread(target=hand_in) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Session(engine) as session:
        assert [h.player for h in events.lists(session, created.event.id)] == ["Бату"]
