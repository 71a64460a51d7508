"""The calculators' JSON routes: Line and Square's order test, Formation Density's melee and
shooting, Chainmail's weather, figure sizes, siege and man-to-man. Each has an HTML page of
the same name in app/web/calculators/; both call the same pure module of the domain."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Query
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from app.domain.base import Lang, Whole
from app.domain.translations import ntr, tr
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import NOT_JSON_ANSWER, ROSTER_ID, SessionDep, json_body
from app.http.errors import Failure, ReferenceNotFound, ValidationFailure
from app.http.query import DOCUMENTED_QUERY
from app.services import rosters
from app.services.errors import RosterDeleted, RosterNotFound
from app.systems import get_system
from app.systems.chainmail import figure_sizes as fs
from app.systems.chainmail import man_to_man as mm
from app.systems.chainmail import siege as sg
from app.systems.chainmail import weather as wx
from app.systems.field_errors import register_tags
from app.systems.formation_density import Unit, exchange, melee_json
from app.systems.formation_density import catalogue as fd_cat
from app.systems.formation_density import shooting as sh
from app.systems.formation_density.result import MeleeResult
from app.systems.line_and_square import catalogue as ls_cat
from app.systems.line_and_square.orders import OrderTestQuery, chance_json
from app.systems.line_and_square.roster import FormationId

router = APIRouter(dependencies=[DOCUMENTED_QUERY])


@router.get("/api/v1/rulesets/line_and_square/order-test", tags=["pricing"],
            summary="Exact chance of passing a Line and Square order test",
            responses={422: {"model": ValidationFailure,
                             "description": "A parameter is invalid; the message names it"}})
def order_test_chance(
    discipline: Annotated[int, Query(ge=ls_cat.MIN_DISCIPLINE, le=ls_cat.MAX_DISCIPLINE)] = 0,
    formation: Annotated[FormationId, Query()] = "loose",  # type: ignore[valid-type]
    officer: Annotated[bool, Query(description="an officer's unit within 12\"")] = False,
    disorder: Annotated[int, Query(ge=0, le=ls_cat.MAX_DISORDER,
                                   description="disorder markers")] = 0,
) -> dict[str, Any]:
    """2d6 + discipline (+1 close order, +1 square, +1 officer in reach, −1 per disorder
    marker) passes on 6 or more; 1-1 always fails, 6-6 always passes. `passing_throws` of
    `throws` (36), the reduced fraction `numerator`/`denominator`, and `chance` as a float."""
    query = OrderTestQuery(discipline=discipline, formation=formation, officer=officer,
                           disorder=disorder)
    return chance_json(query.test())


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


@router.post("/api/v1/rulesets/chainmail/weather", tags=["pricing"],
             summary="Exact weather forecast by Chainmail's Table 20",
             dependencies=[Depends(json_body)],
             responses={**CROSS_SITE_ANSWER, **NOT_JSON_ANSWER, 422: {
                 "model": ValidationFailure,
                 "description": "A field is invalid; the message names it"}})
def weather_forecast(body: wx.WeatherRequest) -> dict[str, Any]:
    """For each check (every even turn) 1 … `checks`: the exact chance of each weather after it
    (`distribution`) and of each event at it (`events`: heat wave, drizzle, downpour rolled at
    that check; mud formed by then — two downpour checks in a row, and it stays). `start` null:
    the starting d6 decides (1–3 clear, 4–5 cloudy, 6 rain)."""
    return wx.forecast_json(body.start, body.checks)


@router.get("/api/v1/rulesets/chainmail/figure-sizes", tags=["pricing"],
            summary="Fantasy figure sizes by Chainmail's Table 27, at any human scale",
            responses={422: {"model": ValidationFailure,
                             "description": "The scale is invalid; the message names it"}})
def figure_sizes(scale: Annotated[int, Query(ge=fs.MIN_SCALE, le=fs.MAX_SCALE,
                                             description="human figures' height, mm")]
                 ) -> dict[str, Any]:
    """Each kind's size in whole mm (halves up) and exactly. At 30 and 40 mm the seed's table;
    elsewhere the builder's extension: scaled from the 30 mm column up to 30 mm, from the 40 mm
    column from 40 mm, in a straight line between the two columns in between."""
    return {"scale": scale, "from_the_table": scale in fs.SEED_SCALES,
            "sizes": fs.sizes(scale)}


@router.post("/api/v1/rulesets/chainmail/siege", tags=["pricing"],
             summary="Hits, turns and ram damage against Chainmail's siege structures",
             dependencies=[Depends(json_body)],
             responses={**CROSS_SITE_ANSWER, **NOT_JSON_ANSWER, 422: {
                 "model": ValidationFailure,
                 "description": "A field is invalid (points outside Table 21's range among "
                                "them); the message names it"}})
def siege(body: sg.SiegeRequest) -> dict[str, Any]:
    """For each structure: `hits_to_destroy` per Table 22 weapon (⌈points / damage⌉); the
    battery's turns if every engine lands one hit a turn; the rams' exact damage distribution
    before all are disabled (2 points a turn each; a 9+ on 2d6 before its blow disables one),
    capped at the structure's points; and the exact distribution of turns until the structure
    falls to battery and rams together (`never`: no battery and every ram disabled first)."""
    return sg.siege_json(body)


@router.post("/api/v1/rulesets/formation_density/shooting", tags=["pricing"],
             summary="Exact losses from hits landed by shooting, in Formation Density",
             dependencies=[Depends(json_body)],
             responses={**CROSS_SITE_ANSWER, **NOT_JSON_ANSWER, 422: {
                 "model": ValidationFailure,
                 "description": "A field is invalid; the message names it"}})
def shooting(body: sh.ShootingRequest) -> dict[str, Any]:
    """From `hits` landed: the exact distribution of warriors lost after the shield wall and
    armour (against cavalry the hits split, the larger half at the horses, riders and horses
    protected apart, `parts` giving each), and the chance the target must retreat (any loss,
    when the shooters' density is higher than its own)."""
    return sh.shooting_json(body)


@router.post("/api/v1/rulesets/chainmail/man-to-man", tags=["pricing"],
             summary="Who strikes first, blows, parries and modifiers in man-to-man combat",
             dependencies=[Depends(json_body)],
             responses={**CROSS_SITE_ANSWER, **NOT_JSON_ANSWER, 422: {
                 "model": ValidationFailure,
                 "description": "A field is invalid; the message names it"}})
def man_to_man(body: mm.Fight) -> dict[str, Any]:
    """Weapon classes are the player's (Appendix B is not in the seed). For rounds 1 and 2 the
    first striker and the rule deciding it; for each side its blows a round, whether it strikes
    in round 1, its die modifiers, its parry (rule 4) and its horse's blow in round 2; and, when
    foot meets horse, Table 23's chances of being stunned after a dismounting."""
    return mm.fight_json(body)
