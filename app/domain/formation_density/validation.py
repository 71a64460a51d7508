"""validate(roster): every rule of §3, judged and explained in English and Russian."""

from __future__ import annotations

from collections.abc import Callable

from app.domain.base import Issue, Lang, RuleCheck, Severity, pick
from app.domain.formation_density.catalogue import CLASSES, MAX_DENSITY, MIN_DENSITY, WEAPONS
from app.domain.formation_density.roster import FormationDensityRoster, Line, Unit
from app.domain.points_limit import points_limit_check

# code -> (severity, title in English, title in Russian), in the order the panel shows them.
UNIT_RULES: dict[str, tuple[Severity, str, str]] = {
    "unit.weapon_class": (Severity.error, "Weapons suit the class",
                          "Оружие соответствует классу"),
    "unit.two_handed_shield": (Severity.error, "No shield with a two-handed weapon",
                               "Нет щита при двуручном оружии"),
    "unit.lance_on_foot": (Severity.error, "Lances and shock cavalry are mounted",
                           "Кавалерийская пика и ударная конница — верхом"),
    "unit.cavalry_armour_on_foot": (Severity.error, "Cavalry armour only on riders",
                                    "Кавалерийские доспехи — только на всадниках"),
    "unit.density_useless": (Severity.warning, "The density lets the unit hit",
                             "Плотность строя позволяет попадать"),
}


def unit_label(index: int, unit: Unit, lang: Lang) -> str:
    number = index + 1
    if unit.name:
        return pick(lang, f"unit {number} “{unit.name}”", f"отряд {number} «{unit.name}»")
    return pick(lang, f"unit {number}", f"отряд {number}")


def _line_label(j: int, line: Line, lang: Lang) -> str:
    weapon = WEAPONS[line.weapon].name(lang)
    kind = CLASSES[line.line_class].name(lang)
    return pick(lang, f"line {j + 1} ({kind}, {weapon})", f"строка {j + 1} ({kind}, {weapon})")


def _lines(unit: Unit, lang: Lang, wrong: Callable[[Line], bool]) -> str:
    return "; ".join(_line_label(j, ln, lang) for j, ln in enumerate(unit.lines) if wrong(ln))


def _classes_of(weapon: str, lang: Lang) -> str:
    names = [CLASSES[c].name(lang) for c in CLASSES if c in WEAPONS[weapon].classes]
    return pick(lang, " or ", " или ").join(names)


def unit_problems(index: int, unit: Unit, lang: Lang) -> list[RuleCheck]:
    """The rules of §3 a unit breaks (none when it keeps them all)."""
    found: list[RuleCheck] = []

    def broken(code: str, what: str, hint: str) -> None:
        severity, en, ru = UNIT_RULES[code]
        found.append(RuleCheck(code, pick(lang, en, ru), f"{unit_label(index, unit, lang)}: "
                               f"{what}", False, severity, hint=hint, unit=index))

    def weapon_wrong(line: Line) -> bool:
        return line.line_class not in WEAPONS[line.weapon].classes

    if any(weapon_wrong(ln) for ln in unit.lines):
        first = next(ln for ln in unit.lines if weapon_wrong(ln))
        weapon = WEAPONS[first.weapon].name(lang)
        broken("unit.weapon_class",
               pick(lang, f"weapon not of the class: {_lines(unit, lang, weapon_wrong)}",
                    f"оружие не своего класса: {_lines(unit, lang, weapon_wrong)}"),
               pick(lang, f"{weapon} is for {_classes_of(first.weapon, lang)}; change the class "
                          f"or the weapon",
                    f"{weapon} — для класса {_classes_of(first.weapon, lang)}; смените класс "
                    f"или оружие"))

    def shield_wrong(line: Line) -> bool:
        return line.shield and WEAPONS[line.weapon].has("two_handed")

    if any(shield_wrong(ln) for ln in unit.lines):
        broken("unit.two_handed_shield",
               pick(lang, f"a shield with a two-handed weapon: {_lines(unit, lang, shield_wrong)}",
                    f"щит при двуручном оружии: {_lines(unit, lang, shield_wrong)}"),
               pick(lang, "a two-handed weapon leaves no hand for a shield; remove the shield",
                    "двуручное оружие не оставляет руки для щита; уберите щит"))

    def lance_wrong(line: Line) -> bool:
        return not line.mounted and (line.weapon == "cavalry_lance"
                                     or line.line_class == "shock_cavalry")

    if any(lance_wrong(ln) for ln in unit.lines):
        broken("unit.lance_on_foot",
               pick(lang, f"on foot: {_lines(unit, lang, lance_wrong)}",
                    f"пешие: {_lines(unit, lang, lance_wrong)}"),
               pick(lang, "mark the line mounted, or choose another class and weapon",
                    "отметьте строку «верхом» или выберите другой класс и оружие"))

    def armour_wrong(line: Line) -> bool:
        return line.cavalry_armour and not line.mounted

    if any(armour_wrong(ln) for ln in unit.lines):
        broken("unit.cavalry_armour_on_foot",
               pick(lang, f"cavalry armour on foot: {_lines(unit, lang, armour_wrong)}",
                    f"кавалерийские доспехи у пеших: {_lines(unit, lang, armour_wrong)}"),
               pick(lang, "cavalry armour protects horses; mark the line mounted or remove it",
                    "кавалерийские доспехи защищают лошадей; отметьте строку «верхом» или "
                    "уберите их"))

    d = unit.density
    shock = d == MIN_DENSITY and any(ln.line_class == "shock_troops" for ln in unit.lines)
    specialists = d == MAX_DENSITY and any(CLASSES[ln.line_class].hits == "above_own"
                                           for ln in unit.lines)
    if shock:
        broken("unit.density_useless",
               pick(lang, f"shock troops at density {d} never hit (they need a roll below {d})",
                    f"ударные войска при плотности {d} не попадают (нужно выбросить меньше {d})"),
               pick(lang, "raise the density", "увеличьте плотность строя"))
    if specialists:
        broken("unit.density_useless",
               pick(lang, f"melee specialists and shooters at density {d} never hit (they need "
                          f"a roll above {d})",
                    f"специалисты рукопашного боя и стрелки при плотности {d} не попадают "
                    f"(нужно выбросить больше {d})"),
               pick(lang, "lower the density", "уменьшите плотность строя"))
    return found


def over_limit(roster: FormationDensityRoster, lang: Lang) -> list[RuleCheck]:
    if roster.points_limit is None:
        return []
    return [points_limit_check(roster.total(), roster.points_limit, lang)]


def assess(roster: FormationDensityRoster, lang: Lang = "en") -> list[RuleCheck]:
    """Every rule that applies to the roster, kept or not, in the order the panel shows them."""
    problems = [c for i, unit in enumerate(roster.units) for c in unit_problems(i, unit, lang)]
    broken_codes = {c.code for c in problems}
    kept = []
    for code, (severity, en, ru) in UNIT_RULES.items():
        if code not in broken_codes:
            title = pick(lang, en, ru)
            kept.append(RuleCheck(code, title, f"{title}: {pick(lang, 'all units', 'все отряды')}",
                                  True, severity))
    return over_limit(roster, lang) + problems + kept


def validate(roster: FormationDensityRoster, lang: Lang = "en") -> list[Issue]:
    return [check.issue for check in assess(roster, lang) if not check.holds]
