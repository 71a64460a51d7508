"""validate(roster): every organisation (§5) and national (§6) rule, judged and explained."""

from __future__ import annotations

from fractions import Fraction

from app.domain.base import Issue, Lang, RuleCheck
from app.domain.chainmail.far_east import far_east_checks
from app.domain.chainmail.nations import Budget, national_checks
from app.domain.chainmail.organisation import (
    commander_checks,
    empty_check,
    over_limit,
    unit_checks,
)
from app.domain.chainmail.pricing import PricedRoster, cost_per_figure, price
from app.domain.chainmail.roster import ChainmailRoster
from app.domain.chainmail.tally import Key, tally


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
    """The points left, and the cheapest price per figure of each kind of line."""
    prices: dict[Key, Fraction] = {}
    for unit in roster.units:
        for line in unit.lines:
            key = (line.troop, line.weapon, "knights" in unit.flags)
            each = cost_per_figure(line.troop, line.weapon, unit.mercenary)
            prices[key] = min(each, prices.get(key, each))
    return Budget(priced.remaining, prices)


def validate(roster: ChainmailRoster, lang: Lang = "en",
             priced: PricedRoster | None = None) -> list[Issue]:
    return [check.issue for check in assess(roster, lang, priced) if not check.holds]
