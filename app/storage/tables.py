"""Stored rosters as SQLModel tables.

A roster row holds the current document plus summary columns (name, nation, total …) copied from
it on every write, so lists sort and search without pricing each roster again. Every accepted
document is also kept, unchanged, as a revision. The schema is created only by the Alembic
migrations in `migrations/`; a test compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel

PUBLIC_ID_LENGTH = 16  # secrets.token_urlsafe(12): 96 random bits
HASH_LENGTH = 64  # sha256 hex digest
NAME_LENGTH = 120


def utcnow() -> datetime:
    return datetime.now(UTC)


class Roster(SQLModel, table=True):
    id: str = Field(sa_type=String(PUBLIC_ID_LENGTH), primary_key=True)
    edit_key_hash: str = Field(sa_type=String(HASH_LENGTH))
    version: int = Field(sa_type=Integer)
    document: str = Field(sa_type=Text, description="the roster document as JSON text")
    # Summary columns, derived from `document` on every write.
    name: str = Field(sa_type=String(NAME_LENGTH))
    search_name: str = Field(sa_type=String(NAME_LENGTH), index=True,
                             description="name.casefold(): SQL lower() misses Cyrillic on SQLite")
    ruleset: str = Field(sa_type=String(32))
    nation: str | None = Field(default=None, sa_type=String(32))
    total: float = Field(sa_type=Double)
    points_limit: int | None = Field(default=None, sa_type=Integer)
    verdict: str = Field(sa_type=String(8),
                         description='app.domain.base.Verdict: "legal", "warnings" or "broken"')
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))
    deleted_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True), index=True)
    # Provenance of a copy: plain values, not a foreign key, so it outlives a purged original.
    copied_from_id: str | None = Field(default=None, sa_type=String(PUBLIC_ID_LENGTH))
    copied_from_version: int | None = Field(default=None, sa_type=Integer)


class Revision(SQLModel, table=True):
    """The document as it was at one version; never updated, removed only with its roster."""

    roster_id: str = Field(
        sa_column=Column(String(PUBLIC_ID_LENGTH), ForeignKey("roster.id", ondelete="CASCADE"),
                         primary_key=True))
    version: int = Field(
        sa_column=Column(Integer, primary_key=True, autoincrement=False))
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    document: str = Field(sa_type=Text)


class Device(SQLModel, table=True):
    """A browser remembered by a cookie token; only the token's hash is stored."""

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(sa_type=String(HASH_LENGTH), unique=True)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))


class DeviceRoster(SQLModel, table=True):
    """A roster a device has opened, and whether it was opened with the edit key."""

    __tablename__ = "device_roster"

    device_id: int = Field(
        sa_column=Column(Integer, ForeignKey("device.id", ondelete="CASCADE"), primary_key=True))
    roster_id: str = Field(
        sa_column=Column(String(PUBLIC_ID_LENGTH), ForeignKey("roster.id", ondelete="CASCADE"),
                         primary_key=True, index=True))
    can_edit: bool = Field(sa_type=Boolean)
    last_opened: datetime = Field(sa_type=DateTime(timezone=True))


class Event(SQLModel, table=True):
    """An event (app/services/events.py): its rules as JSON, two keys kept only as hashes (the
    organiser's, and the hand-in link's players use), and whether its lists are published."""

    id: str = Field(sa_type=String(PUBLIC_ID_LENGTH), primary_key=True)
    organiser_key_hash: str = Field(sa_type=String(HASH_LENGTH))
    hand_in_key_hash: str = Field(sa_type=String(HASH_LENGTH))
    name: str = Field(sa_type=String(NAME_LENGTH))
    rules: str = Field(sa_type=Text, description="app.systems.events.EventRules as JSON text")
    deadline: datetime = Field(sa_type=DateTime(timezone=True))
    published_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    # Set while the organiser has closed hand-ins: no new list until reopened.
    hand_ins_closed_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True))


class EventList(SQLModel, table=True):
    """A list handed in to an event: the roster's document at the version handed in, kept as
    it was then; one a player (by the digest of the name's searched form, which case-folding
    cannot make longer than the column), replaced only with the list's own key (kept as a
    hash; none for lists handed in before lists had keys)."""

    __tablename__ = "event_list"
    __table_args__ = (UniqueConstraint("event_id", "player_key",
                                       name="uq_event_list_event_id_player_key"),)

    id: str = Field(sa_type=String(PUBLIC_ID_LENGTH), primary_key=True)
    event_id: str = Field(
        sa_column=Column(String(PUBLIC_ID_LENGTH), ForeignKey("event.id", ondelete="CASCADE"),
                         nullable=False))
    player_key: str = Field(sa_type=String(HASH_LENGTH))
    player: str = Field(sa_type=String(NAME_LENGTH))
    key_hash: str | None = Field(default=None, sa_type=String(HASH_LENGTH), nullable=True)
    # The roster and version handed in; none for a list handed in as an exported file.
    roster_id: str | None = Field(default=None, sa_type=String(PUBLIC_ID_LENGTH))
    roster_version: int | None = Field(default=None, sa_type=Integer)
    document: str = Field(sa_type=Text)
    handed_in_at: datetime = Field(sa_type=DateTime(timezone=True))


