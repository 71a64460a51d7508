"""The order test (тест на приказ) and its exact chance of passing.

"Киньте два кубика, сложите результат и примените модификаторы": 2d6 + discipline, +1 in close
order, +1 in square ("Дисциплина +1"), +1 within 12" of a unit with an officer, −1 per disorder
marker; 6 or more passes. "Результат 1-1 – это всегда неудача, а 6-6 – всегда успех." The
chance is counted over the 36 equally likely throws, so it is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from pydantic import BaseModel, ConfigDict, Field

from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.roster import FormationId

FACES = range(1, 7)
THROWS = 36


@dataclass(frozen=True)
class OrderTest:
    """One situation a unit may test in: its discipline, formation, officer and disorder."""

    discipline: int
    formation: str
    officer_in_reach: bool
    disorder: int

    @property
    def modifier(self) -> int:
        return (self.discipline + cat.FORMATIONS[self.formation].order_test_bonus
                + (cat.OFFICER_BONUS if self.officer_in_reach else 0)
                - cat.DISORDER_PENALTY * self.disorder)

    @property
    def passing_throws(self) -> int:
        """How many of the 36 throws of two dice pass."""
        return _passing_throws(self.modifier)

    @property
    def chance(self) -> Fraction:
        return Fraction(self.passing_throws, THROWS)


def passes(first: int, second: int, modifier: int) -> bool:
    """Whether one throw of the two dice passes the test with this total modifier."""
    if first == second == 1:
        return False
    if first == second == 6:
        return True
    return first + second + modifier >= cat.ORDER_TEST_TARGET


_CACHE: dict[int, int] = {}


def _passing_throws(modifier: int) -> int:
    # Every unit asks for six chances on every render: remember the few modifiers seen.
    if modifier not in _CACHE:
        _CACHE[modifier] = sum(passes(a, b, modifier) for a, b in product(FACES, FACES))
    return _CACHE[modifier]


class OrderTestQuery(BaseModel):
    """What the calculator asks: the same limits a unit's profile has, plus the markers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    discipline: int = Field(default=0, ge=cat.MIN_DISCIPLINE, le=cat.MAX_DISCIPLINE)
    formation: FormationId = "loose"  # type: ignore[valid-type]
    officer: bool = Field(default=False, description="an officer's unit within 12\"")
    disorder: int = Field(default=0, ge=0, le=cat.MAX_DISORDER, description="disorder markers")

    def test(self) -> OrderTest:
        return OrderTest(self.discipline, self.formation, self.officer, self.disorder)


def chance_json(test: OrderTest) -> dict[str, object]:
    """The chance as the API gives it: passing throws of 36, the reduced fraction, a float."""
    chance = test.chance
    return {"discipline": test.discipline, "formation": test.formation,
            "officer_in_reach": test.officer_in_reach, "disorder": test.disorder,
            "modifier": test.modifier, "passing_throws": test.passing_throws,
            "throws": THROWS, "numerator": chance.numerator,
            "denominator": chance.denominator, "chance": float(chance)}


def unit_chances(discipline: int, formation: str,
                 own_officer: bool = False) -> list[dict[str, object]]:
    """A unit's chances in its formation: without and with an officer in reach, 0–2 markers.
    The officer's own unit is always within 12″ of "подразделения с офицером" (0″ from
    itself): only its chances with him."""
    reach = (True,) if own_officer else (False, True)
    return [chance_json(OrderTest(discipline, formation, officer, disorder))
            for officer in reach for disorder in (0, 1, 2)]
