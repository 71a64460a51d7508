"""JSON shapes of API answers, so /docs (OpenAPI) describes exactly what clients receive."""

from __future__ import annotations

from pydantic import BaseModel


class RulesetSummary(BaseModel):
    id: str
    name_ru: str
    name_en: str
    version: str


class IssueOut(BaseModel):
    code: str
    severity: str
    message: str
    unit: int | None


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


class PricedResult(BaseModel):
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


class ErrorField(BaseModel):
    field: str
    message: str
    type: str
    loc: list[str | int]


class ValidationFailure(BaseModel):
    message: str
    detail: list[ErrorField]


class Failure(BaseModel):
    detail: str
