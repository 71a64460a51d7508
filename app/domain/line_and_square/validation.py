"""Every rule of rules page §3, judged and explained (kept or broken) in English and Russian."""

from __future__ import annotations

from fractions import Fraction

from app.domain.base import Issue, Lang, RuleCheck, Severity, pick
from app.domain.line_and_square.catalogue import (
    CLASSES,
    DEFAULT_POINTS_LIMIT,
    FORMATIONS,
    SQUARE_MIN_FIGURES,
)
from app.domain.line_and_square.roster import LineAndSquareRoster, Unit
from app.domain.points_limit import points_limit_check
from app.domain.words import counted


def points_limit(roster: LineAndSquareRoster) -> int:
    """The limit that applies: the roster's own, or the usual 30 points."""
    return DEFAULT_POINTS_LIMIT if roster.points_limit is None else roster.points_limit


def _label(index: int, unit: Unit, lang: Lang) -> str:
    number = index + 1
    if unit.name:
        return pick(lang, f"unit {number} “{unit.name}”", f"подразделение {number} «{unit.name}»")
    return pick(lang, f"unit {number}", f"подразделение {number}")


def over_limit(roster: LineAndSquareRoster, total: Fraction, lang: Lang) -> RuleCheck:
    which = "" if roster.points_limit is not None else pick(
        lang, " (the usual limit, as none is set)", " (обычный лимит: свой не задан)")
    return points_limit_check(total, points_limit(roster), lang, which)


UNIT_RULES: dict[str, tuple[Severity, str, str]] = {
    "unit.formation_not_allowed": (Severity.error, "Formations suit the classes",
                                   "Построения соответствуют родам войск"),
    "unit.square_too_small": (Severity.error, "Squares have at least 10 figures",
                              "В каре не меньше 10 фигур"),
    "unit.cannot_shoot": (Severity.warning, "Only shooting classes have accuracy",
                          "Меткость только у стреляющих"),
}


def _unit_problems(index: int, unit: Unit, lang: Lang) -> list[RuleCheck]:
    found: list[RuleCheck] = []
    kind = CLASSES[unit.unit_class]
    label = _label(index, unit, lang)

    def broken(code: str, what: str, hint: str, value: str = "") -> None:
        severity, en, ru = UNIT_RULES[code]
        found.append(RuleCheck(code, pick(lang, en, ru), f"{label}: {what}", False, severity,
                               value=value, hint=hint, unit=index))

    class_name = kind.name(lang)
    formation = FORMATIONS[unit.formation]
    if unit.formation not in kind.formations:
        allowed = ", ".join(FORMATIONS[f].name(lang).lower() for f in kind.formations)
        broken("unit.formation_not_allowed",
               pick(lang, f"{class_name} may not deploy in {formation.name_en.lower()}",
                    f"{class_name}: построение «{formation.name_ru.lower()}» недоступно"),
               pick(lang, f"choose {allowed}", f"выберите: {allowed}"),
               value=unit.formation)
    # A square the class may not form at all is already the error above; its size is moot.
    if unit.formation == "square" and kind.square and unit.figures < SQUARE_MIN_FIGURES:
        short = SQUARE_MIN_FIGURES - unit.figures
        broken("unit.square_too_small",
               pick(lang, f"a square of {counted(unit.figures, 'figure', lang)}",
                    f"каре из {counted(unit.figures, 'figure', lang)}"),
               pick(lang, f"a square needs at least {SQUARE_MIN_FIGURES} figures: add "
                    f"{counted(short, 'figure_to_add', lang)} or choose another formation",
                    f"для каре нужно не меньше {SQUARE_MIN_FIGURES} фигур: добавьте "
                    f"{counted(short, 'figure_to_add', lang)} или выберите другое построение"),
               value=str(unit.figures))
    if kind.shoot == "never" and unit.accuracy is not None:
        broken("unit.cannot_shoot",
               pick(lang, f"{class_name} never shoots, yet has accuracy {unit.accuracy}",
                    f"{class_name} не может стрелять, но указана меткость {unit.accuracy}"),
               pick(lang, "clear the accuracy", "уберите меткость"),
               value=str(unit.accuracy))
    return found


def unit_checks(roster: LineAndSquareRoster, lang: Lang) -> list[RuleCheck]:
    problems = [c for i, unit in enumerate(roster.units) for c in _unit_problems(i, unit, lang)]
    broken_codes = {c.code for c in problems}
    kept = []
    for code, (severity, en, ru) in UNIT_RULES.items():
        if code not in broken_codes:
            title = pick(lang, en, ru)
            every = pick(lang, "all units", "все подразделения")
            kept.append(RuleCheck(code, title, f"{title}: {every}", True, severity))
    return problems + kept


def officer_check(roster: LineAndSquareRoster, lang: Lang) -> RuleCheck:
    with_officer = [i + 1 for i, unit in enumerate(roster.units) if unit.officer]
    title = pick(lang, "An officer leads", "Есть офицер")
    if with_officer:
        where = ", ".join(map(str, with_officer))
        one = len(with_officer) == 1
        value = pick(lang, f"{len(with_officer)} ({'unit' if one else 'units'} {where})",
                     f"{len(with_officer)} ({'подразделение' if one else 'подразделения'} "
                     f"{where})")
    else:
        value = "0"
    summary = pick(lang, f"{title}: units with an officer — {value}",
                   f"{title}: подразделений с офицером — {value}")
    hint = "" if with_officer else pick(
        lang, "give one unit an officer: units within 12\" of it get +1 to order tests",
        "дайте офицера одному из подразделений: те, что ближе 12\" от него, получают +1 "
        "к тесту на приказ")
    return RuleCheck("army.no_officer", title, summary, bool(with_officer), Severity.warning,
                     value=value, band="≥ 1", hint=hint)


def assess(roster: LineAndSquareRoster, lang: Lang = "en") -> list[RuleCheck]:
    """Every rule, kept or not, in the order the rules panel shows them."""
    return [over_limit(roster, roster.total(), lang), *unit_checks(roster, lang),
            officer_check(roster, lang)]


def validate(roster: LineAndSquareRoster, lang: Lang = "en") -> list[Issue]:
    return [check.issue for check in assess(roster, lang) if not check.holds]
