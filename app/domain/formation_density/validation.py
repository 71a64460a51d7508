"""validate(roster): every rule of §3, judged and explained in English and Russian."""

from __future__ import annotations

from collections.abc import Callable

from app.domain.base import Issue, Lang, RuleCheck, Severity
from app.domain.formation_density.catalogue import CLASSES, MAX_DENSITY, MIN_DENSITY, WEAPONS
from app.domain.formation_density.roster import FormationDensityRoster, Line, Unit
from app.domain.points_limit import points_limit_check
from app.domain.text import N_, ptr, tr

# code -> (severity, title in English, title in Russian), in the order the panel shows them.
UNIT_RULES: dict[str, tuple[Severity, str]] = {
    "unit.weapon_class": (Severity.error, N_("Weapons suit the class")),
    "unit.two_handed_shield": (Severity.error, N_("No shield with a two-handed weapon")),
    "unit.lance_on_foot": (Severity.error, N_("Lances and shock cavalry are mounted")),
    "unit.cavalry_armour_on_foot": (Severity.error, N_("Cavalry armour only on riders")),
    "unit.density_useless": (Severity.warning, N_("The density lets the unit hit")),
}


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


def unit_problems(index: int, unit: Unit, lang: Lang) -> list[RuleCheck]:
    """The rules of §3 a unit breaks (none when it keeps them all)."""
    found: list[RuleCheck] = []

    def broken(code: str, what: str, hint: str) -> None:
        severity, text = UNIT_RULES[code]
        found.append(RuleCheck(code, tr(lang, text), f"{unit_label(index, unit, lang)}: "
                               f"{what}", False, severity, hint=hint, unit=index))

    def weapon_wrong(line: Line) -> bool:
        return line.line_class not in WEAPONS[line.weapon].classes

    if any(weapon_wrong(ln) for ln in unit.lines):
        first = next(ln for ln in unit.lines if weapon_wrong(ln))
        weapon = WEAPONS[first.weapon].name(lang)
        broken("unit.weapon_class",
               tr(lang, "weapon not of the class: %(unit)s", unit=_lines(unit, lang, weapon_wrong)),
               tr(lang, "%(weapon)s is for %(weapon2)s; change the class or the weapon",
                  weapon=weapon, weapon2=_classes_of(first.weapon, lang)))

    def shield_wrong(line: Line) -> bool:
        return line.shield and WEAPONS[line.weapon].has("two_handed")

    if any(shield_wrong(ln) for ln in unit.lines):
        broken("unit.two_handed_shield",
               tr(lang, "a shield with a two-handed weapon: %(unit)s",
                  unit=_lines(unit, lang, shield_wrong)),
               tr(lang, "a two-handed weapon leaves no hand for a shield; remove the shield"))

    def lance_wrong(line: Line) -> bool:
        return not line.mounted and (line.weapon == "cavalry_lance"
                                     or line.line_class == "shock_cavalry")

    if any(lance_wrong(ln) for ln in unit.lines):
        broken("unit.lance_on_foot",
               tr(lang, "on foot: %(unit)s", unit=_lines(unit, lang, lance_wrong)),
               tr(lang, "mark the line mounted, or choose another class and weapon"))

    def armour_wrong(line: Line) -> bool:
        return line.cavalry_armour and not line.mounted

    if any(armour_wrong(ln) for ln in unit.lines):
        broken("unit.cavalry_armour_on_foot",
               tr(lang, "cavalry armour on foot: %(unit)s", unit=_lines(unit, lang, armour_wrong)),
               tr(lang, "cavalry armour protects horses; mark the line mounted or remove it"))

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
