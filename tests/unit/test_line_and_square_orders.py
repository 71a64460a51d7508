"""Line and Square: the exact chance of passing an order test (rules page §4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from app.systems.line_and_square import LineAndSquareRoster, evaluate
from app.systems.line_and_square.orders import OrderTest

FORMATIONS = ("loose", "close_order", "square", "march_column")


def enumerated(discipline: int, formation: str, officer: bool, disorder: int) -> Fraction:
    """Throw two dice all 36 ways and count the passes, straight from the seed's wording."""
    bonus = discipline - disorder
    if formation in ("close_order", "square"):
        bonus += 1
    if officer:
        bonus += 1
    passing = 0
    for first in range(1, 7):
        for second in range(1, 7):
            if first == 1 and second == 1:
                continue  # always a failure
            if (first == 6 and second == 6) or first + second + bonus >= 6:
                passing += 1
    return Fraction(passing, 36)


@pytest.mark.parametrize(("discipline", "formation", "officer", "disorder", "expected"), [
    (0, "loose", False, 0, Fraction(26, 36)),  # 36 throws less the 10 that make 2 to 5
    (0, "loose", False, 1, Fraction(21, 36)),  # needs 7: 6 + 5 + 4 + 3 + 2 + 1
    (0, "close_order", True, 0, Fraction(33, 36)),  # needs 4: all but 1-1, 1-2, 2-1
    (0, "square", False, 0, Fraction(30, 36)),  # the square's own +1: needs 5
    (0, "march_column", False, 0, Fraction(26, 36)),  # a column adds nothing
    (-3, "loose", False, 2, Fraction(3, 36)),  # needs 11: 5-6, 6-5, 6-6
    (-3, "loose", False, 10, Fraction(1, 36)),  # hopeless, but 6-6 always passes
    (5, "square", True, 0, Fraction(35, 36)),  # certain, but 1-1 always fails
    (2, "loose", False, 0, Fraction(33, 36)),
])
def test_chances_match_the_hand_counted_throws(discipline: int, formation: str, officer: bool,
                                                disorder: int, expected: Fraction) -> None:
    assert OrderTest(discipline, formation, officer, disorder).chance == expected


@pytest.mark.parametrize("discipline", range(-3, 6))
def test_every_discipline_matches_a_direct_enumeration(discipline: int) -> None:
    for formation in FORMATIONS:
        for officer in (False, True):
            for disorder in range(0, 11):
                test = OrderTest(discipline, formation, officer, disorder)
                assert test.chance == enumerated(discipline, formation, officer, disorder), (
                    formation, officer, disorder)


def test_a_unit_shows_its_chances_in_its_formation_with_and_without_an_officer() -> None:
    roster = LineAndSquareRoster.model_validate({
        "name": "x", "ruleset": "line_and_square",
        "units": [{"class": "line_infantry", "figures": 12, "speed": 6, "points": 5,
                   "discipline": 1, "formation": "close_order"}]})
    chances = evaluate(roster).result["units"][0]["order_test"]
    seen = {(c["officer_in_reach"], c["disorder"]):
            Fraction(c["numerator"], c["denominator"]) for c in chances}
    assert seen == {(officer, disorder): enumerated(1, "close_order", officer, disorder)
                    for officer in (False, True) for disorder in (0, 1, 2)}
    for c in chances:
        assert c["throws"] == 36 and c["formation"] == "close_order"
        assert Fraction(c["passing_throws"], 36) == Fraction(c["numerator"], c["denominator"])
        assert c["chance"] == pytest.approx(c["passing_throws"] / 36)
