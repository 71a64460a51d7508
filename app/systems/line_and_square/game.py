"""Line and Square at the table (the game companion's `GameRules`): the army's setup, the
order test, and the army's break points by the points it still counts for. It plays without
weather."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from app.domain.base import Lang, whole_in
from app.domain.game_rules import (
    GameRefused,
    Roller,
    TestAsk,
    chance_json,
    number,
    percent,
    two_dice,
)
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.break_points import BreakPoints, break_points
from app.systems.line_and_square.orders import OrderTest, passes
from app.systems.line_and_square.roster import FormationId

weather = None  # the seed's battles have none


def setup(document: Any, weather: str, castle_defenders: bool) -> dict[str, Any]:
    return {"ruleset": document.ruleset, "name": document.name, "weather": "off",
            "units": [_unit(u) for u in document.units]}


def _unit(unit: Any) -> dict[str, Any]:
    return {"name": unit.name, "figures": unit.figures, "class": unit.unit_class,
            "points": str(Fraction(unit.points)), "discipline": unit.discipline,
            "officer": unit.officer, "formation": unit.formation}


def roll(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
         needed: Callable[[], int | None]) -> dict[str, Any]:
    """The order test ("formation", "officer", "disorder"), the one test the seed has."""
    if ask.get("test") != "order":
        raise GameRefused("test", "unknown_test", conflict=True)
    formation = ask.get("formation") or unit["formation"]
    disorder = ask.get("disorder", 0)
    if formation not in cat.FORMATIONS:
        raise GameRefused("formation", "unknown_formation")
    if not isinstance(disorder, int) or not 0 <= disorder <= cat.MAX_DISORDER:
        raise GameRefused("disorder", "out_of_range")
    # The officer's own unit is 0″ from "подразделения с офицером": always in reach.
    in_reach = bool(unit.get("officer") or ask.get("officer"))
    test = OrderTest(unit["discipline"], formation, in_reach, disorder)
    dice = two_dice(roller)
    return {"table": "order", "test": "order", "dice": dice, "formation": formation,
            "officer": test.officer_in_reach, "disorder": disorder, "modifier": test.modifier,
            "target": cat.ORDER_TEST_TARGET, "chance": chance_json(test.chance),
            "result": "pass" if passes(dice[0], dice[1], test.modifier) else "fail"}


def outcome(unit: dict[str, Any], rolled: dict[str, Any]) -> str | None:
    """A unit that fails the order test "остается на месте и не может больше предпринимать
    действий в этот ход"."""
    return "halted" if rolled["result"] == "fail" else None


def _breaks(army: Any) -> BreakPoints:
    return break_points(sum((u.points or Fraction(0) for u in army.units), Fraction(0)))


def army_state(army: Any) -> str:
    """BreakPoints.state of the strength the army still counts for."""
    return _breaks(army).state(army.strength) if army.units else "steady"



def thresholds(army: Any) -> dict[str, Any]:
    b = _breaks(army)
    return {"starting_points": number(b.starting), "strength": number(army.strength),
            "points_lost": number(b.starting - army.strength),
            "morale_below": number(b.morale_below), "flight_below": number(b.flight_below),
            "state": army_state(army)}



def page_context(army: dict[str, Any], lang: Lang) -> dict[str, Any]:
    """Each unit's order test as deployed (its officer, no markers), and its table without
    and with an officer in reach, by 0, 1 and 2 disorder markers; the officer's own unit only
    with him (it is always within 12″ of itself)."""
    units = list(enumerate(army["units"]))
    order = {i: percent(OrderTest(u["discipline"], u["formation"], u["officer"], 0).chance)
             for i, u in units}
    order_table = {i: [[percent(OrderTest(u["discipline"], u["formation"], officer, n).chance)
                        for n in range(3)] for officer in ((True,) if u["officer"]
                                                           else (False, True))]
                   for i, u in units}
    return {"odds": {"order": order, "order_table": order_table},
            "formations": list(cat.FORMATIONS), "max_disorder": min(cat.MAX_DISORDER, 6)}


class OrderAsked(TestAsk):
    test: Literal["order"] = Field(description="Line and Square's order test")
    formation: FormationId | None = Field(  # type: ignore[valid-type]
        default=None, description="the unit's formation now (default: as deployed)")
    officer: bool = Field(default=False, description="an officer within 12\"")
    disorder: whole_in(0, cat.MAX_DISORDER) = Field(  # type: ignore[valid-type]
        default=0, description="disorder markers")


ASKS: tuple[type[TestAsk], ...] = (OrderAsked,)
