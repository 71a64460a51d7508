"""JSON shapes every rule system's priced result shares (documented in OpenAPI)."""

from __future__ import annotations

from pydantic import BaseModel


class IssueOut(BaseModel):
    code: str
    severity: str
    message: str
    unit: int | None
