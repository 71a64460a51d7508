"""Event use-cases: create an event, hand in a list, read the lists, publish them.

An event has three links, as a roster has two: its public id reads its rules (and, once
published, its lists); the organiser's key reads every list and publishes; the hand-in key lets
players hand lists in. Both keys are stored only as hashes. A list handed in keeps the
roster's document at the version handed in: later edits of the roster change nothing here.
Each function owns its transaction; authorisation (`check_key`) comes before, in the caller.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from app.services import revisions, rosters
from app.services.errors import KeyRejected
from app.services.stored_rosters import column_text, digest, searched, utc
from app.storage.db import transaction
from app.storage.tables import NAME_LENGTH, Event, EventList, utcnow
from app.systems.events import EventRules, HandedIn
from app.systems.stored_documents import read_stored

KeyKind = Literal["organiser", "hand_in"]
MAX_LISTS = 1000  # an event's lists: a tournament's worth, and a bound on the organiser's page


class EventNotFound(Exception):
    def __init__(self, event_id: str) -> None:
        super().__init__(f"no event {event_id!r}")
        self.event_id = event_id


class EventClosed(Exception):
    """The deadline has passed: no more lists are handed in."""


class EventOpen(Exception):
    """The deadline has not passed yet: the lists cannot be published."""


class EventFull(Exception):
    """The event holds as many lists as it may."""


@dataclass(frozen=True)
class StoredEvent:
    id: str
    rules: EventRules
    published_at: datetime | None
    created_at: datetime
    lists: int  # how many lists are handed in

    def closed(self, now: datetime | None = None) -> bool:
        return self.rules.passed(now or utcnow())


@dataclass(frozen=True)
class CreatedEvent:
    event: StoredEvent
    organiser_key: str  # both shown once; only their hashes are stored
    hand_in_key: str


def create_event(session: Session, rules: EventRules, *,
                 admit: Callable[[], None] | None = None) -> CreatedEvent:
    """Store a new event. `admit` (the creation limit) runs just before it is stored."""
    if admit is not None:
        admit()
    organiser, hand_in = (secrets.token_urlsafe(rosters.KEY_BYTES) for _ in range(2))
    now = utcnow()
    row = Event(id=secrets.token_urlsafe(12), organiser_key_hash=digest(organiser),
                hand_in_key_hash=digest(hand_in), name=column_text(rules.name)[:NAME_LENGTH],
                rules=rules.model_dump_json(), deadline=rules.deadline, created_at=now)
    with transaction(session, write=True):
        session.add(row)
        stored = StoredEvent(row.id, rules, None, now, 0)
    return CreatedEvent(stored, organiser, hand_in)


def _count(session: Session, event_id: str) -> int:
    return int(session.exec(select(func.count()).select_from(EventList)
                            .where(EventList.event_id == event_id)).one())


def _event(session: Session, event_id: str, *, lock: bool = False) -> StoredEvent:
    statement = select(Event).where(Event.id == event_id)
    if lock:  # PostgreSQL: hand-ins to one event take turns (SQLite's writers always do)
        statement = statement.with_for_update()
    row = session.exec(statement.execution_options(populate_existing=True)).first()
    if row is None:
        raise EventNotFound(event_id)
    published = utc(row.published_at) if row.published_at else None
    return StoredEvent(row.id, EventRules.model_validate_json(row.rules), published,
                       utc(row.created_at), _count(session, event_id))


def get_event(session: Session, event_id: str) -> StoredEvent:
    with transaction(session):
        return _event(session, event_id)


def check_key(session: Session, event_id: str, key: str, kind: KeyKind) -> None:
    """Raise EventNotFound, or KeyRejected unless `key` is the event's key of that kind."""
    column = Event.organiser_key_hash if kind == "organiser" else Event.hand_in_key_hash
    with transaction(session):
        stored = session.exec(select(column).where(Event.id == event_id)).first()
    if stored is None:
        raise EventNotFound(event_id)
    if not hmac.compare_digest(str(stored), digest(key)):
        raise KeyRejected(event_id)


def _roster_at(session: Session, roster_id: str, version: int | None) -> tuple[Any, int]:
    if version is None:
        roster = rosters.get_roster(session, roster_id)
        return roster.document, roster.version
    return revisions.get_revision(session, roster_id, version).document, version


def hand_in(session: Session, event_id: str, player: str, roster_id: str | None,
            version: int | None = None, *, document: BaseModel | None = None,
            now: datetime | None = None) -> HandedIn:
    """Keep the roster as it is at `version` (None: now), or a `document` handed in as a
    file (no roster), as `player`'s list, in place of any list the same player handed in
    before. Raises EventNotFound, EventClosed, EventFull, RosterNotFound (RosterDeleted) or
    RevisionNotFound."""
    if roster_id is not None:
        document, version = _roster_at(session, roster_id, version)
    if document is None:
        raise ValueError("a list is a roster or a document")
    now = now or utcnow()
    name = column_text(player).strip()[:NAME_LENGTH]
    # Answered from these values, not from the row: once committed, a later hand-in of the same
    # player may already have replaced it, and reading the row again would find nothing.
    list_id = secrets.token_urlsafe(12)
    row = EventList(id=list_id, event_id=event_id, player_key=searched(name),
                    player=name, roster_id=roster_id, roster_version=version,
                    document=document.model_dump_json(), handed_in_at=now)
    with transaction(session, write=True):
        # Locked: two hand-ins of one player at once would both find no list to replace, and
        # the second insert would break the one-list-a-player constraint.
        event = _event(session, event_id, lock=True)
        if event.closed(now):
            raise EventClosed(event_id)
        replaced = session.exec(delete(EventList).where(  # type: ignore[call-overload]
            col(EventList.event_id) == event_id, col(EventList.player_key) == row.player_key))
        if not replaced.rowcount and event.lists >= MAX_LISTS:
            raise EventFull(event_id)
        session.add(row)
    return HandedIn(list_id, name, roster_id, version, document, now)


def lists(session: Session, event_id: str) -> list[HandedIn]:
    """Every list handed in (the newest of each player), by player."""
    with transaction(session):
        rows = session.exec(select(EventList).where(EventList.event_id == event_id)
                            .order_by(col(EventList.player_key))).all()
    return [HandedIn(r.id, r.player, r.roster_id, r.roster_version, read_stored(r.document),
                     utc(r.handed_in_at)) for r in rows]


def publish(session: Session, event_id: str, *, now: datetime | None = None) -> StoredEvent:
    """Publish the lists: the public page shows them from now on. Only after the deadline
    (EventOpen before); publishing again keeps the first moment."""
    now = now or utcnow()
    with transaction(session, write=True):
        event = _event(session, event_id)
        if not event.closed(now):
            raise EventOpen(event_id)
        session.exec(update(Event).where(  # type: ignore[call-overload]
            col(Event.id) == event_id, col(Event.published_at).is_(None)
        ).values(published_at=now))
        return _event(session, event_id)
