"""The calculators' JSON routes: one operation for each calculator a rule system offers with
one (app/domain/calculator.py), `/api/v1/rulesets/<system>/<slug>`, reading its input model
from the query (GET) or the body (POST), as its page (app/web/calculators/) reads its address;
and Formation Density's melee, over units written out or stored."""

from __future__ import annotations

import inspect
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from app.domain.base import Lang, Whole
from app.domain.calculator import Calculator
from app.domain.translations import ntr, tr
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import NOT_JSON_ANSWER, ROSTER_ID, SessionDep, json_body
from app.http.errors import Failure, ReferenceNotFound, ValidationFailure
from app.http.query import DOCUMENTED_QUERY
from app.services import rosters
from app.services.errors import RosterDeleted, RosterNotFound
from app.systems import SYSTEMS, get_system
from app.systems.field_errors import register_tags
from app.systems.formation_density import Unit, exchange, melee_json
from app.systems.formation_density import catalogue as fd_cat
from app.systems.formation_density.result import MeleeResult

router = APIRouter(dependencies=[DOCUMENTED_QUERY])


def _operation(system: str, calc: Calculator) -> None:
    """The calculator's operation: its input model as the query (GET) or the JSON body."""
    api, answer, model = calc.api, calc.answer, calc.input
    assert api is not None and answer is not None and model is not None

    def operation(**asked: Any) -> Any:
        (value,) = asked.values()
        return answer(value)

    where = Query() if api.method == "GET" else Body()
    operation.__signature__ = inspect.Signature([inspect.Parameter(  # type: ignore[attr-defined]
        "asked" if api.method == "GET" else "body", inspect.Parameter.POSITIONAL_OR_KEYWORD,
        annotation=Annotated[model, where])])
    posted = api.method == "POST"
    responses: dict[int | str, dict[str, Any]] = {
        **(CROSS_SITE_ANSWER | NOT_JSON_ANSWER if posted else {}),
        422: {"model": ValidationFailure, "description": api.refused}}
    router.add_api_route(
        f"/api/v1/rulesets/{system}/{calc.slug}", operation, methods=[api.method],
        name=api.name, summary=api.summary, description=inspect.cleandoc(api.description),
        tags=["pricing"], response_model=api.response_model or dict[str, Any],
        dependencies=[Depends(json_body)] if posted else None, responses=responses)


# Discriminator tags, removed from error paths so a field reads "a.lines[0].count".
INLINE, STORED = "formation_density:unit", "formation_density:stored_unit"
register_tags({INLINE, STORED})


class StoredUnit(BaseModel):
    """A unit of a stored roster of this rule system, by the roster's id and the unit's index."""

    model_config = ConfigDict(extra="forbid", strict=True)

    roster: str = Field(pattern=ROSTER_ID, description="the roster's public id")
    unit: Whole = Field(ge=0, lt=10_000, strict=True, description="the unit's index, from 0")


def _side_kind(value: Any) -> str | None:
    if isinstance(value, dict):
        return STORED if "roster" in value else INLINE
    if isinstance(value, StoredUnit):
        return STORED
    return INLINE if isinstance(value, Unit) else None


Side = Annotated[
    Annotated[Unit, Tag(INLINE)] | Annotated[StoredUnit, Tag(STORED)],
    Discriminator(_side_kind, custom_error_type="side_type",
                  custom_error_message='a unit, or {"roster": id, "unit": index}'),
]


class MeleeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    a: Side
    b: Side


def _refuse(field: str, message: str, *,
            missing: bool = False) -> RequestValidationError:
    kind = ReferenceNotFound if missing else RequestValidationError
    return kind([{"loc": ("body", *field.split(".")), "msg": message,
                  "type": "not_found" if missing else "value_error"}])


def _resolve(session: Any, side: Unit | StoredUnit, field: str,
             lang: Lang) -> tuple[Unit, tuple[str, int] | None]:
    """The unit a side names, read from its stored roster when it refers to one."""
    if isinstance(side, Unit):
        return side, None
    try:
        stored = rosters.get_roster(session, side.roster)
    except RosterDeleted:
        raise  # 410, answered as the rest of the API answers a deleted roster
    except RosterNotFound as missing:
        raise _refuse(f"{field}.roster", tr(lang, "there is no roster %(roster)s",
                                            roster=side.roster),
            missing=True) from missing
    if stored.ruleset != fd_cat.RULESET_ID:
        system = get_system(stored.ruleset)
        name = system.name(lang) if system else stored.ruleset
        raise _refuse(f"{field}.roster", tr(lang, "roster %(roster)s is a %(name)s roster; the "
                                            "melee calculator takes %(melee)s rosters",
                                            roster=side.roster, name=name,
                                            melee=tr(lang, "Formation Density")))
    units = stored.document.units  # type: ignore[attr-defined]
    if side.unit >= len(units):
        raise _refuse(f"{field}.unit", ntr(
            lang, "roster %(roster)s has 1 unit (index 0)",
            "roster %(roster)s has %(n)s units (indexes 0 to %(last)s)", len(units),
            roster=side.roster, last=len(units) - 1) if units else tr(
            lang, "roster %(roster)s has no units", roster=side.roster), missing=True)
    return units[side.unit], (stored.id, side.unit)


@router.post(
    "/api/v1/rulesets/formation_density/melee", tags=["pricing"], response_model=MeleeResult,
    summary="Exact melee exchange between two Formation Density units",
    dependencies=[Depends(json_body)],
    responses={**CROSS_SITE_ANSWER, **NOT_JSON_ANSWER, 404: {
        "model": ValidationFailure,
        "description": "A referenced roster or unit does not exist; the message names it"},
        410: {"model": Failure,
              "description": "A referenced roster was deleted (restorable for 30 days)"},
        422: {"model": ValidationFailure,
              "description": "A unit or reference is invalid; the message names it"}})
def melee(
    session: SessionDep,
    body: Annotated[MeleeRequest, Body(openapi_examples={
        "inline": {"summary": "Two units written out", "value": {
            "a": {"name": "Легионеры", "density": 3, "files": 20, "lines": [
                {"class": "melee_specialists", "weapon": "heavy_throwing", "count": 20,
                 "shield": True, "armour": True},
                {"class": "melee_specialists", "weapon": "sword", "count": 20,
                 "shield": True, "armour": True}]},
            "b": {"name": "Фаланга", "density": 5, "files": 10, "lines": [
                {"class": "shock_troops", "weapon": "pike", "count": 40, "armour": True}]}}},
        "stored": {"summary": "Units of stored rosters", "value": {
            "a": {"roster": "ROSTER_ID", "unit": 0}, "b": {"roster": "ROSTER_ID", "unit": 1}}},
    })],
    lang: Annotated[Literal["en", "ru"], Query(description="Language of messages")] = "en",
) -> dict[str, Any]:
    """One exchange of blows: for each side the exact distribution and expectation of hits
    scored, enemy hits blocked and warriors lost (probabilities as "n/d" and as floats), the
    shield-wall and armour shares, and for a side with swords the same exchange with its sword
    hits kept as parries. Each side is a unit (as in a roster) or `{"roster": id, "unit":
    index}` naming a unit of a stored Formation Density roster."""
    unit_a, source_a = _resolve(session, body.a, "a", lang)
    unit_b, source_b = _resolve(session, body.b, "b", lang)
    return melee_json(exchange(unit_a, unit_b), lang, (source_a, source_b))


for _system in SYSTEMS.values():
    for _calc in _system.calculators:
        if _calc.api is not None:
            _operation(_system.id, _calc)
