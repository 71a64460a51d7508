"""The derived figures of §4 for one unit: ranks, full ranks, front-rank strikers, the chance
one die hits, extra hits from pikes or spears, the shield-wall chance, and its features."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.systems.formation_density.catalogue import CLASSES, DIE, FEATURES, WEAPONS
from app.systems.formation_density.formation import Ranks
from app.systems.formation_density.roster import Line, Unit


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def exact(value: Fraction) -> dict[str, Any]:
    """An exact number for JSON: the fraction as "n/d" and its float."""
    return {"exact": fraction_text(value), "float": float(value)}


def own_hit_chance(line: Line, density: int) -> Fraction | None:
    """The chance one die of this line hits, or None when it depends on the enemy."""
    rule = CLASSES[line.line_class].hits
    if rule == "below_own":
        return Fraction(density - 1, DIE)
    if rule == "above_own":
        return Fraction(DIE - density, DIE)
    return None


def shield_wall_chance(density: int) -> Fraction:
    """The chance the shield wall blocks anything: a roll below the density."""
    return Fraction(density - 1, DIE)


def shield_wall_blocks(density: int) -> Fraction:
    """Hits the shield wall blocks on average when enough hits land: (1 + … + d−1) / 6."""
    return Fraction(density * (density - 1) // 2, DIE)


def line_features(line: Line) -> list[str]:
    features = list(WEAPONS[line.weapon].features)
    if line.mounted and line.moved_straight:
        features.append("horse_strike")
    return features


@dataclass(frozen=True)
class UnitFigures:
    warriors: int
    ranks: int
    full_ranks: int
    front_rank: int
    front: tuple[int, ...]
    extra_hits: int
    cavalry: bool
    shield_wall: bool
    armour: bool
    cavalry_armour: bool
    hit_chances: tuple[Fraction | None, ...]
    features: tuple[str, ...]


def unit_figures(unit: Unit) -> UnitFigures:
    ranks = Ranks(unit.lines, unit.files)
    seen: dict[str, None] = {}
    for line in unit.lines:
        for feature in line_features(line):
            seen.setdefault(feature, None)
    return UnitFigures(
        warriors=ranks.warriors,
        ranks=ranks.ranks,
        full_ranks=ranks.full_ranks,
        front_rank=min(unit.files, ranks.warriors),
        front=ranks.front(),
        extra_hits=ranks.extra_hits(),
        cavalry=all(line.mounted for line in unit.lines),
        shield_wall=all(line.shield for line in unit.lines),
        armour=all(line.armour for line in unit.lines),
        cavalry_armour=all(line.cavalry_armour for line in unit.lines),
        hit_chances=tuple(own_hit_chance(line, unit.density) for line in unit.lines),
        features=tuple(f for f in FEATURES if f in seen),
    )


def unit_json(unit: Unit) -> dict[str, Any]:
    """A unit with its derived figures, as the priced result and the calculator give it."""
    figures = unit_figures(unit)
    points = unit.points
    return {
        "name": unit.name,
        "points": None if points is None else (int(points) if points.is_integer() else points),
        "density": unit.density,
        "files": unit.files,
        "warriors": figures.warriors,
        "ranks": figures.ranks,
        "full_ranks": figures.full_ranks,
        "front_rank": figures.front_rank,
        "extra_hits": figures.extra_hits,
        "cavalry": figures.cavalry,
        "shield_wall": {"chance": exact(shield_wall_chance(unit.density)),
                        "expected_blocks": exact(shield_wall_blocks(unit.density))}
        if figures.shield_wall else None,
        "armour": figures.armour,
        "cavalry_armour": figures.cavalry_armour,
        "features": list(figures.features),
        "lines": [
            {"class": line.line_class, "weapon": line.weapon, "count": line.count,
             "in_front_rank": in_front,
             "hit_chance": None if chance is None else exact(chance),
             "hit_rule": CLASSES[line.line_class].hits,
             "features": line_features(line)}
            for line, in_front, chance in zip(unit.lines, figures.front, figures.hit_chances,
                                              strict=True)
        ],
    }
