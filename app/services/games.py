"""Game use-cases: start a game from a roster version, let the opponent join with an army of
their own, read it, and change it (a turn, a test, a casualty, an undo), each in its own
transaction.

A game has its own capability links, as a roster does: the public id reads it, each side's
key (stored only as a hash, as the join key) changes it — the turn for both, the rest only
for that side. A change names the version it was made against; the
version check and the log's new entries are one transaction, so two players pressing "Next
turn" at once roll one turn, not two. The log is only ever appended to.
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import update
from sqlmodel import Session, col, select

from app.services import revisions, rosters
from app.services.errors import KeyRejected
from app.services.stored_rosters import digest, utc
from app.storage.db import transaction
from app.storage.tables import NAME_LENGTH, Game, GameEntry, utcnow
from app.systems import game as rules
from app.systems.game.state import Entry, GameState

Change = Callable[[dict[str, Any], GameState, list[Entry]], list[Entry]]


@dataclass(frozen=True)
class StoredGame:
    id: str
    roster_id: str
    roster_version: int
    ruleset: str
    name: str
    setup: dict[str, Any]  # the ruleset and each side's setup, in `sides`
    version: int
    log: list[Entry]
    created_at: datetime
    updated_at: datetime
    rosters: list[tuple[str, int]]  # each side's roster and version
    joinable: bool  # a join key was given and no second side has used it yet

    def state(self) -> GameState:
        return rules.replay(self.setup, self.log)


class GameNotFound(Exception):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class GameConflict(Exception):
    """The game changed since the version the caller read; `current` is how it stands."""

    def __init__(self, current: StoredGame) -> None:
        super().__init__(f"game {current.id!r} is at version {current.version}")
        self.current = current


class NotPlayable(ValueError):
    """The roster's rule system has no game companion."""


class OtherRuleset(ValueError):
    """The joining army plays another rule system than the game's."""


class AlreadyJoined(Exception):
    """The game has its second side already."""


def _stored(row: Game, log: list[Entry]) -> StoredGame:
    sides = [json.loads(row.setup)]
    rosters_ = [(row.roster_id, row.roster_version)]
    if row.second_setup is not None:
        sides.append(json.loads(row.second_setup))
        rosters_.append((row.second_roster_id or "", row.second_roster_version or 0))
    return StoredGame(row.id, row.roster_id, row.roster_version, row.ruleset, row.name,
                      {"ruleset": row.ruleset, "sides": sides}, row.version, log,
                      utc(row.created_at), utc(row.updated_at), rosters_,
                      row.join_key_hash is not None and row.second_setup is None)


def _entries(game_id: str, entries: list[Entry], now: datetime) -> list[GameEntry]:
    return [GameEntry(game_id=game_id, seq=e["seq"], created_at=now,
                      entry=json.dumps(e, ensure_ascii=False)) for e in entries]


def _roster_document(session: Session, roster_id: str, version: int | None) -> tuple[Any, int]:
    if version is None:
        roster = rosters.get_roster(session, roster_id)
        return roster.document, roster.version
    return revisions.get_revision(session, roster_id, version).document, version


def _side_setup(session: Session, roster_id: str, version: int | None, weather: str,
                castle_defenders: bool) -> tuple[dict[str, Any], int]:
    document, version = _roster_document(session, roster_id, version)
    try:
        return rules.setup_of(document, weather, castle_defenders), version
    except ValueError as error:
        raise NotPlayable(str(error)) from error


def create_game(session: Session, roster_id: str, version: int | None, weather: str, *,
                castle_defenders: bool = False, roller: rules.Roller = rules.secure,
                admit: Callable[[], None] | None = None) -> tuple[StoredGame, str, str]:
    """A new game of the roster as it was at `version` (None: as it is now), the first
    side's key and the key the opponent joins with. Raises RosterNotFound /
    RevisionNotFound, or NotPlayable."""
    setup, version = _side_setup(session, roster_id, version, weather, castle_defenders)
    log = rules.start(setup, roller)
    if admit is not None:
        admit()
    now, key = utcnow(), secrets.token_urlsafe(rosters.KEY_BYTES)
    join_key = secrets.token_urlsafe(rosters.KEY_BYTES)
    row = Game(id=secrets.token_urlsafe(12), edit_key_hash=digest(key),
               join_key_hash=digest(join_key),
               roster_id=roster_id, roster_version=version, ruleset=setup["ruleset"],
               name=str(setup["name"]).replace("\x00", "")[:NAME_LENGTH],
               setup=json.dumps(setup, ensure_ascii=False), version=1, entries=len(log),
               created_at=now, updated_at=now)
    with transaction(session, write=True):
        session.add(row)
        session.flush()  # the game first: its entries refer to it
        session.add_all(_entries(row.id, log, now))
        stored = _stored(row, log)
    return stored, key, join_key


