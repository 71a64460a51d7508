"""The reads of a stored roster every use-case shares (by id, live or deleted, with a browser's
right to edit it) and their helpers: hashing secrets, UTC times, the searched form of a name."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from sqlalchemy import bindparam
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.services.errors import RosterDeleted, RosterNotFound
from app.services.records import RESTORE_DAYS, StoredRoster
from app.storage.tables import (
    Device,
    DeviceRoster,
    Roster,
)


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


def stored_roster(row: Roster | RosterRow) -> StoredRoster:
    return StoredRoster(
        id=row.id, version=row.version, text=row.document,
        ruleset=row.ruleset, name=row.name, created_at=utc(row.created_at),
        updated_at=utc(row.updated_at), copied_from_id=row.copied_from_id,
        copied_from_version=row.copied_from_version)


def fetch_roster(session: Session, roster_id: str) -> Roster | None:
    return session.exec(_BY_ID, params={"roster_id": roster_id}).first()  # type: ignore[call-overload,no-any-return]


def live_roster(session: Session, roster_id: str, days: int = RESTORE_DAYS) -> Roster:
    row = fetch_roster(session, roster_id)
    if row is None:
        raise RosterNotFound(roster_id)
    if row.deleted_at is not None:
        raise RosterDeleted(roster_id, utc(row.deleted_at) + timedelta(days=days))
    return row


ROSTER = Roster.__table__
GRANT, DEVICE = DeviceRoster.__table__, Device.__table__


class RosterRow(NamedTuple):
    id: str
    version: int
    document: str
    ruleset: str
    name: str
    created_at: datetime
    updated_at: datetime
    copied_from_id: str | None
    copied_from_version: int | None
    deleted_at: datetime | None


# A roster's columns, those of RosterRow; alone (ROW_BY_ID), and with the browser's right to edit
# it, in one read (EDITABLE_ROW).
_COLUMNS = (ROSTER.c.id, ROSTER.c.version, ROSTER.c.document, ROSTER.c.ruleset,
            ROSTER.c.name, ROSTER.c.created_at, ROSTER.c.updated_at,
            ROSTER.c.copied_from_id, ROSTER.c.copied_from_version, ROSTER.c.deleted_at)
ROW_BY_ID = sa_select(*_COLUMNS).where(ROSTER.c.id == bindparam("roster_id"))
_BY_ID = (select(Roster).where(col(Roster.id) == bindparam("roster_id"))
          .execution_options(populate_existing=True))
EDITABLE_ROW = (
    sa_select(*_COLUMNS)
    .select_from(ROSTER.join(GRANT, GRANT.c.roster_id == ROSTER.c.id)
                 .join(DEVICE, DEVICE.c.id == GRANT.c.device_id))
    .where(ROSTER.c.id == bindparam("roster_id"), GRANT.c.can_edit.is_(True),
           DEVICE.c.token_hash == bindparam("token_hash")))
