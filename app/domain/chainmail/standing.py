"""How a line of troops stands in a nation's army, before the player adds it: Table 18's
"yes / some / possible / no" for the Chinese, Koreans and Japanese, and, elsewhere, whether a
national rule keeps such troops out ("Все войска Монголов состоят из Конницы")."""

from __future__ import annotations

from typing import Literal

from app.domain.base import Lang, Severity
from app.domain.chainmail.catalogue import NATIONS, PRESETS, Preset
from app.domain.chainmail.far_east import AVAILABILITY, CATEGORIES, UNLISTED
from app.domain.chainmail.nations import NATIONAL_RULES, NoneRule
from app.domain.text import N_, NP_, ptr

Standing = Literal["yes", "some", "possible", "no", "unlisted", "excluded", "discouraged"]
# Table 18's words, and the strictest first: a figure in two categories stands as the worse.
ORDER: tuple[Standing, ...] = ("no", "excluded", "unlisted", "some", "discouraged",
                               "possible", "yes")
WORDS: dict[Standing, str] = {
    "yes": NP_("Table 18", "yes"),  # «есть», where a plain "yes" is «да»
    "some": N_("some (at most 10 %)"),
    "possible": N_("possible (rare)"),
    "no": N_("no (Table 18)"),
    "unlisted": N_("not in Table 18"),
    "excluded": N_("not in this army"),
    "discouraged": N_("not usual in this army"),
}


def standing(nation: str, troop: str, weapon: str, knights: bool = False) -> Standing:
    key = (troop, weapon, knights)
    if nation in AVAILABILITY:
        if UNLISTED.matches(key):
            return "unlisted"
        found = [AVAILABILITY[nation][category] for category, figures in CATEGORIES.items()
                 if figures.matches(key)]
        return min(found, key=ORDER.index) if found else "yes"
    for rule in NATIONAL_RULES.get(nation, ()):
        if isinstance(rule, NoneRule) and rule.excluded.matches(key):
            return "excluded" if rule.severity is Severity.error else "discouraged"
    return "yes"


def standing_text(value: Standing, lang: Lang) -> str:
    return ptr(lang, "Table 18", WORDS[value])


def preset_standing(preset: Preset) -> dict[str, Standing]:
    """The preset's standing in every nation's army, for the catalogue."""
    return {nation: standing(nation, preset.troop, preset.weapon, "knights" in preset.flags)
            for nation in NATIONS}


def presets_for(nation: str) -> list[Preset]:
    """The nation's own presets first, then the others, each group in catalogue order."""
    own = [p for p in PRESETS.values() if nation in p.nations]
    return own + [p for p in PRESETS.values() if nation not in p.nations]
