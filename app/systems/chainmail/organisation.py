"""Organisation rules for every nation (§5): limits, unit make-up, weapons, the commander."""

from __future__ import annotations

from app.domain.base import Lang, RuleCheck, Severity
from app.domain.points_limit import points_limit_check
from app.domain.translations import N_, counted, ntr, ptr, tr
from app.systems.chainmail.catalogue import TROOPS, WEAPONS
from app.systems.chainmail.pricing import PricedRoster
from app.systems.chainmail.roster import ChainmailRoster, Unit

# "Light horse may be mixed with medium, and medium with heavy; other types may not be mixed."
MIXABLE: tuple[frozenset[str], ...] = (
    frozenset({"light_horse", "medium_horse"}),
    frozenset({"medium_horse", "heavy_horse"}),
)
TROOP_ORDER: dict[str, int] = {troop: i for i, troop in enumerate(TROOPS)}


def _unit_label(index: int, unit: Unit, lang: Lang) -> str:
    number = index + 1
    if unit.name:
        return ptr(lang, "chainmail", "unit %(number)s “%(name)s”", number=number,
                   name=unit.name)
    return ptr(lang, "chainmail", "unit %(number)s", number=number)


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
               tr(lang, "Units have figures"),
               tr(lang, "has no figures"),
               tr(lang, "add a line of figures or remove the unit"))
    kinds = {line.troop for line in unit.lines}
    if len(kinds) > 1 and frozenset(kinds) not in MIXABLE:
        mixed = sorted(kinds, key=TROOP_ORDER.__getitem__)
        broken("unit.mixed_types", Severity.error,
               tr(lang, "Units do not mix troop types"),
               tr(lang, "mixes %(mixed)s", mixed=_names(mixed, lang, TROOPS)),
               tr(lang, "only light+medium or medium+heavy horse may share a unit; split it"))
    wrong = [line for line in unit.lines
             if TROOPS[line.troop].troop_class not in WEAPONS[line.weapon].allowed_on]
    if wrong:
        what = "; ".join(f"{TROOPS[line.troop].name(lang)} — {WEAPONS[line.weapon].name(lang)}"
                         for line in wrong)
        broken("unit.weapon_not_allowed", Severity.error,
               tr(lang, "Weapons suit the troops"),
               tr(lang, "weapon not allowed: %(what)s", what=what),
               tr(lang, "pikes and polearms are for foot, lances for horse"))
    if "knights" in unit.flags and any(TROOPS[line.troop].troop_class == "foot"
                                       for line in unit.lines):
        broken("unit.knights_not_horse", Severity.error,
               tr(lang, "Knights are horse"),
               tr(lang, "flagged as knights but has foot figures"),
               tr(lang, "remove the knights flag or the foot"))
    if "commander" in unit.flags and unit.mercenary:
        broken("unit.commander_mercenary", Severity.warning,
               tr(lang, "The commander is not with mercenaries"),
               tr(lang, "the commander stands with mercenaries, who gain nothing from him"),
               tr(lang, "move the commander to a loyal unit"))
    return found


UNIT_CODES: dict[str, str] = {
    "unit.empty": N_("Units have figures"),
    "unit.mixed_types": N_("Units do not mix troop types"),
    "unit.weapon_not_allowed": N_("Weapons suit the troops"),
    "unit.knights_not_horse": N_("Knights are horse"),
    "unit.commander_mercenary": N_("The commander is not with mercenaries"),
}


def unit_checks(roster: ChainmailRoster, lang: Lang) -> list[RuleCheck]:
    problems = [c for i, unit in enumerate(roster.units) for c in _unit_problems(i, unit, lang)]
    broken_codes = {c.code for c in problems}
    kept = []
    for code, text in UNIT_CODES.items():
        if code not in broken_codes:
            title = tr(lang, text)
            every = ptr(lang, "chainmail", "all units")
            kept.append(RuleCheck(code, title, f"{title}: {every}", True, Severity.error))
    return problems + kept


def empty_check(roster: ChainmailRoster, lang: Lang) -> RuleCheck:
    """army.empty: with no figures every share rule holds on a base of none, so the roster
    is not called legal in silence (engines are not figures)."""
    figures = sum(line.figures for unit in roster.units for line in unit.lines)
    title = tr(lang, "The army has figures")
    if figures:
        return RuleCheck("army.empty", title, f"{title}: {counted(figures, 'figure', lang)}",
                         True, Severity.warning, value=str(figures))
    return RuleCheck("army.empty", title,
                     tr(lang, "The army has no figures yet: nothing to judge"),
                     False, Severity.warning, value="0",
                     hint=tr(lang, "add a unit with figures"))


def commander_checks(roster: ChainmailRoster, lang: Lang) -> list[RuleCheck]:
    with_commander = [i for i, unit in enumerate(roster.units) if "commander" in unit.flags]
    n = len(with_commander)
    where = ", ".join(str(i + 1) for i in with_commander)
    value = ntr(lang, "%(n)s (unit %(where)s)", "%(n)s (units %(where)s)", n,
                where=where) if n else "0"
    # Two rules, so two titles: one reads "at most one", the other "there is one".
    at_most = tr(lang, "At most one commander")
    named = tr(lang, "A commander leads the army")

    def summary(title: str) -> str:
        return tr(lang, "%(title)s: units with the commander — %(value)s", title=title, value=value)

    return [
        RuleCheck("army.commanders", at_most, summary(at_most), n <= 1, Severity.error,
                  value=value, band="1", hint="" if n <= 1 else tr(
                      lang, "keep the commander in one unit, remove him from %(n)s", n=n - 1)),
        RuleCheck("army.no_commander", named, summary(named), n >= 1, Severity.warning,
                  value=value, band="1", hint="" if n else tr(
                      lang, "mark one unit as the commander's")),
    ]
