"""The JSON shape of a priced Chainmail roster."""

from __future__ import annotations

from pydantic import BaseModel

from app.domain.results import IssueOut


class PricedLineOut(BaseModel):
    troop: str
    figures: int
    weapon: str
    cost_per_figure: int | float
    cost: int | float


class PricedUnitOut(BaseModel):
    name: str
    mercenary: bool
    flags: list[str]
    figures: int
    cost: int | float
    lines: list[PricedLineOut]


class PricedEngineOut(BaseModel):
    kind: str
    count: int
    mercenary: bool
    cost: int | float


class ChainmailResult(BaseModel):
    """The priced result of a Chainmail roster (response of price, part of every read)."""

    total: int | float
    points_limit: int | None
    remaining: int | float | None
    figures: int
    foot: int
    horse: int
    units: list[PricedUnitOut]
    engines: list[PricedEngineOut]
    issues: list[IssueOut]
    valid: bool
