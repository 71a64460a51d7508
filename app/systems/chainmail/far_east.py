"""China, Korea and Japan (Table 18): which kinds of troops each may field.

A figure may fall in two categories (a light-foot crossbowman is a crossbowman, not plain light
foot). Militia and peasants are not in the table; they are counted as the heavy and light foot
they fight as (§1), so a Chinese levy is judged like Chinese heavy foot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from app.domain.base import Lang, RuleCheck, Severity, percent_text
from app.domain.translations import N_, ntr, ptr, tr
from app.systems.chainmail.tally import (
    HEAVY_FOOT_TROOPS,
    LIGHT_FOOT_TROOPS,
    Figures,
    Tally,
    troops,
)

Availability = Literal["yes", "no", "some", "possible"]
MISSILES = troops("bow", "composite_bow", "longbow", "crossbow", "arquebus")

CATEGORIES: dict[str, Figures] = {
    "armored_foot": Figures(N_("armored foot"), troops=troops("armored_foot")),
    "heavy_foot": Figures(N_("heavy foot (militia included)"),
                          troops=HEAVY_FOOT_TROOPS),
    "light_foot": Figures(N_("light foot (peasants included)"),
                          troops=LIGHT_FOOT_TROOPS, except_weapons=MISSILES),
    "archers": Figures(N_("archers"), troop_class="foot",
                       weapons=troops("bow", "composite_bow")),
    "arquebusiers": Figures(N_("arquebusiers"), weapons=troops("arquebus")),
    "crossbowmen": Figures(N_("crossbowmen"), weapons=troops("crossbow")),
    "longbowmen": Figures(N_("longbowmen"), weapons=troops("longbow")),
    "medium_horse": Figures(N_("medium horse"), troops=troops("medium_horse")),
    "light_horse": Figures(N_("light horse"), troops=troops("light_horse")),
}
UNLISTED = Figures(N_("heavy horse"), troops=troops("heavy_horse"))

# Table 18; Japanese armored foot are samurai, which the table allows.
AVAILABILITY: dict[str, dict[str, Availability]] = {
    "china": {"armored_foot": "no", "heavy_foot": "some", "light_foot": "yes",
              "archers": "yes", "arquebusiers": "possible", "crossbowmen": "yes",
              "longbowmen": "no", "medium_horse": "yes", "light_horse": "yes"},
    "korea": {"armored_foot": "no", "heavy_foot": "possible", "light_foot": "yes",
              "archers": "yes", "arquebusiers": "possible", "crossbowmen": "some",
              "longbowmen": "no", "medium_horse": "yes", "light_horse": "some"},
    "japan": {"armored_foot": "yes", "heavy_foot": "possible", "light_foot": "yes",
              "archers": "no", "arquebusiers": "some", "crossbowmen": "no",
              "longbowmen": "yes", "medium_horse": "yes", "light_horse": "no"},
}
SOME_SHARE_PERCENT = 10


@dataclass(frozen=True)
class Found:
    category: str
    count: int

    def text(self, lang: Lang) -> str:
        return f"{CATEGORIES[self.category].label(lang)} {self.count}"


def _present(nation: str, counts: Tally, kind: Availability) -> list[Found]:
    found = []
    for category, availability in AVAILABILITY[nation].items():
        if availability == kind:
            n = CATEGORIES[category].count(counts)
            if n:
                found.append(Found(category, n))
    return found


def _listing(found: list[Found], lang: Lang) -> str:
    return ", ".join(f.text(lang) for f in found) if found else ptr(lang, "nothing listed", "none")


def far_east_checks(nation: str, counts: Tally, historical: bool, lang: Lang) -> list[RuleCheck]:
    if nation not in AVAILABILITY:
        return []

    def severity(s: Severity) -> Severity:
        return s if historical else Severity.info

    army = sum(counts.values())
    checks: list[RuleCheck] = []

    forbidden = _present(nation, counts, "no")
    title = tr(lang, "Troops Table 18 forbids")
    checks.append(RuleCheck(
        f"{nation}.forbidden", title, f"{title}: {_listing(forbidden, lang)}", not forbidden,
        severity(Severity.error), value=_listing(forbidden, lang),
        band=ptr(lang, "no figures", "none"),
        hint=tr(lang, "remove them") if forbidden else ""))

    limit = _some_limit(army)
    some = _present(nation, counts, "some")
    over = [f for f in some if f.count > limit]
    removals = _some_removals(over, army)
    title = tr(lang, "“Some” troops, at most %(percent)s %% each", percent=SOME_SHARE_PERCENT)
    parts = [f"{f.text(lang)} = {percent_text_of(f.count, army, lang)} %" for f in some]
    value = ", ".join(parts) if parts else ptr(lang, "nothing listed", "none")
    # "тяжёлая пехота: уберите 2 фигуры", "arquebusiers: remove 1 figure" (the category's
    # name stays as the table writes it, the noun agrees with the number)
    hint = "; ".join(ntr(lang, "%(category)s: remove %(n)s figure",
                         "%(category)s: remove %(n)s figures", removals[f.category],
                         category=CATEGORIES[f.category].label(lang))
                     for f in over)
    of_army = ntr(lang, " of %(n)s figure", " of %(n)s figures", army) if parts else ""
    checks.append(RuleCheck(
        f"{nation}.some", title, f"{title}: {value}{of_army}",
        not over, severity(Severity.warning), value=value,
        band=ntr(lang, "at most %(n)s figure each", "at most %(n)s figures each", limit),
        hint=hint))

    possible = _present(nation, counts, "possible")
    title = tr(lang, "“Possible” troops (rare)")
    checks.append(RuleCheck(
        f"{nation}.possible", title, f"{title}: {_listing(possible, lang)}", not possible,
        Severity.info, value=_listing(possible, lang)))

    unlisted = UNLISTED.count(counts)
    title = tr(lang, "Troops not in Table 18")
    checks.append(RuleCheck(
        f"{nation}.unlisted", title, f"{title}: {UNLISTED.label(lang)} {unlisted}",
        unlisted == 0, severity(Severity.warning), value=str(unlisted),
        hint=ntr(lang, "heavy horse: remove %(n)s figure", "heavy horse: remove %(n)s figures",
                 unlisted)
        if unlisted else ""))
    return checks


def _some_limit(army: int) -> int:
    return math.ceil(army * SOME_SHARE_PERCENT / 100)  # rounded in the player's favour


def _some_removals(over: list[Found], army: int) -> dict[str, int]:
    """How many of each category over its limit to remove, all together, so that each keeps
    it: what is removed shrinks the army and with it the limit (8 light and 3 heavy foot of
    China: removing 1 heavy foot leaves 2 of 10, still over the limit of 1; removing 2 mends
    it). The least such numbers: raised until they hold, each step forced by the one before."""
    remove = {f.category: 0 for f in over}
    while True:
        limit = _some_limit(army - sum(remove.values()))
        needed = {f.category: max(0, f.count - limit) for f in over}
        if needed == remove:
            return remove
        remove = needed


def percent_text_of(count: int, base: int, lang: Lang) -> str:
    return percent_text(count / base, lang) if base else "0"
