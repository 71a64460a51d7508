"""A roster's revisions: every stored version, kept as the session's `max_revisions` allows
(rosters.py prunes them with each change)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel
from sqlmodel import Session, col, select

from app.services.errors import RevisionNotFound
from app.services.stored_rosters import MAX_VERSION, live_roster, utc
from app.storage.db import transaction as _transaction
from app.storage.tables import Revision as RevisionRow
from app.systems.stored_documents import read_stored


@dataclass(frozen=True)
class RevisionInfo:
    version: int
    created_at: datetime


@dataclass(frozen=True)
class Revision:
    version: int
    created_at: datetime
    document: BaseModel


def list_revisions(session: Session, roster_id: str) -> list[RevisionInfo]:
    with _transaction(session):
        live_roster(session, roster_id)
        rows = session.exec(select(RevisionRow.version, RevisionRow.created_at)
                            .where(RevisionRow.roster_id == roster_id)
                            .order_by(col(RevisionRow.version))).all()
        return [RevisionInfo(version, utc(created)) for version, created in rows]


def get_revision(session: Session, roster_id: str, version: int) -> Revision:
    with _transaction(session):
        live_roster(session, roster_id)
        row = None
        if 1 <= version <= MAX_VERSION:
            row = session.exec(select(RevisionRow).where(RevisionRow.roster_id == roster_id,
                                                         RevisionRow.version == version)).first()
        if row is None:
            raise RevisionNotFound(roster_id, version)
        return Revision(row.version, utc(row.created_at), read_stored(row.document))
