"""The army's break points: when its losses force morale tests, and when the rest flee.

"Если сила отряда по очкам падает ниже 50% от изначальной …, каждое подразделение обязано
пройти проверку боевого духа. Если сила отряда по очкам падает ниже 75% от изначальной, все
оставшиеся отряды немедленно бегут" — read as half of the starting points lost, then three
quarters lost (interpretation 3). "Все дробные значения … округляются до большего": both
thresholds are rounded up to whole points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from app.rules.base import Lang, pick
from app.rules.words import counted


@dataclass(frozen=True)
class BreakPoints:
    starting: Fraction  # the army's starting points total
    half: int  # losses at which every unit tests morale
    three_quarters: int  # losses at which the rest of the army flees

    def morale_text(self, lang: Lang) -> str:
        total = counted(self.starting, "point_of", lang)  # "из 21 очка", "из 30 очков"
        return pick(lang,
                    f"Once {self.half} of {total} are lost (half), "
                    "every unit takes a morale test.",
                    f"Когда потеряно {self.half} из {total} (половина), каждое "
                    "подразделение проходит проверку боевого духа.")

    def flight_text(self, lang: Lang) -> str:
        total = counted(self.starting, "point_of", lang)
        return pick(lang,
                    f"Once {self.three_quarters} of {total} are lost (three quarters), "
                    "all remaining units flee the field.",
                    f"Когда потеряно {self.three_quarters} из {total} (три четверти), "
                    "все оставшиеся подразделения немедленно бегут с поля боя.")


def break_points(starting: Fraction) -> BreakPoints:
    return BreakPoints(starting, math.ceil(starting / 2), math.ceil(starting * 3 / 4))
