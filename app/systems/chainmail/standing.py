"""How a line of troops stands in a nation's army, before the player adds it: Table 18's
"yes / some / possible / no" for the Chinese, Koreans and Japanese, and, elsewhere, whether a
national rule keeps such troops out ("Все войска Монголов состоят из Конницы").

A troop type on its own stands as its best line: Polish medium horse are most of the army, but
only with lances («Средняя Конница, вооружённая кавалерийскими копьями»), so the troop fits
"only with a lance" rather than being "not in this army" for a line that has no weapon yet."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.domain.base import Lang, Severity
from app.domain.translations import N_, NP_, ptr, tr
from app.systems.chainmail.catalogue import NATIONS, PRESETS, TROOPS, WEAPONS, Preset
from app.systems.chainmail.far_east import AVAILABILITY, CATEGORIES, UNLISTED
from app.systems.chainmail.nations import NATIONAL_RULES, NoneRule

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
    return _kept_out(_exclusions(nation), key)


def _exclusions(nation: str) -> list[NoneRule]:
    """The nation's rules that keep some lines out ("no X")."""
    return [rule for rule in NATIONAL_RULES.get(nation, ()) if isinstance(rule, NoneRule)]


def _kept_out(rules: list[NoneRule], key: tuple[str, str, bool]) -> Standing:
    # The strictest rule that keeps the line out: an error's "not in this army" before a
    # warning's "not usual", whichever the nation lists first.
    found: list[Standing] = ["excluded" if rule.severity is Severity.error else "discouraged"
                             for rule in rules if rule.excluded.matches(key)]
    return min(found, key=ORDER.index) if found else "yes"


@dataclass(frozen=True)
class TroopStanding:
    """A troop type's best standing over the weapons it may carry here, and `only` the weapons
    that give it when the others stand worse (empty: any weapon does)."""

    standing: Standing
    only: tuple[str, ...] = ()

    def text(self, lang: Lang) -> str:
        """The standing's words unless a plain "yes", then "only with a lance" when only some
        weapons give it: "", "not in this army", "not usual in this army, only with a pike"."""
        said = [] if self.standing == "yes" else [standing_text(self.standing, lang)]
        return ", ".join(said + ([only_with(self.only, lang)] if self.only else []))


def troop_standing(nation: str, troop: str, weapon: str = "none",
                   knights: bool = False) -> TroopStanding:
    """How a troop type stands in the nation's army as a choice for a line now carrying
    `weapon`: the best of its lines with each weapon it may carry, and which weapons those are
    when not all are. Table 18 judges the line as it is: its rows are arms ("archers",
    "crossbowmen"), and what the line carries decides which one the troop falls in."""
    if nation in AVAILABILITY:
        return TroopStanding(standing(nation, troop, weapon, knights))
    armed = [w for w, arms in WEAPONS.items() if TROOPS[troop].troop_class in arms.allowed_on]
    rules = _exclusions(nation)  # once for all the troop's weapons
    each = {arms: _kept_out(rules, (troop, arms, knights)) for arms in armed}
    best = max(each.values(), key=ORDER.index)
    only = tuple(w for w in armed if each[w] == best)
    return TroopStanding(best, () if len(only) == len(armed) else only)


# The weapons as "only with …" names them, in the seed's words for Russian: «Средняя с
# копьями», «Лёгкая Конница с луками», «вооружённая арбалетами».
WITH: dict[str, str] = {
    "pike": NP_("only with", "a pike"),
    "arquebus": NP_("only with", "an arquebus"),
    "crossbow": NP_("only with", "a crossbow"),
    "bow": NP_("only with", "a bow"),
    "longbow": NP_("only with", "a longbow"),
    "composite_bow": NP_("only with", "a composite bow"),
    "lance": NP_("only with", "a lance"),
    "javelins": NP_("only with", "javelins"),
    "polearm": NP_("only with", "a polearm"),
}


def only_with(weapons: tuple[str, ...], lang: Lang) -> str:
    """"only with a lance", "only with a bow or a composite bow", "only without a weapon"."""
    names = [ptr(lang, "only with", WITH[w]) for w in weapons if w != "none"]
    if not names:
        return tr(lang, "only without a weapon")
    if "none" in weapons:  # "only with a lance, a bow or without a weapon"
        return tr(lang, "only with %(weapons)s or without a weapon", weapons=", ".join(names))
    listed = names[0] if len(names) == 1 else \
        ", ".join(names[:-1]) + tr(lang, " or ") + names[-1]
    return tr(lang, "only with %(weapons)s", weapons=listed)


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
