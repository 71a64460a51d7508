"""A game's setup: the army as it stood when the game began, as plain JSON.

Taken once from a roster version and kept with the game, so that later changes to the roster
(or its deletion) change nothing in a game already played.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.systems.chainmail.catalogue import TROOPS
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.chainmail.sheet import table19_rating
from app.systems.line_and_square.roster import LineAndSquareRoster

SYSTEMS = ("chainmail", "line_and_square")
WEATHER_CHOICES = ("rolled", "clear", "cloudy", "rain", "off")


def _chainmail_unit(nation: str, unit: Any) -> dict[str, Any]:
    rating = table19_rating(nation, unit, "en")
    troops = {line.troop for line in unit.lines}
    return {"name": unit.name, "figures": sum(line.figures for line in unit.lines),
            "mercenary": unit.mercenary, "peasants": troops == {"peasant"},
            "troops": sorted(troops), "horse": {TROOPS[t].troop_class for t in troops}
            == {"horse"}, "flags": sorted(unit.flags),
            "rating": rating.value if rating else None}


def _line_and_square_unit(unit: Any) -> dict[str, Any]:
    return {"name": unit.name, "figures": unit.figures, "class": unit.unit_class,
            "points": str(Fraction(unit.points)), "discipline": unit.discipline,
            "officer": unit.officer, "formation": unit.formation}


def setup_of(document: Any, weather: str = "rolled",
             castle_defenders: bool = False) -> dict[str, Any]:
    """The setup of a game of this roster document; ValueError for a rule system the
    companion does not play. Units with no figures (engines aside) take no part.
    `castle_defenders`: Chainmail, the army holds a castle («Вообще, защитникам замка не
    нужно проверять мораль»); games stored before it was asked have no such key: not."""
    if isinstance(document, ChainmailRoster):
        units = [_chainmail_unit(document.nation, u) for u in document.units]
        return {"ruleset": "chainmail", "name": document.name, "nation": document.nation,
                "weather": weather, "castle_defenders": castle_defenders,
                "units": [u for u in units if u["figures"]]}
    if isinstance(document, LineAndSquareRoster):
        return {"ruleset": "line_and_square", "name": document.name, "weather": "off",
                "units": [_line_and_square_unit(u) for u in document.units]}
    raise ValueError(f"no game companion for {getattr(document, 'ruleset', '?')}")
