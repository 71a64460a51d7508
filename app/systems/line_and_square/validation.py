"""Every rule of rules page §3, judged and explained (kept or broken) in English and Russian."""

from __future__ import annotations

from fractions import Fraction

from app.domain import points_limit as limit_rule
from app.domain.base import Issue, Lang, RuleCheck, Severity
from app.domain.points_limit import points_limit_check
from app.domain.translations import N_, counted, nptr, ntr, tr
from app.systems.line_and_square.catalogue import (
    CLASSES,
    DEFAULT_POINTS_LIMIT,
    FORMATIONS,
    SQUARE_MIN_FIGURES,
)
from app.systems.line_and_square.roster import LineAndSquareRoster, Unit


def points_limit(roster: LineAndSquareRoster) -> int:
    """The limit that applies: the roster's own, or the usual 30 points."""
    return DEFAULT_POINTS_LIMIT if roster.points_limit is None else roster.points_limit


def _label(index: int, unit: Unit, lang: Lang) -> str:
    number = index + 1
    if unit.name:
        return tr(lang, "unit %(number)s “%(name)s”", number=number, name=unit.name)
    return tr(lang, "unit %(number)s", number=number)


def over_limit(roster: LineAndSquareRoster, total: Fraction, lang: Lang) -> RuleCheck:
    which = "" if roster.points_limit is not None else tr(lang, " (the usual limit, as none is "
                                                          "set)")
    return points_limit_check(total, points_limit(roster), lang, which)


UNIT_RULES: dict[str, tuple[Severity, str]] = {
    "unit.formation_not_allowed": (Severity.error, N_("Formations suit the classes")),
    "unit.square_too_small": (Severity.error, N_("Squares have at least 10 figures")),
    "unit.cannot_shoot": (Severity.warning, N_("Only shooting classes have accuracy")),
}
OFFICER_CODE, OFFICER_TITLE = "army.no_officer", N_("An officer leads")
# Every rule's name (a msgid) by its code, in the order the panel shows them: the rules page
# names the rules so, the code being for the API.
RULE_TITLES: dict[str, str] = {
    limit_rule.CODE: limit_rule.TITLE,
    **{code: title for code, (_, title) in UNIT_RULES.items()},
    OFFICER_CODE: OFFICER_TITLE,
}


def _unit_problems(index: int, unit: Unit, lang: Lang) -> list[RuleCheck]:
    found: list[RuleCheck] = []
    kind = CLASSES[unit.unit_class]
    label = _label(index, unit, lang)

    def broken(code: str, what: str, hint: str, value: str = "") -> None:
        severity, text = UNIT_RULES[code]
        found.append(RuleCheck(code, tr(lang, text), f"{label}: {what}", False, severity,
                               value=value, hint=hint, unit=index))

    class_name = kind.name(lang)
    formation = FORMATIONS[unit.formation]
    if unit.formation not in kind.formations:
        allowed = ", ".join(FORMATIONS[f].name(lang).lower() for f in kind.formations)
        broken("unit.formation_not_allowed",
               tr(lang, "%(class_name)s may not deploy in %(lower)s", class_name=class_name,
                  lower=formation.name(lang).lower()),
               tr(lang, "choose %(allowed)s", allowed=allowed),
               value=unit.formation)
    # A square the class may not form at all is already the error above; its size is moot.
    if unit.formation == "square" and kind.square and unit.figures < SQUARE_MIN_FIGURES:
        short = SQUARE_MIN_FIGURES - unit.figures
        broken("unit.square_too_small",
               tr(lang, "a square of %(figures)s", figures=counted(unit.figures, 'figure', lang)),
               ntr(lang, "a square needs at least %(least)s figures: add %(n)s figure or choose "
                   "another formation", "a square needs at least %(least)s figures: add %(n)s "
                   "figures or choose another formation", short, least=SQUARE_MIN_FIGURES),
               value=str(unit.figures))
    if kind.shoot == "never" and unit.accuracy is not None:
        broken("unit.cannot_shoot",
               tr(lang, "%(class_name)s never shoots, yet has accuracy %(accuracy)s",
                  class_name=class_name, accuracy=unit.accuracy),
               tr(lang, "clear the accuracy"),
               value=str(unit.accuracy))
    return found


def unit_checks(roster: LineAndSquareRoster, lang: Lang) -> list[RuleCheck]:
    problems = [c for i, unit in enumerate(roster.units) for c in _unit_problems(i, unit, lang)]
    broken_codes = {c.code for c in problems}
    kept = []
    for code, (severity, text) in UNIT_RULES.items():
        if code not in broken_codes:
            title = tr(lang, text)
            every = tr(lang, "all units")
            kept.append(RuleCheck(code, title, f"{title}: {every}", True, severity))
    return problems + kept


def officer_check(roster: LineAndSquareRoster, lang: Lang) -> RuleCheck:
    with_officer = [i + 1 for i, unit in enumerate(roster.units) if unit.officer]
    title = tr(lang, OFFICER_TITLE)
    if with_officer:
        where = ", ".join(map(str, with_officer))
        value = nptr(lang, "line_and_square", "%(n)s (unit %(where)s)",
                     "%(n)s (units %(where)s)", len(with_officer), where=where)
    else:
        value = "0"
    summary = tr(lang, "%(title)s: units with an officer — %(value)s", title=title, value=value)
    hint = "" if with_officer else tr(lang, "give one unit an officer: units within 12\" of it "
                                      "get +1 to order tests")
    return RuleCheck(OFFICER_CODE, title, summary, bool(with_officer), Severity.warning,
                     value=value, band="≥ 1", hint=hint)


def assess(roster: LineAndSquareRoster, lang: Lang = "en") -> list[RuleCheck]:
    """Every rule, kept or not, in the order the rules panel shows them."""
    return [over_limit(roster, roster.total(), lang), *unit_checks(roster, lang),
            officer_check(roster, lang)]


def validate(roster: LineAndSquareRoster, lang: Lang = "en") -> list[Issue]:
    return [check.issue for check in assess(roster, lang) if not check.holds]
