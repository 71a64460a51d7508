"""The army sheet a player takes to the table: what the roster fields, what it costs, and only
the reference rules this roster uses (rules page §7), in English or in the seed's own Russian.

Pure data in, pure data out: the print page, the PDF and the text exports all read an
`ArmySheet`, so what is printed is decided here once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.domain.base import Issue, Lang, Severity, points_text
from app.domain.translations import legality_text, ptr, tr
from app.systems.chainmail.catalogue import (
    ENGINES,
    FLAGS,
    NATIONS,
    TROOPS,
    WEAPONS,
)
from app.systems.chainmail.far_east import CATEGORIES
from app.systems.chainmail.pricing import PricedRoster, price
from app.systems.chainmail.roster import ChainmailRoster, Unit
from app.systems.chainmail.tally import tally
from app.systems.chainmail.validation import validate

# --- the sheet's data --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetLine:
    figures: int
    troop: str
    troop_name: str
    weapon: str
    weapon_name: str  # empty when the line carries no weapon
    cost_per_figure: str
    cost: str

    @property
    def text(self) -> str:
        """'20 × Light Foot, Longbow'."""
        troops = f"{self.figures} × {self.troop_name}"
        return f"{troops}, {self.weapon_name}" if self.weapon_name else troops


@dataclass(frozen=True)
class Rating:
    """A Table 19 melee morale rating for one unit of China, Korea or Japan."""

    label: str
    value: int


@dataclass(frozen=True)
class SheetUnit:
    number: int
    name: str
    lines: tuple[SheetLine, ...]
    figures: int
    cost: str
    mercenary: bool
    flags: tuple[str, ...]
    flag_names: tuple[str, ...]
    note: str
    rating: Rating | None

    @property
    def casualty_boxes(self) -> int:
        """One tick box per figure, to strike off losses during the game."""
        return self.figures


@dataclass(frozen=True)
class SheetEngine:
    kind: str
    name: str
    count: int
    mercenary: bool
    cost: str


@dataclass(frozen=True)
class Thresholds:
    """When the army must test morale for losses (1:1 rules: "если уничтожено 33.3% всей
    армии").

    Losses are whole figures, so the test falls due at the first whole number of losses that
    reaches a third of the army: ceil(figures / 3). Rounding down would call for the test
    before a full third is gone (10 figures: 3 lost is 30 %, 4 lost is 40 %).
    """

    figures: int
    one_third_lost: int
    standing_at_test: int


@dataclass(frozen=True)
class ArmySheet:
    lang: Lang
    name: str
    ruleset_name: str
    nation: str
    nation_name: str
    historical: bool
    fortifications: bool
    note: str
    total: str
    points_limit: int | None
    remaining: str | None
    over_limit: bool
    figures: int
    foot: int
    horse: int
    engine_count: int
    units: tuple[SheetUnit, ...]
    engines: tuple[SheetEngine, ...]
    thresholds: Thresholds
    valid: bool
    legality: str
    issues: tuple[str, ...]
    sections: tuple[Section, ...]
    optional_offered: tuple[tuple[str, str], ...] = field(default=())  # (id, title) to tick

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    @property
    def section_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sections)


from app.systems.chainmail.sheet_text import (  # noqa: E402, F401 - the sheet's public texts
    BAGGAGE,
    COMMANDER,
    DOWNPOUR,
    DRIZZLE,
    FAR_EAST_FOOTNOTES,
    FLAG_SECTIONS,
    FLEMISH,
    KNIGHTS,
    LONGBOW_STAKES,
    MERCENARIES,
    NATION_NOTES,
    NO_CHANGE,
    OPTIONAL,
    PEASANTS,
    RELIGIOUS_ORDER,
    TABLE18,
    TABLE19,
    TABLE19_REF,
    TABLE19_ROWS,
    TO_CLOUDY,
    WEATHER,
    Reference,
    Section,
)


class UnknownSection(ValueError):
    """An optional section id the sheet does not offer."""


# --- building the sheet ------------------------------------------------------------------------


def unit_name(index: int, unit: Unit, lang: Lang) -> str:
    return unit.name or tr(lang, "Unit %(index)s", index=index + 1)


def table19_rating(nation: str, unit: Unit, lang: Lang) -> Rating | None:
    """The unit's Table 19 rating: infantry or cavalry, elite where the table has an elite
    rating, 9 for samurai (flagged, or Japanese armored foot, which Table 18 calls samurai).

    A unit mixing foot and horse, or with no figures, has no one rating: it gets none.
    """
    column = TABLE19.get(nation)
    classes = {TROOPS[line.troop].troop_class for line in unit.lines}
    if column is None or len(classes) != 1:
        return None
    samurai = "samurai" in unit.flags or (
        {line.troop for line in unit.lines} == {"armored_foot"})
    if samurai and column["samurai"] is not None:
        row = "samurai"
    else:
        row = "infantry" if classes == {"foot"} else "cavalry"
        if "elite" in unit.flags and column[f"elite_{row}"] is not None:
            row = f"elite_{row}"
    value = column[row]
    assert value is not None  # the infantry and cavalry rows are filled for every nation
    label = tr(lang, dict(TABLE19_ROWS)[row])
    return Rating(label, value)


def _sheet_unit(index: int, unit: Unit, nation: str, priced: PricedRoster,
                lang: Lang) -> SheetUnit:
    priced_unit = priced.units[index]
    lines = tuple(
        SheetLine(ln.figures, ln.troop, TROOPS[ln.troop].name(lang), ln.weapon,
                  "" if ln.weapon == "none" else WEAPONS[ln.weapon].name(lang),
                  points_text(ln.cost_per_figure, lang), points_text(ln.cost, lang))
        for ln in priced_unit.lines)
    return SheetUnit(
        number=index + 1, name=unit_name(index, unit, lang), lines=lines,
        figures=priced_unit.figures, cost=points_text(priced_unit.cost, lang),
        mercenary=unit.mercenary, flags=tuple(unit.flags),
        flag_names=tuple(FLAGS[f].name(lang) for f in unit.flags), note=unit.note,
        rating=table19_rating(nation, unit, lang))


def thresholds(figures: int) -> Thresholds:
    lost = math.ceil(figures / 3)
    return Thresholds(figures, lost, figures - lost)


def reference_sections(roster: ChainmailRoster, lang: Lang,
                       optional: Iterable[str] = ()) -> list[Section]:
    """Only the reference the roster uses, in the order a player looks things up."""
    names = [unit_name(i, u, lang) for i, u in enumerate(roster.units)]
    sections: list[Section] = []
    for flag, ref in FLAG_SECTIONS:
        with_flag = tuple(n for n, u in zip(names, roster.units, strict=True) if flag in u.flags)
        if with_flag:
            sections.append(ref.in_lang(lang, with_flag))

    mercenaries = tuple(n for n, u in zip(names, roster.units, strict=True) if u.mercenary)
    mercenaries += tuple(ENGINES[e.kind].name(lang) for e in roster.engines if e.mercenary)
    if mercenaries:
        sections.append(MERCENARIES.in_lang(lang, mercenaries))
    peasants = tuple(n for n, u in zip(names, roster.units, strict=True)
                     if any(line.troop == "peasant" for line in u.lines))
    if peasants:
        sections.append(PEASANTS.in_lang(lang, peasants))

    if roster.nation in NATION_NOTES:
        sections.append(NATION_NOTES[roster.nation].in_lang(lang))
    counts = tally(roster)
    footnotes = tuple(text for nation, category, text in FAR_EAST_FOOTNOTES
                      if nation == roster.nation and CATEGORIES[category].count(counts))
    if footnotes:
        sections.append(TABLE18.in_lang(lang, notes=footnotes))
    if roster.nation in TABLE19 and roster.units:
        column = TABLE19[roster.nation]
        rows = tuple((label, str(column[row])) for row, label in TABLE19_ROWS
                     if column[row] is not None)
        sections.append(TABLE19_REF.in_lang(lang, rows=rows))

    wanted = set(optional)
    unknown = wanted - set(OPTIONAL)
    if unknown:
        raise UnknownSection(
            f"unknown section {', '.join(sorted(unknown))}; known: {', '.join(OPTIONAL)}")
    sections += [ref.in_lang(lang) for ref_id, ref in OPTIONAL.items() if ref_id in wanted]
    return sections


def army_sheet(roster: ChainmailRoster, lang: Lang = "en", priced: PricedRoster | None = None,
               issues: list[Issue] | None = None, optional: Iterable[str] = ()) -> ArmySheet:
    """Everything the printed army sheet shows, in one language.

    `priced` and `issues` may be passed when the caller already has them (they must be those
    of this roster); `optional` names the sections the player ticked (`baggage`, `weather`).
    """
    priced = priced or price(roster)
    if issues is None:
        issues = validate(roster, lang, priced)
    remaining = priced.remaining
    return ArmySheet(
        lang=lang,
        name=roster.name,
        ruleset_name=ptr(lang, "ruleset", "Chainmail"),
        nation=roster.nation,
        nation_name=NATIONS[roster.nation].name(lang),
        historical=roster.historical,
        fortifications=roster.fortifications,
        note=roster.note,
        total=points_text(priced.total, lang),
        points_limit=priced.points_limit,
        remaining=None if remaining is None else points_text(remaining, lang),
        over_limit=remaining is not None and remaining < 0,
        figures=priced.figures,
        foot=priced.foot,
        horse=priced.horse,
        engine_count=sum(e.count for e in roster.engines),
        units=tuple(_sheet_unit(i, u, roster.nation, priced, lang)
                    for i, u in enumerate(roster.units)),
        engines=tuple(SheetEngine(e.kind, ENGINES[e.kind].name(lang), e.count, e.mercenary,
                                  points_text(e.cost, lang)) for e in priced.engines),
        thresholds=thresholds(priced.figures),
        valid=not any(i.severity is Severity.error for i in issues),
        legality=legality_text((i.severity for i in issues), lang,
                               empty=any(i.code == "army.empty" for i in issues)),
        issues=tuple(i.message for i in issues if i.severity is not Severity.info),
        sections=tuple(reference_sections(roster, lang, optional)),
        optional_offered=tuple((ref.id, tr(lang, ref.title)) for ref in OPTIONAL.values()),
    )
