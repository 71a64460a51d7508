"""The stored roster as every use-case hands it back, and the bounds of its keeping."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel

RESTORE_DAYS = 30
MAX_VERSION = 2**31 - 1  # the version column is a 32-bit integer on PostgreSQL


@dataclass(frozen=True)
class StoredRoster:
    id: str
    version: int
    document: BaseModel  # a validated RosterDocument instance
    ruleset: str
    name: str
    created_at: datetime
    updated_at: datetime
    copied_from_id: str | None
    copied_from_version: int | None
