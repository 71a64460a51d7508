"""Cost rules (§1–4): per-figure cost = troop + weapon, halved for mercenaries; engines by the
piece. All arithmetic is exact (Fraction); conversion to JSON numbers happens at the edge."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.rules.chainmail.catalogue import ENGINES, TROOPS, WEAPONS
from app.rules.chainmail.roster import ChainmailRoster, EngineOrder, Line, Unit

HALF = Fraction(1, 2)


@dataclass(frozen=True)
class PricedLine:
    troop: str
    figures: int
    weapon: str
    cost_per_figure: Fraction
    cost: Fraction


@dataclass(frozen=True)
class PricedUnit:
    name: str
    mercenary: bool
    flags: tuple[str, ...]
    figures: int
    cost: Fraction
    lines: tuple[PricedLine, ...]


@dataclass(frozen=True)
class PricedEngine:
    kind: str
    count: int
    mercenary: bool
    cost: Fraction


@dataclass(frozen=True)
class PricedRoster:
    total: Fraction
    points_limit: int | None
    figures: int
    foot: int
    horse: int
    units: tuple[PricedUnit, ...]
    engines: tuple[PricedEngine, ...]

    @property
    def remaining(self) -> Fraction | None:
        return None if self.points_limit is None else self.points_limit - self.total


def cost_per_figure(troop: str, weapon: str, mercenary: bool) -> Fraction:
    cost = TROOPS[troop].points + WEAPONS[weapon].points
    return cost * HALF if mercenary else cost


def price_line(line: Line, mercenary: bool) -> PricedLine:
    each = cost_per_figure(line.troop, line.weapon, mercenary)
    return PricedLine(line.troop, line.figures, line.weapon, each, each * line.figures)


def price_unit(unit: Unit) -> PricedUnit:
    lines = tuple(price_line(line, unit.mercenary) for line in unit.lines)
    return PricedUnit(
        name=unit.name,
        mercenary=unit.mercenary,
        flags=tuple(unit.flags),
        figures=sum(line.figures for line in lines),
        cost=sum((line.cost for line in lines), Fraction(0)),
        lines=lines,
    )


def price_engine(engine: EngineOrder) -> PricedEngine:
    each = ENGINES[engine.kind].points
    cost = each * engine.count
    return PricedEngine(engine.kind, engine.count, engine.mercenary,
                        cost * HALF if engine.mercenary else cost)


def price(roster: ChainmailRoster) -> PricedRoster:
    units = tuple(price_unit(unit) for unit in roster.units)
    engines = tuple(price_engine(engine) for engine in roster.engines)
    foot = horse = 0
    for unit in roster.units:
        for line in unit.lines:
            if TROOPS[line.troop].troop_class == "foot":
                foot += line.figures
            else:
                horse += line.figures
    total = sum((u.cost for u in units), Fraction(0)) + sum((e.cost for e in engines), Fraction(0))
    return PricedRoster(total, roster.points_limit, foot + horse, foot, horse, units, engines)
