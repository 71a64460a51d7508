"""Event use-cases: create an event, hand in a list, read the lists, publish them.

An event has three links, as a roster has two: its public id reads its rules (and, once
published, its lists); the organiser's key reads every list, closes hand-ins and publishes;
the hand-in key lets players hand new lists in. Each list has a key of its own, the only thing
that replaces or withdraws it. Every key is stored only as a hash. A list handed in keeps the
roster's document at the version handed in: later edits of the roster change nothing here.
Each function owns its transaction; authorisation (`check_key`) comes before, in the caller.
"""

from __future__ import annotations

import base64
import hmac
import json
import secrets
from collections.abc import Callable, Collection
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
from app.storage.tables import NAME_LENGTH, Event, EventList, EventListHistory, utcnow
from app.systems.events import EventRules, HandedIn, Replaced
from app.systems.stored_documents import read_stored

KeyKind = Literal["organiser", "hand_in"]
MAX_LISTS = 1000  # an event's lists: a tournament's worth, and a bound on the organiser's page
MAX_HISTORY = 50  # the replacements of a list the organiser sees: its latest ones


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


class HandInsClosed(Exception):
    """The organiser has closed hand-ins: no new list."""


class NameTaken(Exception):
    """A list is handed in under this name already, and its key did not come with this one."""


class ListNotFound(Exception):
    """No list by this id in the event."""


@dataclass(frozen=True)
class Handed:
    handed: HandedIn
    key: str | None  # a new list's key, shown once (only its hash is stored); none: replaced


@dataclass(frozen=True)
class StoredEvent:
    id: str
    rules: EventRules
    published_at: datetime | None
    created_at: datetime
    lists: int  # how many lists are handed in
    hand_ins_closed: bool = False  # the organiser has closed hand-ins

    def closed(self, now: datetime | None = None) -> bool:
        return self.rules.passed(now or utcnow())

    def open_to_new(self, now: datetime | None = None) -> bool:
        """Whether a new list is taken now."""
        return not (self.hand_ins_closed or self.closed(now))


@dataclass(frozen=True)
class CreatedEvent:
    event: StoredEvent
    organiser_key: str  # both shown once; only their hashes are stored
    hand_in_key: str


def hand_in_key_of(organiser_key: str) -> str:
    """The hand-in key, drawn from the organiser's (an HMAC of it: as random, and telling
    nothing of it), so that the organiser's page can show the hand-in link again though only
    hashes are stored. Events made before have a random one, which cannot be shown again."""
    drawn = hmac.new(organiser_key.encode("utf-8"), b"muster hand-in key", "sha256").digest()
    return base64.urlsafe_b64encode(drawn[:rosters.KEY_BYTES]).decode("ascii").rstrip("=")


def create_event(session: Session, rules: EventRules, *,
                 admit: Callable[[], None] | None = None) -> CreatedEvent:
    """Store a new event. `admit` (the creation limit) runs just before it is stored."""
    if admit is not None:
        admit()
    organiser = secrets.token_urlsafe(rosters.KEY_BYTES)
    hand_in = hand_in_key_of(organiser)
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
                       utc(row.created_at), _count(session, event_id),
                       row.hand_ins_closed_at is not None)


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


def player_key(player: str) -> str:
    """What tells players apart: the digest of the name's searched (case-folded) form, of one
    length whatever folding makes of the name (ß → ss)."""
    return digest(searched(player))


def _holds(key_hash: str | None, keys: Collection[str]) -> bool:
    """Whether one of `keys` is the list's (a list handed in before keys has none)."""
    return key_hash is not None and any(
        hmac.compare_digest(key_hash, digest(key)) for key in keys)


def _list_row(session: Session, event_id: str, *where: Any) -> EventList | None:
    return session.exec(select(EventList).where(EventList.event_id == event_id, *where)
                        .execution_options(populate_existing=True)).first()


def _keep_replaced(session: Session, row: EventList, now: datetime) -> None:
    """The list as it was, into its history; only the latest MAX_HISTORY are kept."""
    last = session.exec(select(func.max(EventListHistory.seq))
                        .where(EventListHistory.list_id == row.id)).one() or 0
    document = json.loads(row.document)
    session.add(EventListHistory(
        list_id=row.id, seq=last + 1, player=row.player,
        name=column_text(str(document.get("name", "")))[:NAME_LENGTH],
        nation=document.get("nation"), roster_version=row.roster_version,
        handed_in_at=row.handed_in_at, replaced_at=now))
    session.exec(delete(EventListHistory).where(  # type: ignore[call-overload]
        col(EventListHistory.list_id) == row.id,
        col(EventListHistory.seq) <= last + 1 - MAX_HISTORY))


