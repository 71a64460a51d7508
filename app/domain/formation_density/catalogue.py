"""The "Formation Density" catalogue as data: fighting classes, weapons and their features,
protections. Ids are public contract (see the rules page); Russian names follow the source text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.domain.base import Named

RULESET_ID = "formation_density"
RULESET_VERSION = "1.0"
NAME_RU = "Плотность строя"
NAME_EN = "Formation Density"

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
    rule_en: str
    rule_ru: str


@dataclass(frozen=True)
class Feature(Named):
    description_en: str
    description_ru: str


@dataclass(frozen=True)
class Weapon(Named):
    classes: frozenset[str]  # the classes the weapon table gives it to
    features: tuple[str, ...] = ()

    def has(self, feature: str) -> bool:
        return feature in self.features


CLASSES: dict[str, FightingClass] = {
    c.id: c
    for c in (
        FightingClass("shock_troops", "Ударные войска", "Shock troops", "below_own",
                      "hits on a roll below its own density",
                      "попадают, если выпало меньше плотности своего отряда"),
        FightingClass("melee_specialists", "Специалисты рукопашного боя", "Melee specialists",
                      "above_own", "hits on a roll above its own density",
                      "попадают, если выпало больше плотности своего отряда"),
        # Interpretation 3: shooters in melee fight as melee specialists.
        FightingClass("shooters", "Стрелки", "Shooters", "above_own",
                      "in melee hits as melee specialists: on a roll above its own density",
                      "в ближнем бою бьют как специалисты рукопашного боя: если выпало больше "
                      "плотности своего отряда"),
        FightingClass("shock_cavalry", "Ударная конница", "Shock cavalry", "above_enemy",
                      "hits on a roll above the enemy's density",
                      "попадают, если выпало больше плотности вражеского отряда"),
    )
}

FEATURES: dict[str, Feature] = {
    f.id: f
    for f in (
        Feature("two_handed", "Двуручное", "Two-handed",
                "leaves no hand for a shield", "не оставляет руки для щита"),
        Feature("armour_piercing", "Бронебойное", "Armour-piercing",
                "its hits ignore armour and cavalry armour (not shields)",
                "его попадания не отбиваются доспехами и кавалерийскими доспехами (щитами — "
                "отбиваются)"),
        Feature("fast", "Быстрое", "Fast",
                "its hits are resolved before the enemy strikes; the enemy answers with "
                "survivors",
                "его удары наносятся до ударов противника; противник отвечает оставшимися "
                "воинами"),
        Feature("pike_ranks", "Лишние удары пикинеров", "Pike ranks",
                "2 extra hits per full rank behind the first",
                "два лишних удара за каждую полную шеренгу кроме первой"),
        Feature("spear_ranks", "Лишний удар копейщиков", "Spear ranks",
                "1 extra hit per full rank behind the first",
                "лишний удар за каждую полную шеренгу кроме первой"),
        Feature("first_volley", "Бьют первыми", "Strike first",
                "strikes one volley first, then strikes again with the enemy",
                "наносит один удар первым, второй удар — одновременно с противником"),
        Feature("parry", "Парирование", "Parry",
                "each hit may instead parry one enemy hit",
                "каждое попадание можно использовать для парирования вражеского удара"),
        Feature("horse_strike", "Удар коня", "Horse strike",
                "riders who moved straight strike once more each, at infantry only",
                "всадники, двигавшиеся по прямой, наносят ещё по удару, только по пехоте"),
    )
}

SHOCK = frozenset({"shock_troops"})
SPECIALISTS = frozenset({"melee_specialists", "shooters"})

WEAPONS: dict[str, Weapon] = {
    w.id: w
    for w in (
        Weapon("pike", "Пики", "Pike", SHOCK, ("two_handed", "pike_ranks")),
        Weapon("spear", "Копья", "Spear", SHOCK, ("spear_ranks",)),
        Weapon("halberd", "Алебарды", "Halberd", SHOCK, ("two_handed", "armour_piercing")),
        Weapon("short_spear", "Короткое копьё", "Short spear", SHOCK | SPECIALISTS),
        Weapon("axe", "Топор", "Axe", SPECIALISTS, ("armour_piercing", "two_handed", "fast")),
        Weapon("heavy_throwing", "Тяжёлое метательное оружие (пилумы, метательные топоры и т. д.)",
               "Heavy throwing weapon (pila, throwing axes, etc.)", SPECIALISTS,
               ("fast", "first_volley")),
        Weapon("sword", "Меч", "Sword", SPECIALISTS, ("parry",)),
        Weapon("improvised", "Импровизированное оружие", "Improvised weapon", SPECIALISTS),
        Weapon("cavalry_lance", "Кавалерийская пика", "Cavalry lance",
               frozenset({"shock_cavalry"}), ("armour_piercing",)),
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
        Named("shield", "Щит", "Shield"),
        Named("armour", "Доспехи", "Armour"),
        Named("cavalry_armour", "Кавалерийские доспехи", "Cavalry armour"),
    )
}

# The true/false fields of a line besides protection.
LINE_FLAGS: dict[str, Named] = {
    f.id: f
    for f in (
        Named("mounted", "Верхом", "Mounted"),
        Named("moved_straight", "Двигались по прямой", "Moved straight"),
    )
}
