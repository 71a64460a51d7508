"""The army sheet of a "Formation Density" roster: each unit with the figures a player needs at
the table (density, files, ranks, front-rank strikers, the chance one die hits, extra hits, the
shield wall), its protection and features, and the rules the list breaks.

Pure data in, pure data out: the print page and the text exports read a `FormationSheet`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from app.domain.base import Lang, percent_text, points_text
from app.domain.translations import legality_text, tr
from app.systems.formation_density.catalogue import (
    CLASSES,
    FEATURES,
    LINE_FLAGS,
    PROTECTIONS,
    WEAPONS,
)
from app.systems.formation_density.figures import (
    line_features,
    shield_wall_blocks,
    shield_wall_chance,
    unit_figures,
)
from app.systems.formation_density.roster import FormationDensityRoster, Line, Unit
from app.systems.formation_density.validation import validate

# Reference sections a player may add to the printed sheet.
OPTIONAL: tuple[str, ...] = ("melee", "protection")


def chance_text(value: Fraction, lang: Lang) -> str:
    """'1/3 (33.3 %)'; a chance of nothing is just '0 %'."""
    if not value:
        return "0 %"
    return f"{value.numerator}/{value.denominator} ({percent_text(value, lang)} %)"


@dataclass(frozen=True)
class SheetLine:
    count: int
    text: str  # "20 × Shock troops, Pike"
    kit: str  # protection and mounted, "shield, armour" ("" when none)
    hits: str  # "hits 1/2 (50 %)", or the rule when it depends on the enemy
    in_front: int


@dataclass(frozen=True)
class SheetUnit:
    number: int
    name: str
    points: str | None
    density: int
    files: int
    warriors: int
    ranks: int
    full_ranks: int
    front_rank: int
    extra_hits: int
    shield_wall: str | None  # "1/3 (33.3 %), 1/2 blocked on average"
    features: tuple[str, ...]
    lines: tuple[SheetLine, ...]
    note: str
    casualty_boxes: int


@dataclass(frozen=True)
class SheetSection:
    id: str
    title: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class FormationSheet:
    name: str
    ruleset_name: str
    note: str
    total: str
    priced: bool
    points_limit: int | None
    remaining: str | None
    over_limit: bool
    warriors: int
    units: tuple[SheetUnit, ...]
    issues: tuple[str, ...]
    legality: str
    optional_offered: tuple[tuple[str, str], ...]
    sections: tuple[SheetSection, ...]


def _kit(line: Line, lang: Lang) -> str:
    names = [PROTECTIONS[p].name(lang) for p in ("shield", "armour", "cavalry_armour")
             if getattr(line, p)]
    names += [LINE_FLAGS[f].name(lang) for f in ("mounted", "moved_straight") if getattr(line, f)]
    return ", ".join(n.lower() if lang == "en" else n[0].lower() + n[1:] for n in names)


def _unit(number: int, unit: Unit, lang: Lang) -> SheetUnit:
    figures = unit_figures(unit)
    lines = []
    for line, chance, in_front in zip(unit.lines, figures.hit_chances, figures.front,
                                      strict=True):
        kind = CLASSES[line.line_class].name(lang)
        lines.append(SheetLine(
            line.count, f"{line.count} × {kind}, {WEAPONS[line.weapon].name(lang)}",
            _kit(line, lang),
            tr(lang, "hits %(chance)s", chance=chance_text(chance, lang))
            if chance is not None else tr(lang, "hits on a roll above the enemy's density"),
            in_front))
    shield = None
    if figures.shield_wall:
        blocks = shield_wall_blocks(unit.density)
        shield = tr(lang, "%(density)s, %(blocks)s blocked on average",
                    density=chance_text(shield_wall_chance(unit.density), lang),
                    blocks=points_text(blocks, lang))
    seen = {f for line in unit.lines for f in line_features(line)}
    return SheetUnit(
        number=number, name=unit.name or tr(lang, "Unit %(number)s", number=number),
        points=None if unit.points is None else points_text(Fraction(unit.points), lang),
        density=unit.density, files=unit.files, warriors=figures.warriors,
        ranks=figures.ranks, full_ranks=figures.full_ranks, front_rank=figures.front_rank,
        extra_hits=figures.extra_hits, shield_wall=shield,
        features=tuple(FEATURES[f].name(lang) for f in FEATURES if f in seen),
        lines=tuple(lines), note=unit.note, casualty_boxes=figures.warriors)


def _sections(lang: Lang) -> dict[str, SheetSection]:
    return {
        "melee": SheetSection("melee", tr(lang, "Melee"), (
            tr(lang, "Only warriors of the first rank strike, one die each; warriors who lost "
               "formation do not fight. Strikes are simultaneous: both players roll and remove "
               "losses."),
            tr(lang, "Shock troops hit on a roll below their own density; melee specialists (and "
               "shooters) above their own; shock cavalry above the enemy's density."),
            tr(lang, "Against cavalry half the foot strike riders and half horses (the larger "
               "half at the horses); a hit on either removes the warrior. Between cavalry only "
               "riders are struck."),
            tr(lang, "Losses are removed from the longest rank, starting with the first."),
        )),
        "protection": SheetSection("protection", tr(lang, "Protection"), (
            tr(lang, "Shield wall: one die for the unit; below the density, that many hits are "
               "blocked."),
            tr(lang, "Armour: one die after the hits; below the number of hits, that many are "
               "blocked. Armour-piercing hits ignore armour, not shields."),
        )),
    }


def army_sheet(roster: FormationDensityRoster, lang: Lang = "en",
               optional: Iterable[str] = ()) -> FormationSheet:
    chosen = set(optional)
    unknown = chosen - set(OPTIONAL)
    if unknown:
        raise ValueError(f"unknown section {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(OPTIONAL)}")
    total = roster.total()
    limit = roster.points_limit
    issues = validate(roster, lang)
    sections = _sections(lang)
    return FormationSheet(
        name=roster.name, ruleset_name=tr(lang, "Formation Density"), note=roster.note,
        total=points_text(total, lang), priced=roster.priced(), points_limit=limit,
        remaining=None if limit is None else points_text(limit - total, lang),
        over_limit=limit is not None and total > limit,
        warriors=sum(u.warriors for u in roster.units),
        units=tuple(_unit(i + 1, u, lang) for i, u in enumerate(roster.units)),
        issues=tuple(i.message for i in issues),
        legality=legality_text((i.severity for i in issues), lang),
        optional_offered=tuple((s, sections[s].title) for s in OPTIONAL),
        sections=tuple(sections[s] for s in OPTIONAL if s in chosen),
    )
