"""Rosters made for games: a Chainmail army with a mercenary unit and peasants, and a Line
and Square force."""

from __future__ import annotations

from typing import Any


def chainmail_army() -> dict[str, Any]:
    return {"name": "Войско графа", "ruleset": "chainmail", "nation": "generic",
            "units": [
                {"name": "Рыцари", "flags": ["commander"],
                 "lines": [{"troop": "heavy_horse", "figures": 6, "weapon": "lance"}]},
                {"name": "Швейцарцы", "mercenary": True,
                 "lines": [{"troop": "heavy_foot", "figures": 12, "weapon": "pike"}]},
                {"name": "Мужики", "lines": [{"troop": "peasant", "figures": 20}]}],
            "engines": []}


def line_and_square_force() -> dict[str, Any]:
    return {"name": "Бригада", "ruleset": "line_and_square", "points_limit": 30, "units": [
        {"name": "1-й линейный", "class": "line_infantry", "figures": 12, "speed": 6,
         "points": 10, "discipline": 1, "formation": "close_order", "officer": True},
        {"name": "Гусары", "class": "light_cavalry", "figures": 6, "speed": 12,
         "points": 20}]}
