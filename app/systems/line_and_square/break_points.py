"""The army's break points: when its losses force morale tests, and when the rest flee.

"Если сила отряда по очкам падает ниже 50% от изначальной …, каждое подразделение обязано
пройти проверку боевого духа. Если сила отряда по очкам падает ниже 75% от изначальной, все
оставшиеся отряды немедленно бегут" — read as strength below half of the starting points,
then below a quarter (three quarters lost; interpretation 3). "Ниже" is strict and the share
exact: at exactly half left there is no test yet, at exactly a quarter no flight (15.5 of 31,
2.5 of 10). Rounding the threshold up while the strength is not ("Все дробные значения …
округляются до большего") would call 15.5 of 31 "below 16" and so below half; the comparison
is of the strength with the share itself, and nothing in it is rounded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from app.domain.base import Lang, points_text
from app.domain.translations import counted, tr


@dataclass(frozen=True)
class BreakPoints:
    starting: Fraction  # the army's starting points total
    half: int  # half the starting points, rounded up (the API's older field)
    three_quarters: int  # three quarters of the starting points, rounded up (likewise)
    morale_below: Fraction  # strength under which every unit tests morale: S/2, exactly
    flight_below: Fraction  # strength under which the rest flee: S/4, exactly

    def state(self, strength: Fraction) -> str:
        """Where an army of `strength` points left stands: "steady", "morale_test" or
        "flight". Strictly below the exact share: half left is still steady, a quarter left
        still tests and does not flee."""
        if strength < self.flight_below:
            return "flight"
        return "morale_test" if strength < self.morale_below else "steady"

    def _lost(self, below: Fraction, lang: Lang) -> str:
        """Losses past which strength is below `below`: "more than 15 lost"."""
        return points_text(self.starting - below, lang)

    def morale_text(self, lang: Lang) -> str:
        below = counted(self.morale_below, "point_of", lang)
        lost = self._lost(self.morale_below, lang)
        return tr(lang, "Morale test once strength is below %(below)s (more than %(lost)s lost): "
                  "every unit tests.", below=below, lost=lost)

    def flight_text(self, lang: Lang) -> str:
        below = counted(self.flight_below, "point_of", lang)
        lost = self._lost(self.flight_below, lang)
        return tr(lang, "Flight once strength is below %(below)s (more than %(lost)s lost): all "
                  "remaining units flee the field.", below=below, lost=lost)


def break_points(starting: Fraction) -> BreakPoints:
    return BreakPoints(starting, math.ceil(starting / 2), math.ceil(starting * 3 / 4),
                       starting / 2, starting / 4)
