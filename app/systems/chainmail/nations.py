"""National proportions (§6) as data, and how each kind of rule is judged and explained."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.domain.bands import Band, figures_of
from app.domain.base import (
    Lang,
    RuleCheck,
    Severity,
    percent_text,
    percent_text_past,
)
from app.domain.translations import N_, counted, ptr, tr
from app.systems.chainmail.tally import (
    ARMY,
    FOOT,
    HEAVY_FOOT,
    HEAVY_FOOT_TROOPS,
    HEAVY_HORSE,
    HORSE,
    LIGHT_FOOT,
    LIGHT_FOOT_TROOPS,
    LIGHT_HORSE,
    Figures,
    Key,
    Tally,
    troops,
)

E, W = Severity.error, Severity.warning
BOWS = troops("bow", "composite_bow")
# The horse a steppe army is made of: medium and light lancers, light horse archers.
STEPPE_HORSE = frozenset({("medium_horse", "lance"), ("light_horse", "lance"),
                          *(("light_horse", bow) for bow in BOWS)})


def band(lo: str, hi: str, word: str | None = None) -> Band:
    """An "about" band (the seed's "около", "приблизительно", "большинство" …)."""
    return Band(Fraction(lo), Fraction(hi), word=word)


def hard(lo: str, hi: str) -> Band:
    """A hard bound (the seed's "не менее", "максимум"): not rounded."""
    return Band(Fraction(lo), Fraction(hi), hard=True)


def more_than_half(word: str | None = None) -> Band:
    """A majority (the seed's "большинство", "преимущественно", the Poles' "главный
    инструмент"): more than half, strictly, everywhere; exactly half is not one."""
    return Band(Fraction(1, 2), over=True, word=word)


MAJORITY = N_("a majority")
MOSTLY = N_("mostly")
HIGH_SHARE = N_("a high share")


@dataclass(frozen=True)
class ShareRule:
    """`counted` figures as a share of `base` figures must lie in `band`."""

    code: str
    severity: Severity
    counted: Figures
    base: Figures
    band: Band
    waived_by_fortifications: bool = False

    def check(self, counts: Tally, severity: Severity, fortified: bool, lang: Lang) -> RuleCheck:
        count, base = self.counted.count(counts), self.base.count(counts)
        title = self.counted.label(lang)
        holds = self.band.holds(count, base)
        share = f"{count} {figures_of(lang, base, self.base.name)}"
        if base and holds:
            share += f" = {percent_text(count / base, lang)} %"
        elif base:  # past the band: never printed as its edge
            edge = self.band.crossed(count, base, lang)
            share += f" = {percent_text_past(count, base, edge, lang)} %"
        band = self.band.text(lang)
        must = tr(lang, "must be %(band)s", band=band)
        summary = f"{title}: {share}, {must}"
        if note := self.band.rounding(count, base, lang):  # kept by whole figures alone
            summary += f" ({note})"
        if self.waived_by_fortifications and fortified:
            holds = True
            summary += tr(lang, " (waived: the army holds fortifications)")
        hint = "" if holds else self.band.hint(count, base, lang, self.base.name)
        return RuleCheck(self.code, title, summary, holds, severity,
                         value=share, band=band, hint=hint)

    def room(self, counts: Tally, budget: Budget, lang: Lang) -> str:
        """"room for 2–17 more; 90 points left buy up to 12" (empty when none is left)."""
        found = self.band.room(self.counted.count(counts), self.base.count(counts))
        if found is None or found == (0, 0):
            return ""
        least, most = found
        if most is None:
            span = tr(lang, "room for %(least)s or more", least=least) if least else \
                tr(lang, "room for any number more")
        elif least == most:
            span = tr(lang, "room for exactly %(least)s more", least=least)
        elif least:
            span = tr(lang, "room for %(least)s–%(most)s more", least=least, most=most)
        else:
            span = tr(lang, "room for up to %(most)s more", most=most)
        each = budget.cheapest(self.counted)
        if each is None or budget.left is None or budget.left < 0:
            return span
        buys = int(budget.left // each)
        left = counted(budget.left, "point", lang)
        return span + tr(lang, "; with %(left)s left, up to %(buys)s", left=left, buys=buys)


@dataclass(frozen=True)
class NoneRule:
    """There must be no `excluded` figures ("no heavy horse", "foot are light foot only")."""

    code: str
    severity: Severity
    excluded: Figures
    requirement: str  # a msgid

    def check(self, counts: Tally, severity: Severity, fortified: bool, lang: Lang) -> RuleCheck:
        count = self.excluded.count(counts)
        title = tr(lang, self.requirement)
        summary = f"{title}: {self.excluded.label(lang)} — {count}"
        # Other arms mend a rule about arms ("every foot line carries pikes"); a rule about
        # troop types is mended only by removing them (or changing their type: another troop).
        by_arms = self.excluded.weapons is not None or bool(self.excluded.except_weapons) \
            or bool(self.excluded.except_arms)
        hint = "" if count == 0 else (
            tr(lang, "remove or re-arm %(count)s", count=count) if by_arms
            else tr(lang, "remove %(count)s", count=count))
        return RuleCheck(self.code, title, summary, count == 0, severity,
                         value=str(count), band=ptr(lang, "no figures", "none"), hint=hint)


Rule = ShareRule | NoneRule


def _f(name: str, **kw: object) -> Figures:
    return Figures(name, **kw)  # type: ignore[arg-type]


def _no_heavy_horse(prefix: str) -> NoneRule:
    return NoneRule(f"{prefix}.horse_types", E, HEAVY_HORSE,
                    N_("No heavy horse"))


def _light_foot_only(prefix: str) -> NoneRule:
    return NoneRule(f"{prefix}.foot_types", E,
                    _f(N_("foot other than light foot"), troop_class="foot",
                       except_troops=LIGHT_FOOT_TROOPS),
                    N_("Foot are light foot only (peasants count as light foot)"))


def _steppe(prefix: str, archers: Band) -> tuple[Rule, ...]:
    return (
        NoneRule(f"{prefix}.no_foot", E, _f(N_("foot"), troop_class="foot"),
                 N_("All horse, no foot")),
        _no_heavy_horse(prefix),
        ShareRule(f"{prefix}.medium_lancers", E,
                  _f(N_("medium horse with lances"),
                     troops=troops("medium_horse"), weapons=troops("lance")),
                  ARMY, band("0.15", "0.35")),
        ShareRule(f"{prefix}.light_lancers", E,
                  _f(N_("light horse with lances"),
                     troops=troops("light_horse"), weapons=troops("lance")),
                  ARMY, band("0.15", "0.35")),
        ShareRule(f"{prefix}.horse_archers", E,
                  _f(N_("light horse with bows"),
                     troops=troops("light_horse"), weapons=BOWS),
                  ARMY, archers),
        # "а все остальные – Лёгкая Конница с луками": the three bands leave no room for other
        # horse. A longbow is not among the horse archers' bows (the seed's bow and composite
        # bow are the horse archer's; docs/rules-interpretations.md).
        NoneRule(f"{prefix}.other_horse", E,
                 _f(N_("horse other than lancers and horse archers"), troop_class="horse",
                    except_arms=STEPPE_HORSE),
                 N_("Every horseman is a medium lancer, a light lancer or a light horse "
                    "archer")),
    )


NATIONAL_RULES: dict[str, tuple[Rule, ...]] = {
    "generic": (),
    "magyars": (
        _no_heavy_horse("magyars"),
        ShareRule("magyars.light_horse", E, _f(N_("light horse"),
                                               troops=troops("light_horse")),
                  HORSE, band("0.65", "0.85")),
        ShareRule("magyars.horse_archers", E,
                  _f(N_("light horse with bows"),
                     troops=troops("light_horse"), weapons=BOWS),
                  LIGHT_HORSE, band("0.15", "0.35")),
        # "другая четверть — Средняя": a share the seed says exists.
        ShareRule("magyars.medium_horse", E, _f(N_("medium horse"),
                                                troops=troops("medium_horse")),
                  HORSE, band("0.15", "0.35")),
        ShareRule("magyars.foot_share", E, _f(N_("foot"), troop_class="foot"),
                  ARMY, hard("0", "0.10"), waived_by_fortifications=True),
        _light_foot_only("magyars"),
    ),
    "mongols": _steppe("mongols", band("0.40", "0.60")),
    # "Возможно, Конных Лучников будет немного меньше" than the Mongols' half.
    "tatars": _steppe("tatars", band("0.30", "0.60", N_("a little under half"))),
    "poles": (
        _no_heavy_horse("poles"),
        ShareRule("poles.medium_lancers", E,
                  _f(N_("medium horse with lances"),
                     troops=troops("medium_horse"), weapons=troops("lance")),
                  HORSE, band("0.65", "0.85")),
        ShareRule("poles.light_crossbows", E,
                  _f(N_("light horse with crossbows"),
                     troops=troops("light_horse"), weapons=troops("crossbow")),
                  LIGHT_HORSE, band("0.05", "0.15")),
        # "Оставшаяся часть - Лёгкая": the horse that are not medium lancers are light horse
        # (heavy horse are poles.horse_types' own).
        NoneRule("poles.other_horse", E,
                 _f(N_("medium horse without lances"),
                    troops=troops("medium_horse"), except_weapons=troops("lance")),
                 N_("The other horse are light horse")),
        ShareRule("poles.light_horse", E, _f(N_("light horse"), troops=troops("light_horse")),
                  HORSE, band("0.15", "0.35")),
        # "Главный инструмент Поляков — это их кавалерия": more than half the army.
        ShareRule("poles.horse_main", W, _f(N_("horse"), troop_class="horse"),
                  ARMY, more_than_half()),
        NoneRule("poles.foot_types", W,
                 _f(N_("foot other than heavy or light foot"),
                    troop_class="foot", except_troops=HEAVY_FOOT_TROOPS | LIGHT_FOOT_TROOPS),
                 N_("Foot are heavy or light foot (militia and peasants included)")),
    ),
    "russians": (
        ShareRule("russians.horse_share", E, _f(N_("horse"), troop_class="horse"),
                  ARMY, band("0.10", "0.30")),
        _no_heavy_horse("russians"),
        ShareRule("russians.medium_horse", E,
                  _f(N_("medium horse"), troops=troops("medium_horse")),
                  HORSE, hard("0.75", "1")),
        ShareRule("russians.heavy_foot", E,
                  _f(N_("heavy foot (militia included)"),
                     troops=HEAVY_FOOT_TROOPS),
                  ARMY, band("0.40", "0.60")),
        ShareRule("russians.polearms", W,
                  _f(N_("heavy foot with polearms (militia included)"),
                     troops=HEAVY_FOOT_TROOPS, weapons=troops("polearm")),
                  HEAVY_FOOT, more_than_half(MAJORITY)),
        ShareRule("russians.crossbows", E,
                  _f(N_("light foot with crossbows (peasants included)"),
                     troops=LIGHT_FOOT_TROOPS, weapons=troops("crossbow")),
                  FOOT, band("0.05", "0.15")),
    ),
    "saracens": (
        _light_foot_only("saracens"),
        ShareRule("saracens.archers", W,
                  _f(N_("light foot with bows (peasants included)"),
                     troops=LIGHT_FOOT_TROOPS, weapons=troops("bow")),
                  LIGHT_FOOT, band("0.5", "1", HIGH_SHARE)),
        _no_heavy_horse("saracens"),
        ShareRule("saracens.light_horse", W,
                  _f(N_("light horse"), troops=troops("light_horse")),
                  HORSE, more_than_half(MOSTLY)),
    ),
    "scots": (
        NoneRule("scots.foot_pikes", E,
                 _f(N_("foot without pikes"), troop_class="foot",
                    except_weapons=troops("pike")),
                 N_("Every foot line carries pikes")),
    ),
    "spanish": (
        ShareRule("spanish.knights_medium", W,
                  _f(N_("medium horse among knights"),
                     troops=troops("medium_horse"), knights=True),
                  _f(N_("knights' "), knights=True), more_than_half(MOSTLY)),
        ShareRule("spanish.light_javelins", E,
                  _f(N_("light horse with javelins"),
                     troops=troops("light_horse"), weapons=troops("javelins"), knights=False),
                  _f(N_("horse (not knights) "), troop_class="horse",
                     knights=False),
                  band("0.40", "0.60")),
    ),
}


@dataclass(frozen=True)
class Budget:
    """What adding figures costs: the points left, and the cheapest price per figure of each
    kind of line the army has."""

    left: Fraction | None
    prices: dict[Key, Fraction]

    def cheapest(self, figures: Figures) -> Fraction | None:
        found = [price for key, price in self.prices.items() if figures.matches(key)]
        return min(found) if found else None


def national_checks(nation: str, counts: Tally, historical: bool, fortified: bool,
                    lang: Lang, budget: Budget | None = None) -> list[RuleCheck]:
    checks = []
    for rule in NATIONAL_RULES.get(nation, ()):
        # A non-historical roster still sees every rule, but only as information.
        severity = rule.severity if historical else Severity.info
        check = rule.check(counts, severity, fortified, lang)
        if budget is not None and isinstance(rule, ShareRule):
            check.room = rule.room(counts, budget, lang)
        checks.append(check)
    return checks
