"""Organisation rules for every nation (§5): limits, unit make-up, weapons, the commander."""

from __future__ import annotations

from app.domain.base import Lang, RuleCheck, Severity, pick
from app.domain.chainmail.catalogue import TROOPS, WEAPONS
from app.domain.chainmail.pricing import PricedRoster
from app.domain.chainmail.roster import ChainmailRoster, Unit
from app.domain.points_limit import points_limit_check
from app.domain.words import counted

# "Light horse may be mixed with medium, and medium with heavy; other types may not be mixed."
MIXABLE: tuple[frozenset[str], ...] = (
    frozenset({"light_horse", "medium_horse"}),
    frozenset({"medium_horse", "heavy_horse"}),
)
TROOP_ORDER: dict[str, int] = {troop: i for i, troop in enumerate(TROOPS)}


def _unit_label(index: int, unit: Unit, lang: Lang) -> str:
    number = index + 1
    if unit.name:
        return pick(lang, f"unit {number} “{unit.name}”", f"отряд {number} «{unit.name}»")
    return pick(lang, f"unit {number}", f"отряд {number}")


def _names(ids: list[str], lang: Lang, table: dict) -> str:  # type: ignore[type-arg]
    return ", ".join(table[i].name(lang) for i in ids)


def over_limit(roster: ChainmailRoster, priced: PricedRoster, lang: Lang) -> list[RuleCheck]:
    if roster.points_limit is None:
        return []
    return [points_limit_check(priced.total, roster.points_limit, lang)]


def _unit_problems(index: int, unit: Unit, lang: Lang) -> list[RuleCheck]:
    found: list[RuleCheck] = []

    def broken(code: str, severity: Severity, title: str, what: str, hint: str) -> None:
        label = _unit_label(index, unit, lang)
        found.append(RuleCheck(code, title, f"{label}: {what}", False, severity,
                               hint=hint, unit=index))

    if not unit.lines:
        broken("unit.empty", Severity.error,
               pick(lang, "Units have figures", "В отрядах есть фигуры"),
               pick(lang, "has no figures", "нет фигур"),
               pick(lang, "add a line of figures or remove the unit",
                    "добавьте строку фигур или удалите отряд"))
    kinds = {line.troop for line in unit.lines}
    if len(kinds) > 1 and frozenset(kinds) not in MIXABLE:
        mixed = sorted(kinds, key=TROOP_ORDER.__getitem__)
        broken("unit.mixed_types", Severity.error,
               pick(lang, "Units do not mix troop types", "Отряды не смешивают типы войск"),
               pick(lang, f"mixes {_names(mixed, lang, TROOPS)}",
                    f"смешаны {_names(mixed, lang, TROOPS)}"),
               pick(lang, "only light+medium or medium+heavy horse may share a unit; split it",
                    "смешивать можно только лёгкую со средней или среднюю с тяжёлой конницей; "
                    "разделите отряд"))
    wrong = [line for line in unit.lines
             if TROOPS[line.troop].troop_class not in WEAPONS[line.weapon].allowed_on]
    if wrong:
        what = "; ".join(f"{TROOPS[line.troop].name(lang)} — {WEAPONS[line.weapon].name(lang)}"
                         for line in wrong)
        broken("unit.weapon_not_allowed", Severity.error,
               pick(lang, "Weapons suit the troops", "Оружие соответствует войскам"),
               pick(lang, f"weapon not allowed: {what}", f"недопустимое оружие: {what}"),
               pick(lang, "pikes and polearms are for foot, lances for horse",
                    "пики и древковое оружие — для пехоты, кавалерийские копья — для конницы"))
    if "knights" in unit.flags and any(TROOPS[line.troop].troop_class == "foot"
                                       for line in unit.lines):
        broken("unit.knights_not_horse", Severity.error,
               pick(lang, "Knights are horse", "Рыцари — конница"),
               pick(lang, "flagged as knights but has foot figures",
                    "отмечен как рыцари, но в нём есть пехота"),
               pick(lang, "remove the knights flag or the foot",
                    "снимите отметку рыцарей или уберите пехоту"))
    if "commander" in unit.flags and unit.mercenary:
        broken("unit.commander_mercenary", Severity.warning,
               pick(lang, "The commander is not with mercenaries",
                    "Главнокомандующий не с наёмниками"),
               pick(lang, "the commander stands with mercenaries, who gain nothing from him",
                    "главнокомандующий стоит с наёмниками, а они не получают его влияния"),
               pick(lang, "move the commander to a loyal unit",
                    "переведите главнокомандующего в отряд не наёмников"))
    return found


