"""Roster documents for storage tests (the pricing itself is tested in tests/unit)."""

from __future__ import annotations

from typing import Any


def army(name: str = "Орда Субэдэя", *, figures: int = 10, points_limit: int | None = 300,
         nation: str = "mongols") -> dict[str, Any]:
    # With the ids the server gives every unit and line, so what is sent is what is stored.
    return {
        "name": name, "ruleset": "chainmail", "nation": nation, "points_limit": points_limit,
        "historical": True, "fortifications": False, "note": "",
        "units": [{"id": "u1", "name": "Кешиг", "mercenary": False, "flags": ["commander"],
                   "note": "", "lines": [{"id": "l1", "troop": "medium_horse",
                                          "figures": figures, "weapon": "lance"}]}],
        "engines": [],
    }
