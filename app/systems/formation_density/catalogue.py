"""The "Formation Density" catalogue as data: fighting classes, weapons and their features,
protections. Ids are public contract (see the rules page); Russian names follow the source text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.domain.catalogue_entries import Named
from app.domain.translations import N_, NP_

RULESET_ID = "formation_density"
RULESET_VERSION = "1.0"
NAME = NP_("ruleset", "Formation Density")

MIN_DENSITY, MAX_DENSITY = 1, 6
MIN_FILES, MAX_FILES = 1, 50
MIN_COUNT, MAX_COUNT = 1, 500
POINTS_STEP = 0.5
DIE = 6  # every roll of the game is one six-sided die

# How a class's die hits: below its own density, above its own, or above the enemy's.
HitRule = Literal["below_own", "above_own", "above_enemy"]


@dataclass(frozen=True)
class FightingClass(Named):
    hits: HitRule
    rule: str  # a msgid, like the name


@dataclass(frozen=True)
class Feature(Named):
    description: str  # a msgid, like the name


@dataclass(frozen=True)
class Weapon(Named):
    classes: frozenset[str]  # the classes the weapon table gives it to
    features: tuple[str, ...] = ()

    def has(self, feature: str) -> bool:
        return feature in self.features


CLASSES: dict[str, FightingClass] = {
    c.id: c
    for c in (
        FightingClass("shock_troops", N_("Shock troops"), "below_own",
                      N_("hits on a roll below its own density")),
        FightingClass("melee_specialists", N_("Melee specialists"), "above_own",
                      N_("hits on a roll above its own density")),
        # Interpretation 3: shooters in melee fight as melee specialists.
        FightingClass("shooters", N_("Shooters"), "above_own",
                      N_("in melee hits as melee specialists: on a roll above its own density")),
        # «попадают … вражеского отряда», where the army sheet's line says «попадает …
        # противника».
        FightingClass("shock_cavalry", NP_("formation_density", "Shock cavalry"), "above_enemy",
                      NP_("formation_density", "hits on a roll above the enemy's density"),
                      context="formation_density"),
    )
}

FEATURES: dict[str, Feature] = {
    f.id: f
    for f in (
        Feature("two_handed", N_("Two-handed"), N_("leaves no hand for a shield")),
        Feature("armour_piercing", N_("Armour-piercing"),
                N_("its hits ignore armour and cavalry armour (not shields)")),
        Feature("fast", N_("Fast"),
                N_("its hits are resolved before the enemy strikes; the enemy answers with "
                   "survivors")),
        Feature("pike_ranks", N_("Pike ranks"), N_("2 extra hits per full rank behind the first")),
        Feature("spear_ranks", N_("Spear ranks"), N_("1 extra hit per full rank behind the first")),
        Feature("first_volley", N_("Strike first"),
                N_("strikes one volley first, then strikes again with the enemy")),
        Feature("parry", N_("Parry"), N_("each hit may instead parry one enemy hit")),
        Feature("horse_strike", N_("Horse strike"),
                N_("riders who moved straight strike once more each, at infantry only")),
    )
}

SHOCK = frozenset({"shock_troops"})
SPECIALISTS = frozenset({"melee_specialists", "shooters"})

WEAPONS: dict[str, Weapon] = {
    w.id: w
    for w in (
        # «Пики», where Chainmail's weapon is «Пика».
        Weapon("pike", NP_("formation_density", "Pike"), SHOCK, ("two_handed", "pike_ranks"),
               context="formation_density"),
        Weapon("spear", N_("Spear"), SHOCK, ("spear_ranks",)),
        Weapon("halberd", N_("Halberd"), SHOCK, ("two_handed", "armour_piercing")),
        Weapon("short_spear", N_("Short spear"), SHOCK | SPECIALISTS),
        Weapon("axe", N_("Axe"), SPECIALISTS, ("armour_piercing", "two_handed", "fast")),
        Weapon("heavy_throwing", N_("Heavy throwing weapon (pila, throwing axes, etc.)"),
               SPECIALISTS, ("fast", "first_volley")),
        Weapon("sword", N_("Sword"), SPECIALISTS, ("parry",)),
        Weapon("improvised", N_("Improvised weapon"), SPECIALISTS),
        Weapon("cavalry_lance", N_("Cavalry lance"), frozenset({"shock_cavalry"}),
               ("armour_piercing",)),
    )
}



def weapons_of(line_class: str) -> tuple[str, ...]:
    """The weapons the table gives a class, in catalogue order (short spear to both kinds)."""
    return tuple(w.id for w in WEAPONS.values() if line_class in w.classes)


def takes_shield(weapon: str) -> bool:
    """Interpretation 2: a two-handed weapon leaves no hand for a shield."""
    return not WEAPONS[weapon].has("two_handed")


PROTECTIONS: dict[str, Named] = {
    p.id: p
    for p in (
        Named("shield", N_("Shield")),
        Named("armour", N_("Armour")),
        Named("cavalry_armour", N_("Cavalry armour")),
    )
}

# The true/false fields of a line besides protection.
LINE_FLAGS: dict[str, Named] = {
    f.id: f
    for f in (
        # «Верхом», where the man-to-man calculator's fighter is «Всадник».
        Named("mounted", NP_("formation_density", "Mounted"), context="formation_density"),
        Named("moved_straight", N_("Moved straight")),
    )
}