UNIT_CODES: dict[str, tuple[str, str]] = {
    "unit.empty": ("Units have figures", "В отрядах есть фигуры"),
    "unit.mixed_types": ("Units do not mix troop types", "Отряды не смешивают типы войск"),
    "unit.weapon_not_allowed": ("Weapons suit the troops", "Оружие соответствует войскам"),
    "unit.knights_not_horse": ("Knights are horse", "Рыцари — конница"),
    "unit.commander_mercenary": ("The commander is not with mercenaries",
                                 "Главнокомандующий не с наёмниками"),
}


def unit_checks(roster: ChainmailRoster, lang: Lang) -> list[RuleCheck]:
    problems = [c for i, unit in enumerate(roster.units) for c in _unit_problems(i, unit, lang)]
    broken_codes = {c.code for c in problems}
    kept = []
    for code, (en, ru) in UNIT_CODES.items():
        if code not in broken_codes:
            title = pick(lang, en, ru)
            kept.append(RuleCheck(code, title, f"{title}: {pick(lang, 'all units', 'все отряды')}",
                                  True, Severity.error))
    return problems + kept


def empty_check(roster: ChainmailRoster, lang: Lang) -> RuleCheck:
    """army.empty: with no figures every share rule holds on a base of none, so the roster
    is not called legal in silence (engines are not figures)."""
    figures = sum(line.figures for unit in roster.units for line in unit.lines)
    title = pick(lang, "The army has figures", "В армии есть фигуры")
    if figures:
        return RuleCheck("army.empty", title, f"{title}: {counted(figures, 'figure', lang)}",
                         True, Severity.warning, value=str(figures))
    return RuleCheck("army.empty", title,
                     pick(lang, "The army has no figures yet: nothing to judge",
                          "В армии пока нет фигур: судить не о чем"),
                     False, Severity.warning, value="0",
                     hint=pick(lang, "add a unit with figures", "добавьте отряд с фигурами"))


def commander_checks(roster: ChainmailRoster, lang: Lang) -> list[RuleCheck]:
    with_commander = [i for i, unit in enumerate(roster.units) if "commander" in unit.flags]
    n = len(with_commander)
    where = ", ".join(str(i + 1) for i in with_commander)
    value = pick(lang, f"{n} ({'unit' if n == 1 else 'units'} {where})",
                 f"{n} ({'отряд' if n == 1 else 'отряды'} {where})") if n else "0"
    # Two rules, so two titles: one reads "at most one", the other "there is one".
    at_most = pick(lang, "At most one commander", "Не больше одного главнокомандующего")
    named = pick(lang, "A commander leads the army", "Армию ведёт главнокомандующий")

    def summary(title: str) -> str:
        return pick(lang, f"{title}: units with the commander — {value}",
                    f"{title}: отрядов с главнокомандующим — {value}")

    return [
        RuleCheck("army.commanders", at_most, summary(at_most), n <= 1, Severity.error,
                  value=value, band="1", hint="" if n <= 1 else pick(
                      lang, f"keep the commander in one unit, remove him from {n - 1}",
                      f"оставьте главнокомандующего в одном отряде, снимите с {n - 1}")),
        RuleCheck("army.no_commander", named, summary(named), n >= 1, Severity.warning,
                  value=value, band="1", hint="" if n else pick(
                      lang, "mark one unit as the commander's",
                      "отметьте отряд главнокомандующего")),
    ]
