"""Cost rules (§1–4): per-figure cost = troop + weapon, halved for mercenaries; engines by the
piece.

All arithmetic is exact. Every price in Tables 25–26 is a multiple of a quarter point, so a
mercenary's half price is a multiple of an eighth: costs are summed as whole eighths of a point
(integers, far cheaper than Fractions on a 500-unit roster) and offered as Fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.systems.chainmail.catalogue import ENGINES, TROOPS, WEAPONS
from app.systems.chainmail.roster import ChainmailRoster, EngineOrder, Line, Unit

EIGHTHS = 8


def _in_eighths(points: Fraction) -> int:
    eighths = points * EIGHTHS
    if eighths.denominator != 1:
        # A catalogue price off the 1/8 grid would make the integer sums below inexact.
        raise ValueError(f"{points} is not a whole number of eighths of a point")
    return int(eighths)


def _halved(eighths: int, mercenary: bool) -> int:
    if not mercenary:
        return eighths
    if eighths % 2:
        raise ValueError(f"half of {eighths}/8 is not a whole number of eighths")
    return eighths // 2


# (troop, weapon, mercenary) -> cost of one figure in eighths, worked out once from the tables.
FIGURE_EIGHTHS: dict[tuple[str, str, bool], int] = {
    (troop, weapon, mercenary): _halved(
        _in_eighths(TROOPS[troop].points + WEAPONS[weapon].points), mercenary)
    for troop in TROOPS for weapon in WEAPONS for mercenary in (False, True)
}
ENGINE_EIGHTHS: dict[tuple[str, bool], int] = {
    (kind, mercenary): _halved(_in_eighths(engine.points), mercenary)
    for kind, engine in ENGINES.items() for mercenary in (False, True)
}


def _points(eighths: int) -> Fraction:
    return Fraction(eighths, EIGHTHS)


# The priced parts are built anew for every unit of every evaluation and never changed after:
# not frozen, because a frozen dataclass sets each field through object.__setattr__, which
# makes building them four times as slow, a fifth of a roster's judging.
@dataclass(slots=True)
class PricedLine:
    troop: str
    figures: int
    weapon: str
    each_eighths: int
    cost_eighths: int

    @property
    def cost_per_figure(self) -> Fraction:
        return _points(self.each_eighths)

    @property
    def cost(self) -> Fraction:
        return _points(self.cost_eighths)


@dataclass(slots=True)
class PricedUnit:
    name: str
    mercenary: bool
    flags: tuple[str, ...]
    figures: int
    cost_eighths: int
    lines: tuple[PricedLine, ...]

    @property
    def cost(self) -> Fraction:
        return _points(self.cost_eighths)


@dataclass(slots=True)
class PricedEngine:
    kind: str
    count: int
    mercenary: bool
    cost_eighths: int

    @property
    def cost(self) -> Fraction:
        return _points(self.cost_eighths)


@dataclass(slots=True)
class PricedRoster:
    total_eighths: int
    points_limit: int | None
    figures: int
    foot: int
    horse: int
    units: tuple[PricedUnit, ...]
    engines: tuple[PricedEngine, ...]

    @property
    def total(self) -> Fraction:
        return _points(self.total_eighths)

    @property
    def remaining_eighths(self) -> int | None:
        if self.points_limit is None:
            return None
        return self.points_limit * EIGHTHS - self.total_eighths

    @property
    def remaining(self) -> Fraction | None:
        left = self.remaining_eighths
        return None if left is None else _points(left)


def cost_per_figure(troop: str, weapon: str, mercenary: bool) -> Fraction:
    return _points(FIGURE_EIGHTHS[(troop, weapon, mercenary)])


def price_line(line: Line, mercenary: bool) -> PricedLine:
    each = FIGURE_EIGHTHS[(line.troop, line.weapon, mercenary)]
    return PricedLine(line.troop, line.figures, line.weapon, each, each * line.figures)


def price_unit(unit: Unit) -> PricedUnit:
    # Loops rather than generators and sums: this runs for every unit of every change.
    lines = tuple([price_line(line, unit.mercenary) for line in unit.lines])
    figures = cost = 0
    for line in lines:
        figures += line.figures
        cost += line.cost_eighths
    return PricedUnit(unit.name, unit.mercenary, tuple(unit.flags), figures, cost, lines)


def price_engine(engine: EngineOrder) -> PricedEngine:
    each = ENGINE_EIGHTHS[(engine.kind, engine.mercenary)]
    return PricedEngine(engine.kind, engine.count, engine.mercenary, each * engine.count)


def price(roster: ChainmailRoster) -> PricedRoster:
    units = tuple([price_unit(unit) for unit in roster.units])
    engines = tuple([price_engine(engine) for engine in roster.engines])
    foot = horse = total = 0
    for unit in units:
        total += unit.cost_eighths
        for line in unit.lines:
            if TROOPS[line.troop].troop_class == "foot":
                foot += line.figures
            else:
                horse += line.figures
    for engine in engines:
        total += engine.cost_eighths
    return PricedRoster(total, roster.points_limit, foot + horse, foot, horse, units, engines)
