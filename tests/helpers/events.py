"""The armies and the event of the events tests: a club night of Chainmail at 300 points,
Mongols and Poles only, no engines."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any


def _unit(troop: str, weapon: str, figures: int, *flags: str) -> dict[str, Any]:
    return {"name": "", "flags": list(flags),
            "lines": [{"troop": troop, "figures": figures, "weapon": weapon}]}


def event(**changes: Any) -> dict[str, Any]:
    deadline = datetime.now(UTC) + timedelta(days=7)
    return {"name": "Зимний турнир", "date": (deadline + timedelta(days=1)).date().isoformat(),
            "ruleset": "chainmail", "points_limit": 300, "nations": ["mongols", "poles"],
            "historical": True, "deadline": deadline.isoformat(), "no_engines": True,
            **changes}


def mongols(scale: int = 1) -> dict[str, Any]:
    """Legal for the Mongols' rules: 95 points, or 95 × scale."""
    return {"name": "Орда Субэдэя", "ruleset": "chainmail", "nation": "mongols",
            "points_limit": None,
            "units": [_unit("medium_horse", "lance", 5 * scale, "commander"),
                      _unit("light_horse", "lance", 5 * scale),
                      _unit("light_horse", "bow", 10 * scale)]}


def russians() -> dict[str, Any]:
    """Legal for the Russians' rules: 84 points."""
    return {"name": "Дружина", "ruleset": "chainmail", "nation": "russians",
            "units": [_unit("heavy_foot", "polearm", 20, "commander"),
                      _unit("light_foot", "crossbow", 4), _unit("light_foot", "polearm", 10),
                      _unit("medium_horse", "lance", 6)]}


def poles_with_engine() -> dict[str, Any]:
    """Legal for the Poles' rules, with a light catapult: 166.5 points."""
    return {"name": "Хоругвь", "ruleset": "chainmail", "nation": "poles",
            "units": [_unit("medium_horse", "lance", 30, "commander"),
                      _unit("light_horse", "crossbow", 1), _unit("light_horse", "javelins", 9)],
            "engines": [{"kind": "light_catapult", "count": 1}]}
