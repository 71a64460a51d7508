"""The stored roster as every use-case hands it back (`StoredRoster`), the bounds of its keeping,
and the reads of it every use-case shares: by id, live or deleted, with a browser's right to edit
it; with their helpers: hashing secrets, UTC times, the searched form of a name."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Row, bindparam
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.services.errors import RosterDeleted, RosterNotFound
from app.storage.tables import (
    Device,
    DeviceRoster,
    Roster,
)
from app.systems.stored_documents import read_stored

RESTORE_DAYS = 30
MAX_VERSION = 2**31 - 1  # the version column is a 32-bit integer on PostgreSQL


@dataclass(frozen=True)
class StoredRoster:
    id: str
    version: int
    document: BaseModel  # a validated RosterDocument
    ruleset: str
    name: str
    created_at: datetime
    updated_at: datetime
    copied_from_id: str | None
    copied_from_version: int | None


def digest(secret: str) -> str:
    # A plain hash is enough: keys and tokens are ≥128 random bits, not guessable passwords.
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything stored is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def column_text(text: str) -> str:
    # PostgreSQL text cannot hold NUL; the JSON document keeps it escaped, the columns drop it.
    return text.replace("\x00", "")


def searched(text: str) -> str:
    """Text as "my rosters" searches it: as names are stored for it (search_name)."""
    return column_text(text).casefold()


def stored_roster(row: Roster | Row[Any]) -> StoredRoster:
    """The roster of a row: the table's, or the columns ROW_BY_ID and EDITABLE_ROW read."""
    return StoredRoster(
        id=row.id, version=row.version, document=read_stored(row.document),
        ruleset=row.ruleset, name=row.name, created_at=utc(row.created_at),
        updated_at=utc(row.updated_at), copied_from_id=row.copied_from_id,
        copied_from_version=row.copied_from_version)


def refuse_deleted(row: Roster | Row[Any], days: int = RESTORE_DAYS) -> None:
    """RosterDeleted (restorable `days` after its deletion) if the row's roster is deleted."""
    if row.deleted_at is not None:
        raise RosterDeleted(row.id, utc(row.deleted_at) + timedelta(days=days))


def fetch_roster(session: Session, roster_id: str) -> Roster | None:
    return session.exec(_BY_ID, params={"roster_id": roster_id}).first()  # type: ignore[call-overload,no-any-return]


def live_roster(session: Session, roster_id: str, days: int = RESTORE_DAYS) -> Roster:
    row = fetch_roster(session, roster_id)
    if row is None:
        raise RosterNotFound(roster_id)
    refuse_deleted(row, days)
    return row


ROSTER = Roster.__table__
GRANT, DEVICE = DeviceRoster.__table__, Device.__table__

# The columns `stored_roster` and `refuse_deleted` read; alone (ROW_BY_ID), and with the
# browser's right to edit the roster, in one read (EDITABLE_ROW).
_COLUMNS = (ROSTER.c.id, ROSTER.c.version, ROSTER.c.document, ROSTER.c.ruleset,
            ROSTER.c.name, ROSTER.c.created_at, ROSTER.c.updated_at,
            ROSTER.c.copied_from_id, ROSTER.c.copied_from_version, ROSTER.c.deleted_at)
ROW_BY_ID = sa_select(*_COLUMNS).where(ROSTER.c.id == bindparam("roster_id"))
_BY_ID = (select(Roster).where(col(Roster.id) == bindparam("roster_id"))
          .execution_options(populate_existing=True))
EDITABLE_ROW = (
    sa_select(*_COLUMNS, GRANT.c.device_id)
    .select_from(ROSTER.join(GRANT, GRANT.c.roster_id == ROSTER.c.id)
                 .join(DEVICE, DEVICE.c.id == GRANT.c.device_id))
    .where(ROSTER.c.id == bindparam("roster_id"), GRANT.c.can_edit.is_(True),
           DEVICE.c.token_hash == bindparam("token_hash")))
