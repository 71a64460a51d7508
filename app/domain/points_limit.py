"""The points limit, a rule every system shares: the army's points against the limit the
player set (or the system's usual one), with the excess to remove when it is over."""

from __future__ import annotations

from fractions import Fraction

from app.domain.base import Lang, RuleCheck, Severity, points_text
from app.domain.translations import N_, counted, tr

CODE = "roster.over_limit"
TITLE = N_("Points limit")


def points_limit_check(total: Fraction, limit: int, lang: Lang, which: str = "") -> RuleCheck:
    """'Points limit: 12.5 of 10 points' — 'remove 2.5 points'; `which` says where the limit
    came from when the player did not set it."""
    title = tr(lang, TITLE)
    of = counted(limit, "point_of", lang)  # "из 21 очка", "из 30 очков"
    summary = tr(lang, "%(title)s: %(total)s of %(of)s%(which)s", title=title,
                 total=points_text(total, lang), of=of, which=which)
    holds = total <= limit
    excess = counted(total - limit, "point", lang)
    hint = "" if holds else tr(lang, "remove %(excess)s", excess=excess)
    return RuleCheck(CODE, title, summary, holds, Severity.error,
                     value=points_text(total, lang), band=f"≤ {limit}", hint=hint)
