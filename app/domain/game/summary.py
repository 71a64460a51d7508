"""A game's state as the API and the pages show it: codes and numbers only."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.domain.game.state import GameState, number


def units_json(setup: dict[str, Any], game: GameState) -> list[dict[str, Any]]:
    out = []
    for unit, now in zip(setup["units"], game.units, strict=True):
        shown = {**unit, "index": now.index, "lost": now.lost, "left": now.left,
                 "state": now.state}
        if "points" in unit:
            shown["points"] = number(Fraction(unit["points"]))
            shown["strength"] = number(now.strength)
        if unit.get("mercenary"):
            shown["table16"] = now.mercenary
            shown["obey_until"] = now.obey_until if now.obey_until >= game.turn else None
        out.append(shown)
    return out


def weather_json(game: GameState) -> dict[str, Any] | None:
    w = game.weather
    if w.column is None:
        return None
    return {"column": w.column, "event": w.event, "mud": w.mud,
            "next_check": game.turn + 2 - game.turn % 2}


def game_json(setup: dict[str, Any], game: GameState) -> dict[str, Any]:
    """The turn, the weather, each unit as it stands and the army's thresholds."""
    return {"turn": game.turn, "weather": weather_json(game), "units": units_json(setup, game),
            "castle_defenders": game.castle_defenders, "thresholds": game.thresholds(),
            "can_undo": bool(game.undoable)}
