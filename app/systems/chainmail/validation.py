"""validate(roster): every organisation (§5) and national (§6) rule, judged and explained."""

from __future__ import annotations

from fractions import Fraction

from app.domain.base import Issue, Lang, RuleCheck
from app.systems.chainmail.far_east import far_east_checks
from app.systems.chainmail.nations import Budget, national_checks
from app.systems.chainmail.organisation import (
    commander_checks,
    empty_check,
    over_limit,
    unit_checks,
)
from app.systems.chainmail.pricing import EIGHTHS, PricedRoster, price
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.chainmail.tally import Key, tally


def assess(roster: ChainmailRoster, lang: Lang = "en",
           priced: PricedRoster | None = None) -> list[RuleCheck]:
    """Every rule that applies to the roster, kept or not, in the order the panel shows them."""
    priced = priced or price(roster)
    counts = tally(roster)
    checks = [empty_check(roster, lang)]
    checks += over_limit(roster, priced, lang)
    checks += unit_checks(roster, lang)
    checks += commander_checks(roster, lang)
    checks += national_checks(roster.nation, counts, roster.historical,
                              roster.fortifications, lang, _budget(roster, priced))
    checks += far_east_checks(roster.nation, counts, roster.historical, lang)
    return checks


def _budget(roster: ChainmailRoster, priced: PricedRoster) -> Budget:
    """The points left, and the cheapest price per figure of each kind of line: read off the
    priced lines (in eighths), each kind's made a Fraction once."""
    cheapest: dict[Key, int] = {}
    for unit, priced_unit in zip(roster.units, priced.units, strict=True):
        knights = "knights" in unit.flags
        for line in priced_unit.lines:
            key = (line.troop, line.weapon, knights)
            if line.each_eighths < cheapest.get(key, line.each_eighths + 1):
                cheapest[key] = line.each_eighths
    return Budget(priced.remaining,
                  {key: Fraction(each, EIGHTHS) for key, each in cheapest.items()})


def validate(roster: ChainmailRoster, lang: Lang = "en",
             priced: PricedRoster | None = None) -> list[Issue]:
    return [check.issue for check in assess(roster, lang, priced) if not check.holds]
