"""JSON API: rule systems, their catalogues, and pricing a roster without storing it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, HTTPException, Query

from app.api.models import PricedResult, RulesetSummary
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import NOT_JSON_ANSWER, json_body
from app.http.errors import Failure, ValidationFailure
from app.http.query import DOCUMENTED_QUERY
from app.systems import SYSTEMS, RosterDocument, get_system

router = APIRouter(prefix="/api/v1", tags=["pricing"], dependencies=[DOCUMENTED_QUERY])

LangQuery = Literal["en", "ru"]
REFUSALS: dict[int | str, dict[str, Any]] = {
    413: {"model": Failure, "description": "Body over the size limit"},
    **NOT_JSON_ANSWER,
    422: {"model": ValidationFailure, "description": "A field is invalid; the message names it"},
    **CROSS_SITE_ANSWER,
}


@router.get("/rulesets", response_model=list[RulesetSummary])
def list_rulesets() -> list[dict[str, str]]:
    return [system.summary() for system in SYSTEMS.values()]


@router.get("/rulesets/{ruleset_id}", responses={404: {"model": Failure}})
def ruleset_catalogue(ruleset_id: str) -> dict[str, Any]:
    system = get_system(ruleset_id)
    if system is None:
        raise HTTPException(404, f"unknown ruleset {ruleset_id!r}; known: {', '.join(SYSTEMS)}")
    return system.catalogue()


@router.post("/price", response_model=PricedResult, responses=REFUSALS,
             dependencies=[Depends(json_body)])
async def price_roster(
    roster: Annotated[RosterDocument, Body()],  # type: ignore[valid-type]
    lang: LangQuery = Query("en", description="Language of issue messages"),
) -> dict[str, Any]:
    # Async on purpose: pricing is pure CPU work of well under a millisecond for a usual
    # roster (a few ms at the 500-unit limit), so a hop to the thread pool and back would cost
    # more than the work itself.
    return SYSTEMS[roster.ruleset].evaluate(roster, lang).result  # type: ignore[attr-defined,no-any-return]
