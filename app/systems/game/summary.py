"""A game's state as the API and the pages show it: codes and numbers only."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.domain.game_rules import number
from app.systems.game.state import Army, GameState, sides_of


def units_json(setup: dict[str, Any], army: Army, turn: int) -> list[dict[str, Any]]:
    out = []
    for unit, now in zip(setup["units"], army.units, strict=True):
        shown = {**unit, "index": now.index, "lost": now.lost, "left": now.left,
                 "state": now.state}
        if "points" in unit:
            shown["points"] = number(Fraction(unit["points"]))
            shown["strength"] = number(now.strength)
        if "rating" in unit:  # Chainmail: the needed morale total the player gave, if any
            shown["needed"] = now.needed
        if unit.get("mercenary"):
            shown["table16"] = now.mercenary
            shown["obey_until"] = now.obey_until if now.obey_until >= turn else None
        out.append(shown)
    return out


def weather_json(game: GameState) -> dict[str, Any] | None:
    w = game.weather
    if w.column is None:
        return None
    return {"column": w.column, "event": w.event, "mud": w.mud,
            "next_check": game.turn + 2 - game.turn % 2}


def side_json(setup: dict[str, Any], army: Army, turn: int, side: int) -> dict[str, Any]:
    return {"side": side, "name": setup["name"], "units": units_json(setup, army, turn),
            "castle_defenders": army.castle_defenders, "thresholds": army.thresholds(),
            "can_undo": bool(army.undoable)}


def game_json(setup: dict[str, Any], game: GameState) -> dict[str, Any]:
    """The turn and the weather both sides share, and each side's units and thresholds
    (the first side's also at the top, as a game of one side was shown)."""
    sides = [side_json(s, army, game.turn, i)
             for i, (s, army) in enumerate(zip(sides_of(setup), game.sides, strict=True))]
    first = {k: v for k, v in sides[0].items() if k not in ("side", "name")}
    return {"turn": game.turn, "weather": weather_json(game), **first, "sides": sides}


def end_json(setup: dict[str, Any], game: GameState) -> dict[str, Any]:
    """The game's end, to share: the turns played and, for each side, its losses and
    whether it broke (its army past its morale threshold), its units destroyed or routed."""
    sides = []
    for side, army in zip(sides_of(setup), game.sides, strict=True):
        sides.append({"name": side["name"], "thresholds": army.thresholds(),
                      "broke": army.army_state != "steady",
                      "destroyed": sum(u.state == "destroyed" for u in army.units),
                      "routed": sum(u.state == "routs" for u in army.units),
                      "units": len(army.units)})
    return {"turns": game.turn, "sides": sides}