class EventListHistory(SQLModel, table=True):
    """A list as it was before a replacement, for the organiser: what was handed in, when, and
    when it was replaced (the latest ones of each list; app/services/events.py)."""

    __tablename__ = "event_list_history"

    list_id: str = Field(
        sa_column=Column(String(PUBLIC_ID_LENGTH), ForeignKey("event_list.id", ondelete="CASCADE"),
                         primary_key=True))
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    player: str = Field(sa_type=String(NAME_LENGTH))
    name: str = Field(sa_type=String(NAME_LENGTH), description="the army's name")
    nation: str | None = Field(default=None, sa_type=String(32))
    roster_version: int | None = Field(default=None, sa_type=Integer)
    handed_in_at: datetime = Field(sa_type=DateTime(timezone=True))
    replaced_at: datetime = Field(sa_type=DateTime(timezone=True))


class CreationLog(SQLModel, table=True):
    """One roster creation admitted by the creation limit (app/services/creation_limit.py):
    who and when.

    Kept in the database rather than in memory so that every server process counts against the
    same total. A client needs at most `limit` rows (those in the last window); older ones are
    deleted as it creates, and other clients' old ones now and then.
    """

    __tablename__ = "creation_log"
    # The one read: a client's latest creations, newest first, down to the window's start.
    __table_args__ = (Index("ix_creation_log_client_created_ms", "client", "created_ms"),)

    id: int | None = Field(default=None, primary_key=True)
    client: str = Field(sa_type=String(64))
    # Whole milliseconds, not a float of seconds: the window's edges are then compared exactly,
    # in Python and in SQL alike, on both databases.
    created_ms: int = Field(sa_type=BigInteger, description="milliseconds since the epoch")


class Game(SQLModel, table=True):
    """A game played with a roster version on each side (app/services/games.py): each
    side's setup, taken from that version when it joined, and the game's counters; what
    happened is its entries' log. A roster is named by plain values, not a foreign key: a
    game outlives its rosters."""

    id: str = Field(sa_type=String(PUBLIC_ID_LENGTH), primary_key=True)
    edit_key_hash: str = Field(sa_type=String(HASH_LENGTH))
    roster_id: str = Field(sa_type=String(PUBLIC_ID_LENGTH))
    roster_version: int = Field(sa_type=Integer)
    ruleset: str = Field(sa_type=String(32))
    name: str = Field(sa_type=String(NAME_LENGTH))
    setup: str = Field(sa_type=Text, description="the army at the start, as JSON text")
    version: int = Field(sa_type=Integer, description="1 at the start, +1 per change")
    entries: int = Field(sa_type=Integer, description="how many entries the log holds")
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=DateTime(timezone=True), index=True)
    # The opponent's side: the join key lets one army in; the side's own key then plays it.
    # Null in games made before a second side could join: they stay games of one side.
    join_key_hash: str | None = Field(default=None, sa_type=String(HASH_LENGTH), nullable=True)
    second_key_hash: str | None = Field(default=None, sa_type=String(HASH_LENGTH),
                                        nullable=True)
    second_roster_id: str | None = Field(default=None, sa_type=String(PUBLIC_ID_LENGTH),
                                         nullable=True)
    second_roster_version: int | None = Field(default=None, sa_type=Integer, nullable=True)
    second_setup: str | None = Field(default=None, sa_type=Text, nullable=True,
                                     description="the second army at its start, as JSON text")


class GameEntry(SQLModel, table=True):
    """One entry of a game's log (a roll, a casualty, a turn …); only ever inserted."""

    __tablename__ = "game_entry"

    game_id: str = Field(
        sa_column=Column(String(PUBLIC_ID_LENGTH), ForeignKey("game.id", ondelete="CASCADE"),
                         primary_key=True))
    seq: int = Field(sa_column=Column(Integer, primary_key=True, autoincrement=False))
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    entry: str = Field(sa_type=Text, description="the entry as JSON text")
