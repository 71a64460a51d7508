"""Figure counts a roster's proportions are judged on.

Proportions count figures, never points and never engines (interpretation 2). The roster is
folded once into counts keyed by (troop, weapon, in a knights unit), so each rule is a sum over
at most a few hundred keys however long the roster is.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass

from app.domain.base import Lang
from app.domain.translations import N_, tr
from app.systems.chainmail.catalogue import TROOPS
from app.systems.chainmail.roster import ChainmailRoster

Key = tuple[str, str, bool]  # troop, weapon, unit flagged knights
Tally = Counter[Key]


def tally(roster: ChainmailRoster) -> Tally:
    counts: Tally = Counter()
    for unit in roster.units:
        knights = "knights" in unit.flags
        for line in unit.lines:
            counts[(line.troop, line.weapon, knights)] += line.figures
    return counts


@dataclass(frozen=True)
class Figures:
    """A group of figures a rule counts, with its name: an English msgid, a noun ("heavy
    horse") or, for a share's base, the words that qualify "figures" ("horse ": "of 20 horse
    figures", «из 20 фигур конницы»)."""

    name: str
    troops: frozenset[str] | None = None
    troop_class: str | None = None
    weapons: frozenset[str] | None = None
    except_troops: frozenset[str] = frozenset()
    except_weapons: frozenset[str] = frozenset()
    except_arms: frozenset[tuple[str, str]] = frozenset()  # (troop, weapon) pairs left out
    knights: bool | None = None

    def matches(self, key: Key) -> bool:
        troop, weapon, knights = key
        if self.troops is not None and troop not in self.troops:
            return False
        if self.troop_class is not None and TROOPS[troop].troop_class != self.troop_class:
            return False
        if self.weapons is not None and weapon not in self.weapons:
            return False
        if troop in self.except_troops or weapon in self.except_weapons \
                or (troop, weapon) in self.except_arms:
            return False
        return self.knights is None or self.knights == knights

    def count(self, counts: Tally) -> int:
        known = self._matched
        total = 0
        for key, n in counts.items():
            hit = known.get(key)
            if hit is None:
                hit = known[key] = self.matches(key)
            if hit:
                total += n
        return total

    @functools.cached_property
    def _matched(self) -> dict[Key, bool]:
        # Whether each key is counted, worked out once per key: the keys are the catalogue's
        # troops × weapons × knights or not (the roster's ids are checked against it), and
        # every rule of every roster asks again.
        return {}

    def label(self, lang: Lang) -> str:
        return tr(lang, self.name) if self.name else ""


def troops(*ids: str) -> frozenset[str]:
    return frozenset(ids)


ARMY = Figures("")
FOOT = Figures(N_("foot "), troop_class="foot")
HORSE = Figures(N_("horse "), troop_class="horse")
LIGHT_HORSE = Figures(N_("light horse "), troops=troops("light_horse"))
# Militia fight as heavy foot and peasants as light foot: so they count in every national
# rule and in Table 18 (§6), and the base's name says so.
HEAVY_FOOT_TROOPS = troops("heavy_foot", "militia")
LIGHT_FOOT_TROOPS = troops("light_foot", "peasant")
LIGHT_FOOT = Figures(N_("light foot (peasants included) "),
                     troops=LIGHT_FOOT_TROOPS)
HEAVY_FOOT = Figures(N_("heavy foot (militia included) "),
                     troops=HEAVY_FOOT_TROOPS)
HEAVY_HORSE = Figures(N_("heavy horse"), troops=troops("heavy_horse"))
