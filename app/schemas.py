"""JSON shapes of API answers, so /docs (OpenAPI) describes exactly what clients receive."""

from __future__ import annotations

from pydantic import BaseModel

from app.domain import results_type
from app.domain.results import IssueOut

__all__ = ["Failure", "IssueOut", "PricedResult", "RulesetSummary", "ValidationFailure"]


class RulesetSummary(BaseModel):
    id: str
    name_ru: str
    name_en: str
    version: str


PricedResult = results_type()


class ErrorField(BaseModel):
    field: str
    message: str
    type: str
    loc: list[str | int]


class ValidationFailure(BaseModel):
    message: str
    detail: list[ErrorField]


class Failure(BaseModel):
    """A refusal that names no field; `detail` repeats `message` (FastAPI's own key)."""

    message: str
    detail: str
