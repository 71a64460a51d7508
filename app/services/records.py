"""The stored roster as every use-case hands it back, and the bounds of its keeping."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from app.domain.stored_documents import read_stored

RESTORE_DAYS = 30
MAX_VERSION = 2**31 - 1  # the version column is a 32-bit integer on PostgreSQL


@dataclass(frozen=True)
class StoredRoster:
    id: str
    version: int
    text: str  # the document as stored: its JSON
    ruleset: str
    name: str
    created_at: datetime
    updated_at: datetime
    copied_from_id: str | None
    copied_from_version: int | None

    @functools.cached_property
    def document(self) -> BaseModel:
        """The stored document, a validated RosterDocument: read from `text` when first
        asked for (a read answered from its kept evaluation never asks)."""
        return read_stored(self.text)

    @classmethod
    def written(cls, document: BaseModel, **fields: Any) -> StoredRoster:
        """A roster as just written from `document` (whose JSON is `text`): not read again."""
        roster = cls(**fields)
        roster.__dict__["document"] = document  # where cached_property keeps its value
        return roster
