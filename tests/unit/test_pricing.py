"""§4 of the rules page: what figures, weapons and engines cost."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from app.systems.chainmail import evaluate, price
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit import page_tables as page
from tests.unit.rule_cases import army, line, unit

# The worked examples of §4: (what, roster units, engines, total as the page states it)
WORKED_EXAMPLES: list[tuple[str, list[dict[str, Any]], list[dict[str, Any]], Fraction]] = [
    ("20 English longbowmen", [unit(line("light_foot", 20, "longbow"))], [], Fraction(100)),
    ("10 mercenary heavy foot with crossbows",
     [unit(line("heavy_foot", 10, "crossbow"), mercenary=True)], [], Fraction(35, 2)),
    ("12 mercenary militia", [unit(line("militia", 12), mercenary=True)], [], Fraction(9, 2)),
    ("1 mercenary bombard", [], [{"kind": "bombard", "count": 1, "mercenary": True}],
     Fraction(15)),
    ("24 Swiss pikemen", [unit(line("heavy_foot", 24, "pike"))], [], Fraction(72)),
]


def roster(units: list[dict[str, Any]], engines: list[dict[str, Any]] | None = None,
           **extra: Any) -> ChainmailRoster:
    doc = army("generic", *units, commander=False, engines=engines or [], **extra)
    return ChainmailRoster.model_validate(doc)


@pytest.mark.parametrize(("units", "engines", "total"),
                         [example[1:] for example in WORKED_EXAMPLES],
                         ids=[example[0] for example in WORKED_EXAMPLES])
def test_each_worked_example_of_the_rules_page_costs_what_the_page_says(
        units: list[dict[str, Any]], engines: list[dict[str, Any]], total: Fraction) -> None:
    assert price(roster(units, engines)).total == total


def test_the_worked_examples_together_cost_the_sum_of_their_prices() -> None:
    units = [u for example in WORKED_EXAMPLES for u in example[1]]
    engines = [e for example in WORKED_EXAMPLES for e in example[2]]
    priced = price(roster(units, engines, points_limit=210))
    assert priced.total == 100 + Fraction(35, 2) + Fraction(9, 2) + 15 + 72 == 209
    assert priced.remaining == 1


def test_a_line_shows_its_cost_per_figure_and_its_cost() -> None:
    priced = price(roster([unit(line("heavy_foot", 10, "crossbow"), mercenary=True)]))
    (only,) = priced.units[0].lines
    assert only.cost_per_figure == Fraction(7, 4)
    assert only.cost == Fraction(35, 2)
    assert priced.units[0].cost == Fraction(35, 2)


@pytest.mark.parametrize("troop", list(page.TROOPS))
def test_a_figure_without_a_weapon_costs_its_troop_types_points(troop: str) -> None:
    assert price(roster([unit(line(troop, 1))])).total == page.TROOPS[troop][3]


@pytest.mark.parametrize("weapon", list(page.WEAPONS))
def test_a_weapon_adds_its_points_to_each_figure(weapon: str) -> None:
    troop = "light_foot" if "foot" in page.WEAPONS[weapon][3] else "light_horse"
    expected = 3 * (page.TROOPS[troop][3] + page.WEAPONS[weapon][2])
    assert price(roster([unit(line(troop, 3, weapon))])).total == expected


@pytest.mark.parametrize("kind", list(page.ENGINES))
def test_engines_are_bought_by_the_piece_and_halved_for_mercenaries(kind: str) -> None:
    each = page.ENGINES[kind][2]
    loyal = price(roster([], [{"kind": kind, "count": 3}])).total
    hired = price(roster([], [{"kind": kind, "count": 3, "mercenary": True}])).total
    assert (loyal, hired) == (3 * each, 3 * each / 2)


def test_a_mercenary_pays_half_for_his_weapon_too() -> None:
    # Interpretation 1: the whole per-figure cost is halved, weapon included: (1 + 4) / 2.
    priced = price(roster([unit(line("light_foot", 1, "longbow"), mercenary=True)]))
    assert priced.total == Fraction(5, 2)


def test_costs_are_never_rounded_and_reach_json_as_exact_numbers() -> None:
    # 33 mercenary militia: 33 × 0.75 / 2 = 12.375 — neither 12 nor 12.38.
    result = evaluate(roster([unit(line("militia", 33), mercenary=True)]), "en").result
    assert result["total"] == 12.375
    assert result["units"][0]["lines"][0]["cost_per_figure"] == 0.375
    assert result["units"][0]["cost"] == 12.375


def test_whole_point_costs_reach_json_as_integers() -> None:
    result = evaluate(roster([unit(line("heavy_foot", 24, "pike"))]), "en").result
    assert result["total"] == 72 and isinstance(result["total"], int)


def test_the_remainder_is_the_limit_less_the_total_and_may_go_below_zero() -> None:
    priced = price(roster([unit(line("light_foot", 20, "longbow"))], points_limit=90))
    assert priced.remaining == -10
    assert price(roster([unit(line("light_foot", 1))])).remaining is None


def test_engines_are_not_figures_and_foot_and_horse_are_counted_apart() -> None:
    priced = price(roster([unit(line("heavy_foot", 7)), unit(line("light_horse", 4, "bow"),
                                                             line("medium_horse", 2))],
                          [{"kind": "bombard", "count": 2}]))
    assert (priced.figures, priced.foot, priced.horse) == (13, 7, 6)


def test_an_empty_roster_costs_nothing() -> None:
    assert price(roster([])).total == 0
