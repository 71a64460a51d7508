"""JSON shapes of the API's answers, so /docs (OpenAPI) describes exactly what clients receive
(the stored tables never leave the server). Refusals are app.http.errors' Failure and
ValidationFailure."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from app.http.errors import Failure
from app.systems import RosterDocument, results_type


class RulesetSummary(BaseModel):
    id: str
    name_ru: str
    name_en: str
    version: str


PricedResult = results_type()


class CopiedFrom(BaseModel):
    id: str
    version: int


class RosterPublic(BaseModel):
    id: str = Field(description="public id: whoever has it can read the roster")
    version: int = Field(description="1 at creation, +1 per accepted change")
    view_url: str = Field(description=(
        "read-only link to share: on the server's public address when it has one "
        "(MUSTER_PUBLIC_URL), else relative to this server"))
    document: RosterDocument  # type: ignore[valid-type]
    result: PricedResult
    created_at: datetime
    updated_at: datetime
    copied_from: CopiedFrom | None = Field(
        description="the roster and version this one was copied from")


class RosterCreated(RosterPublic):
    edit_key: str = Field(
        description="shown only now: keep it; send it as `Authorization: Bearer <edit_key>`")
    edit_url: str = Field(description=(
        "link that opens the roster for editing: keep it (absolute or relative, as view_url)"))


class RevisionSummary(BaseModel):
    version: int
    created_at: datetime


class RevisionPublic(BaseModel):
    version: int
    created_at: datetime
    document: RosterDocument  # type: ignore[valid-type]


class StaleVersion(BaseModel):
    message: str
    detail: str
    version: int = Field(description="the roster's current version")
    etag: str = Field(description="send this in If-Match after merging the changes")


# What the JSON API answers over the limit, and how /docs describes it.
TOO_MANY: dict[int | str, dict[str, Any]] = {429: {
    "model": Failure,
    "description": "Too many rosters created from this address; try again after Retry-After",
    "headers": {"Retry-After": {"description": "seconds until a roster may be created again",
                                "schema": {"type": "integer"}}}}}