def hand_in(session: Session, event_id: str, player: str, roster_id: str | None,
            version: int | None = None, *, document: BaseModel | None = None,
            list_keys: Collection[str] = (), admit: Callable[[], None] | None = None,
            now: datetime | None = None) -> Handed:
    """Keep the roster as it is at `version` (None: now), or a `document` handed in as a
    file (no roster), as `player`'s list. A new name makes a new list with a key of its own
    (`admit`, the creation limit, runs first); a name taken already replaces that list only
    if `list_keys` holds its key, its earlier form going into its history. Raises
    EventNotFound, EventClosed, HandInsClosed, EventFull, NameTaken, RosterNotFound
    (RosterDeleted) or RevisionNotFound."""
    if roster_id is not None:
        document, version = _roster_at(session, roster_id, version)
    if document is None:
        raise ValueError("a list is a roster or a document")
    now = now or utcnow()
    name = column_text(player).strip()[:NAME_LENGTH]
    wanted = player_key(name)
    with transaction(session):
        taken = _list_row(session, event_id, EventList.player_key == wanted)
    if taken is None and admit is not None:
        admit()  # a new list counts as any creation does; a replacement does not
    key = secrets.token_urlsafe(rosters.KEY_BYTES)
    with transaction(session, write=True):
        # Locked: two hand-ins of one player at once would both find no list to replace, and
        # the second insert would break the one-list-a-player constraint.
        event = _event(session, event_id, lock=True)
        if event.closed(now):
            raise EventClosed(event_id)
        row = _list_row(session, event_id, EventList.player_key == wanted)
        if row is None:
            if event.hand_ins_closed:
                raise HandInsClosed(event_id)
            if event.lists >= MAX_LISTS:
                raise EventFull(event_id)
            row = EventList(id=secrets.token_urlsafe(12), event_id=event_id,
                            player_key=wanted, key_hash=digest(key))
        elif _holds(row.key_hash, list_keys):
            _keep_replaced(session, row, now)
            key = ""
        else:
            raise NameTaken(event_id)
        row.player, row.roster_id, row.roster_version = name, roster_id, version
        row.document, row.handed_in_at = document.model_dump_json(), now
        session.add(row)
        list_id = row.id
    # Answered from these values, not from the row: once committed, the list may be
    # withdrawn at once, and reading the row again would find nothing.
    return Handed(HandedIn(list_id, name, roster_id, version, document, now), key or None)


def withdraw(session: Session, event_id: str, list_id: str, keys: Collection[str], *,
             now: datetime | None = None) -> None:
    """Take a list out of the event with its key (one of `keys`), its history with it.
    Raises EventNotFound, EventClosed, ListNotFound or KeyRejected."""
    now = now or utcnow()
    with transaction(session, write=True):
        if _event(session, event_id, lock=True).closed(now):
            raise EventClosed(event_id)
        row = _list_row(session, event_id, EventList.id == list_id)
        if row is None:
            raise ListNotFound(list_id)
        if not _holds(row.key_hash, keys):
            raise KeyRejected(list_id)
        session.exec(delete(EventListHistory).where(  # type: ignore[call-overload]
            col(EventListHistory.list_id) == list_id))
        session.exec(delete(EventList).where(col(EventList.id) == list_id))  # type: ignore[call-overload]


def _handed(row: EventList, replaced: tuple[Replaced, ...] = ()) -> HandedIn:
    return HandedIn(row.id, row.player, row.roster_id, row.roster_version,
                    read_stored(row.document), utc(row.handed_in_at), replaced)


def _histories(session: Session, event_id: str) -> dict[str, list[Replaced]]:
    rows = session.exec(select(EventListHistory).join(
        EventList, col(EventList.id) == col(EventListHistory.list_id))
        .where(EventList.event_id == event_id).order_by(col(EventListHistory.seq))).all()
    found: dict[str, list[Replaced]] = {}
    for r in rows:
        found.setdefault(r.list_id, []).append(Replaced(
            r.player, r.name, r.nation, r.roster_version, utc(r.handed_in_at),
            utc(r.replaced_at)))
    return found


def lists(session: Session, event_id: str, *, history: bool = False) -> list[HandedIn]:
    """Every list handed in, by player; with `history`, what each replaced (the organiser's)."""
    with transaction(session):
        rows = session.exec(select(EventList).where(EventList.event_id == event_id)).all()
        earlier = _histories(session, event_id) if history else {}
    rows = sorted(rows, key=lambda r: (searched(r.player), r.id))  # the key is a digest
    return [_handed(r, tuple(earlier.get(r.id, ()))) for r in rows]


def held(session: Session, event_id: str, keys: Collection[str]) -> list[HandedIn]:
    """The lists of the event whose keys are among `keys` (those a browser keeps)."""
    hashes = [digest(key) for key in keys]
    if not hashes:
        return []
    with transaction(session):
        rows = session.exec(select(EventList).where(
            EventList.event_id == event_id, col(EventList.key_hash).in_(hashes))
            .order_by(col(EventList.handed_in_at))).all()
    return [_handed(r) for r in rows]


def set_hand_ins(session: Session, event_id: str, *, open_: bool,
                 now: datetime | None = None) -> StoredEvent:
    """The organiser closes hand-ins (no new list; a list's key still replaces or withdraws
    it until the deadline), or opens them again."""
    with transaction(session, write=True):
        _event(session, event_id)
        session.exec(update(Event).where(col(Event.id) == event_id).values(  # type: ignore[call-overload]
            hand_ins_closed_at=None if open_ else (now or utcnow())))
        return _event(session, event_id)


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
