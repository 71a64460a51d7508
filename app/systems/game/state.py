"""A game's state, replayed from its setup and its log.

Nothing but the log is stored about what happened: the turn, the weather, each mercenary
unit's standing, the casualties and the army's thresholds are all worked out here again, so
the log is the one record and cannot disagree with what the page shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from app.domain.game_rules import GameRules
from app.systems import SYSTEMS
from app.systems.game.tables import MERCENARY_LOST

Entry = dict[str, Any]


@dataclass
class UnitState:
    index: int
    figures: int
    lost: int = 0
    points: Fraction | None = None  # Line and Square: the unit's points
    mercenary: str | None = None  # Chainmail mercenaries: Table 16's last result
    obey_until: int = 0  # the last turn of "obey for the next 3 turns"
    # The last test's outcome: "halted" (for the turn), "falls_back" (this turn), "routs".
    outcome: str | None = None
    needed: int | None = None  # Chainmail morale: the total the player's morale table asks
    in_melee: bool = False  # Chainmail mercenaries: marked in melee, no Table 16 roll

    @property
    def left(self) -> int:
        return self.figures - self.lost

    @property
    def state(self) -> str:
        if self.left == 0:
            return "destroyed"
        if self.mercenary in MERCENARY_LOST:
            return self.mercenary
        if self.in_melee and self.outcome is None:
            return "in_melee"
        return self.outcome or "steady"

    @property
    def strength(self) -> Fraction:
        """Line and Square: the points the unit still counts for, in proportion to its
        figures left (the seed's "сила отряда по очкам")."""
        return (self.points or Fraction(0)) * self.left / self.figures


@dataclass
class Weather:
    column: str | None = None  # None: the game plays without weather
    last_downpour: bool = False
    mud: bool = False
    event: str | None = None  # the last check's event: heat_wave, drizzle, downpour


@dataclass
class Army:
    """One side of a game: its units and thresholds, and its own casualties to undo."""

    ruleset: str
    units: list[UnitState] = field(default_factory=list)
    undoable: list[int] = field(default_factory=list)  # casualty entries' seq, last on top
    castle_defenders: bool = False  # Chainmail: the army holds a castle, no check for losses

    @property
    def figures(self) -> int:
        return sum(u.figures for u in self.units)

    @property
    def lost(self) -> int:
        return sum(u.lost for u in self.units)

    @property
    def rules(self) -> GameRules:
        rules = SYSTEMS[self.ruleset].game
        assert rules is not None, "a game is only ever set up for a system that plays"
        return rules

    @property
    def strength(self) -> Fraction:
        return sum((u.strength for u in self.units), Fraction(0))

    @property
    def army_state(self) -> str:
        """"steady", or what its losses make it (the system's rules: Chainmail's morale
        check, Line and Square's break points)."""
        return self.rules.army_state(self)

    def thresholds(self) -> dict[str, Any]:
        return self.rules.thresholds(self)


@dataclass
class GameState:
    """The battle: what both sides share (the turn, the weather, the log's length) and each
    side's army, in the order they joined."""

    ruleset: str
    sides: list[Army] = field(default_factory=list)
    turn: int = 0
    weather: Weather = field(default_factory=Weather)
    entries: int = 0


def sides_of(setup: dict[str, Any]) -> list[dict[str, Any]]:
    """A game's setup holds its sides' setups; one army's setup is a game of that side alone
    (and every game stored before a second side could join)."""
    return setup.get("sides") or [setup]


def apply(game: GameState, entry: Entry) -> None:
    kind = entry["kind"]
    if kind == "turn":
        game.turn = entry["turn"]
        for unit in (u for army in game.sides for u in army.units if u.outcome != "routs"):
            unit.outcome = None  # a halt or a fall-back lasts the turn it was rolled in
    elif entry.get("table") == "20":
        weather = game.weather
        weather.column, weather.mud = entry["weather"], entry.get("mud", False)
        weather.last_downpour = entry.get("event") == "downpour"
        weather.event = entry.get("event")
    else:
        _apply_side(game.sides[entry.get("side", 0)], entry)


def _apply_side(army: Army, entry: Entry) -> None:
    # Entries logged before games had two sides name none: they are the first side's.
    kind = entry["kind"]
    if kind in ("casualty", "undo"):
        army.units[entry["unit"]].lost = entry["lost"]
        if kind == "casualty":
            army.undoable.append(entry["seq"])
        else:
            army.undoable.pop()
    elif kind == "test" and entry.get("test") == "melee":
        army.units[entry["unit"]].in_melee = entry["in_melee"]
    elif kind == "test":
        army.units[entry["unit"]].outcome = entry.get("outcome")
    elif kind == "needed":
        army.units[entry["unit"]].needed = entry["needed"]
    elif entry.get("table") == "16":
        unit = army.units[entry["unit"]]
        unit.mercenary = entry["result"]
        unit.obey_until = entry.get("obey_until", unit.obey_until)


def _army(setup: dict[str, Any]) -> Army:
    army = Army(setup["ruleset"], castle_defenders=bool(setup.get("castle_defenders")))
    for index, unit in enumerate(setup["units"]):
        points = Fraction(unit["points"]) if "points" in unit else None
        army.units.append(UnitState(index, unit["figures"], points=points))
    return army


def replay(setup: dict[str, Any], log: list[Entry]) -> GameState:
    """The state after every entry of the log, in order."""
    game = GameState(setup["ruleset"], [_army(side) for side in sides_of(setup)])
    for entry in log:
        apply(game, entry)
    game.entries = len(log)
    return game
