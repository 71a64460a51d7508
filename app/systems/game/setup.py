"""A game's setup: the army as it stood when the game began, as plain JSON.

Taken once from a roster version and kept with the game, so that later changes to the roster
(or its deletion) change nothing in a game already played.
"""

from __future__ import annotations

from typing import Any

from app.systems import SYSTEMS

WEATHER_CHOICES = ("rolled", "clear", "cloudy", "rain", "off")


def setup_of(document: Any, weather: str = "rolled",
             castle_defenders: bool = False) -> dict[str, Any]:
    """The setup of a game of this roster document (its system's `GameRules.setup`);
    ValueError for a rule system the companion does not play."""
    system = SYSTEMS.get(str(getattr(document, "ruleset", "")))
    if system is None or system.game is None:
        raise ValueError(f"no game companion for {getattr(document, 'ruleset', '?')}")
    return system.game.setup(document, weather, castle_defenders)