def join_game(session: Session, game_id: str, join_key: str, roster_id: str,
              version: int | None, castle_defenders: bool = False) -> tuple[StoredGame, str]:
    """The opponent's army joins the game as its second side; answers the game and the
    side's key. Raises GameNotFound, KeyRejected, AlreadyJoined, RosterNotFound /
    RevisionNotFound, NotPlayable or OtherRuleset."""
    with transaction(session):
        row = session.exec(select(Game).where(Game.id == game_id)
                           .execution_options(populate_existing=True)).first()
    if row is None:
        raise GameNotFound(game_id)
    if row.join_key_hash is None or not hmac.compare_digest(row.join_key_hash,
                                                            digest(join_key)):
        raise KeyRejected(game_id)
    if row.second_setup is not None:
        raise AlreadyJoined(game_id)
    setup, version = _side_setup(session, roster_id, version, "off", castle_defenders)
    if setup["ruleset"] != row.ruleset:
        raise OtherRuleset(setup["ruleset"])
    key = secrets.token_urlsafe(rosters.KEY_BYTES)
    with transaction(session, write=True):
        moved = session.execute(update(Game).where(
            col(Game.id) == game_id, col(Game.second_setup).is_(None)).values(
            second_key_hash=digest(key), second_roster_id=roster_id,
            second_roster_version=version, second_setup=json.dumps(setup, ensure_ascii=False),
            version=col(Game.version) + 1, updated_at=utcnow()))
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            raise AlreadyJoined(game_id)
        joined = _read(session, game_id)
    return joined, key


def _read(session: Session, game_id: str) -> StoredGame:
    # Read afresh, not from the session's identity map: another request may have changed it.
    row = session.exec(select(Game).where(Game.id == game_id)
                       .execution_options(populate_existing=True)).first()
    if row is None:
        raise GameNotFound(game_id)
    texts = session.exec(select(GameEntry.entry).where(GameEntry.game_id == game_id)
                         .order_by(col(GameEntry.seq))).all()
    return _stored(row, [json.loads(text) for text in texts])


def get_game(session: Session, game_id: str) -> StoredGame:
    with transaction(session):
        return _read(session, game_id)


def version_of(session: Session, game_id: str) -> int | None:
    """The game's version alone (None: no such game): what a page following it asks."""
    with transaction(session):
        return session.exec(select(Game.version).where(Game.id == game_id)).first()


def joins(session: Session, game_id: str, join_key: str) -> bool:
    """Whether `join_key` is the game's join key and no second side has joined yet."""
    with transaction(session):
        row = session.exec(select(Game.join_key_hash, Game.second_setup)
                           .where(Game.id == game_id)).first()
    return (row is not None and row[0] is not None and row[1] is None
            and hmac.compare_digest(row[0], digest(join_key)))


def check_key(session: Session, game_id: str, key: str) -> int:
    """The side whose key `key` is (0 or 1); raise GameNotFound, or KeyRejected unless it
    is one of the sides' keys."""
    with transaction(session):
        stored = session.exec(select(Game.edit_key_hash, Game.second_key_hash)
                              .where(Game.id == game_id)).first()
    if stored is None:
        raise GameNotFound(game_id)
    sent = digest(key)
    for side, hashed in enumerate(stored):
        if hashed is not None and hmac.compare_digest(hashed, sent):
            return side
    raise KeyRejected(game_id)


def change(session: Session, game_id: str, expected: int, act: Change) -> StoredGame:
    """Apply `act(setup, state, log)` (its new entries) to the game at version `expected`.
    Raises GameNotFound, GameConflict, or the domain's GameRefused (nothing is written)."""
    with transaction(session, write=True):
        current = _read(session, game_id)
        if current.version != expected:
            raise GameConflict(current)
        new = act(current.setup, current.state(), current.log)
        now = utcnow()
        moved = session.execute(update(Game).where(
            col(Game.id) == game_id, col(Game.version) == expected).values(
            version=expected + 1, entries=len(current.log) + len(new), updated_at=now))
        if moved.rowcount != 1:  # type: ignore[attr-defined]
            raise GameConflict(current)
        session.add_all(_entries(game_id, new, now))
    return replace(current, version=expected + 1, log=current.log + new, updated_at=now)


def next_turn(roller: rules.Roller = rules.secure) -> Change:
    return lambda setup, state, log: rules.next_turn(setup, state, roller)


def roll_test(unit: int, ask: dict[str, Any], roller: rules.Roller = rules.secure,
              side: int = 0) -> Change:
    return lambda setup, state, log: rules.roll_test(setup, state, unit, ask, roller, side)


def casualty(unit: int, delta: int, side: int = 0) -> Change:
    return lambda setup, state, log: rules.casualty(setup, state, unit, delta, side)


def undo(side: int = 0) -> Change:
    return lambda setup, state, log: rules.undo(state, log, side)
