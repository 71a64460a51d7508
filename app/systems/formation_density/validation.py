"""validate(roster): every rule of §3, judged and explained in English and Russian."""

from __future__ import annotations

from collections.abc import Callable

from app.domain import points_limit as limit_rule
from app.domain.base import Issue, Lang, RuleCheck, Severity
from app.domain.points_limit import points_limit_check
from app.domain.translations import N_, ptr, tr
from app.systems.formation_density.catalogue import (
    CLASSES,
    MAX_DENSITY,
    MIN_DENSITY,
    WEAPONS,
    takes_shield,
    weapons_of,
)
from app.systems.formation_density.roster import FormationDensityRoster, Line, Unit

# code -> (severity, title: a msgid), in the order the panel shows them.
UNIT_RULES: dict[str, tuple[Severity, str]] = {
    "unit.weapon_class": (Severity.error, N_("Weapons suit the class")),
    "unit.two_handed_shield": (Severity.error, N_("No shield with a two-handed weapon")),
    "unit.lance_on_foot": (Severity.error, N_("Lances and shock cavalry are mounted")),
    "unit.cavalry_armour_on_foot": (Severity.error, N_("Cavalry armour only on riders")),
    "unit.density_useless": (Severity.warning, N_("The density lets the unit hit")),
}
# Every rule's name (a msgid) by its code: the rules page names the rules so, the code being
# for the API.
RULE_TITLES: dict[str, str] = {**{code: title for code, (_, title) in UNIT_RULES.items()},
                               limit_rule.CODE: limit_rule.TITLE}


def unit_label(index: int, unit: Unit, lang: Lang) -> str:
    number = index + 1
    if unit.name:
        return ptr(lang, "formation_density", "unit %(number)s “%(name)s”", number=number,
                   name=unit.name)
    return ptr(lang, "formation_density", "unit %(number)s", number=number)


def _line_label(j: int, line: Line, lang: Lang) -> str:
    weapon = WEAPONS[line.weapon].name(lang)
    kind = CLASSES[line.line_class].name(lang)
    return tr(lang, "line %(j)s (%(kind)s, %(weapon)s)", j=j + 1, kind=kind, weapon=weapon)


def _lines(unit: Unit, lang: Lang, wrong: Callable[[Line], bool]) -> str:
    return "; ".join(_line_label(j, ln, lang) for j, ln in enumerate(unit.lines) if wrong(ln))


def _classes_of(weapon: str, lang: Lang) -> str:
    names = [CLASSES[c].name(lang) for c in CLASSES if c in WEAPONS[weapon].classes]
    return tr(lang, " or ").join(names)


def _weapon_wrong(line: Line) -> bool:
    return line.weapon not in weapons_of(line.line_class)


def _shield_wrong(line: Line) -> bool:
    return line.shield and not takes_shield(line.weapon)


def _lance_wrong(line: Line) -> bool:
    return not line.mounted and (line.weapon == "cavalry_lance"
                                 or line.line_class == "shock_cavalry")


def _armour_wrong(line: Line) -> bool:
    return line.cavalry_armour and not line.mounted


# Rules a unit breaks by its lines: the code, the lines that break it, what is wrong with them
# (%(unit)s: those lines) and the remedy.
_LINE_RULES: tuple[tuple[str, Callable[[Line], bool], str, str], ...] = (
    ("unit.two_handed_shield", _shield_wrong, N_("a shield with a two-handed weapon: %(unit)s"),
     N_("a two-handed weapon leaves no hand for a shield; remove the shield")),
    ("unit.lance_on_foot", _lance_wrong, N_("on foot: %(unit)s"),
     N_("mark the line mounted, or choose another class and weapon")),
    ("unit.cavalry_armour_on_foot", _armour_wrong, N_("cavalry armour on foot: %(unit)s"),
     N_("cavalry armour protects horses; mark the line mounted or remove it")),
)


def unit_problems(index: int, unit: Unit, lang: Lang) -> list[RuleCheck]:
    """The rules of §3 a unit breaks (none when it keeps them all)."""
    found: list[RuleCheck] = []

    def broken(code: str, what: str, hint: str) -> None:
        severity, text = UNIT_RULES[code]
        found.append(RuleCheck(code, tr(lang, text), f"{unit_label(index, unit, lang)}: "
                               f"{what}", False, severity, hint=hint, unit=index))

    if any(_weapon_wrong(ln) for ln in unit.lines):
        first = next(ln for ln in unit.lines if _weapon_wrong(ln))
        broken("unit.weapon_class",
               tr(lang, "weapon not of the class: %(unit)s",
                  unit=_lines(unit, lang, _weapon_wrong)),
               tr(lang, "%(weapon)s is for %(classes)s; change the class or the weapon",
                  weapon=WEAPONS[first.weapon].name(lang),
                  classes=_classes_of(first.weapon, lang)))
    for code, wrong, what, hint in _LINE_RULES:
        if any(wrong(ln) for ln in unit.lines):
            broken(code, tr(lang, what, unit=_lines(unit, lang, wrong)), tr(lang, hint))

    d = unit.density
    shock = d == MIN_DENSITY and any(ln.line_class == "shock_troops" for ln in unit.lines)
    specialists = d == MAX_DENSITY and any(CLASSES[ln.line_class].hits == "above_own"
                                           for ln in unit.lines)
    if shock:
        broken("unit.density_useless",
               tr(lang, "shock troops at density %(d)s never hit (they need a roll below %(d)s)",
                  d=d),
               tr(lang, "raise the density"))
    if specialists:
        broken("unit.density_useless",
               tr(lang, "melee specialists and shooters at density %(d)s never hit (they need a "
                  "roll above %(d)s)", d=d),
               tr(lang, "lower the density"))
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
    for code, (severity, text) in UNIT_RULES.items():
        if code not in broken_codes:
            title = tr(lang, text)
            every = ptr(lang, "formation_density", "all units")
            kept.append(RuleCheck(code, title, f"{title}: {every}", True, severity))
    return over_limit(roster, lang) + problems + kept


def validate(roster: FormationDensityRoster, lang: Lang = "en") -> list[Issue]:
    return [check.issue for check in assess(roster, lang) if not check.holds]
