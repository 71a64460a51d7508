"""The "Line and Square" catalogue as data: unit classes with what each may do, formations,
actions and the limits of a unit's profile. Ids are public contract (see the rules page).

The seed gives no point table: a unit's points are whatever the player enters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.domain.catalogue_entries import Named
from app.domain.translations import N_, NP_

RULESET_ID = "line_and_square"
RULESET_VERSION = "1.0"
NAME = NP_("ruleset", "Line and Square")

Kind = Literal["infantry", "cavalry", "artillery"]
Shooting = Literal["if_accuracy", "never"]


@dataclass(frozen=True)
class Formation(Named):
    # Added to the order test while the unit stands in this formation.
    order_test_bonus: int


@dataclass(frozen=True)
class Action(Named):
    pass


@dataclass(frozen=True)
class UnitClass(Named):
    kind: Kind
    shoot: Shooting
    skirmish: bool
    close_order: bool
    square: bool
    march_column: bool
    attack: bool

    @property
    def volley(self) -> bool:
        """"Залп (только пехота в сомкнутом строю)": infantry that may close its ranks."""
        return self.kind == "infantry" and self.close_order

    @property
    def formations(self) -> tuple[str, ...]:
        """Deployment formations in catalogue order; every class may stand in loose order."""
        allowed = {"loose": True, "close_order": self.close_order, "square": self.square,
                   "march_column": self.march_column}
        return tuple(f for f in FORMATIONS if allowed[f])


FORMATIONS: dict[str, Formation] = {
    f.id: f
    for f in (
        Formation("loose", N_("Loose order"), 0),
        Formation("close_order", N_("Close order"), 1),
        Formation("square", N_("Square"), 1),
        Formation("march_column", N_("March column"), 0),
    )
}

ACTIONS: dict[str, Action] = {
    a.id: a
    for a in (
        Action("move", N_("Move")),
        Action("attack", N_("Attack")),
        Action("shoot", N_("Shoot")),
        Action("skirmish", N_("Skirmish")),
        # «Сомкнуть строй», the order, where the formation is «Сомкнутый строй».
        Action("close_order", NP_("action", "Close order"), context="action"),
        Action("square", N_("Form square")),
        Action("march_column", N_("March column")),
        Action("volley", N_("Volley")),
        Action("rally", N_("Rally")),
    )
}

# The table of rules page §1 (interpretations 1 and 2: line, shock infantry and grenadiers may
# form square; "тяжёлая кавалерия" in the march-column list is the shock cavalry).
CLASSES: dict[str, UnitClass] = {
    c.id: c
    for c in (
        UnitClass("line_infantry", N_("Line infantry"), "infantry", "if_accuracy", skirmish=False,
                  close_order=True, square=True, march_column=True, attack=True),
        UnitClass("light_infantry", N_("Light infantry"), "infantry", "if_accuracy", skirmish=True,
                  close_order=True, square=False, march_column=False, attack=True),
        UnitClass("shock_infantry", N_("Shock infantry"), "infantry", "if_accuracy",
                  skirmish=False, close_order=True, square=True, march_column=False,
                  attack=True),
        UnitClass("grenadiers", N_("Grenadiers"), "infantry", "if_accuracy", skirmish=False,
                  close_order=False, square=True, march_column=True, attack=True),
        UnitClass("skirmishers", N_("Skirmishers"), "infantry", "if_accuracy", skirmish=True,
                  close_order=False, square=False, march_column=False, attack=True),
        UnitClass("irregular_cavalry", N_("Irregular cavalry"), "cavalry", "never", skirmish=True,
                  close_order=False, square=False, march_column=False, attack=True),
        UnitClass("light_cavalry", N_("Light cavalry"), "cavalry", "never", skirmish=True,
                  close_order=True, square=False, march_column=True, attack=True),
        UnitClass("shock_cavalry", N_("Shock (heavy) cavalry"), "cavalry", "if_accuracy",
                  skirmish=False, close_order=True, square=False, march_column=True,
                  attack=True),
        UnitClass("artillery", N_("Artillery"), "artillery", "if_accuracy", skirmish=False,
                  close_order=False, square=False, march_column=False, attack=False),
    )
}

# A unit's profile (rules page §2).
MIN_FIGURES, MAX_FIGURES = 1, 100
MIN_SPEED, MAX_SPEED = 1, 24
MIN_ACCURACY, MAX_ACCURACY = 1, 12
MIN_DISCIPLINE, MAX_DISCIPLINE = -3, 5
MIN_POINTS, MAX_POINTS, POINTS_STEP = 0, 100, 0.5
# "обычно 15 очков" is half of the usual force (interpretation 4).
DEFAULT_POINTS_LIMIT = 30
# "Для формирования Каре должно быть не меньше 10 фигур в подразделении."
SQUARE_MIN_FIGURES = 10

# The order test (тест на приказ): 2d6 + modifiers, passes on this total or more.
ORDER_TEST_TARGET = 6
OFFICER_BONUS = 1  # within 12" of a unit with an officer
DISORDER_PENALTY = 1  # per disorder marker
MAX_DISORDER = 10  # the calculator's bound; past 6 markers only a 6-6 passes anyway
