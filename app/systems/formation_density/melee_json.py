"""The melee calculator's answer as JSON: exact fractions as "n/d" strings beside floats."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from app.domain.base import Lang
from app.systems.formation_density.dice import Dist
from app.systems.formation_density.figures import exact, fraction_text, unit_json
from app.systems.formation_density.melee import Exchange, SideResult
from app.systems.formation_density.validation import unit_problems

Source = tuple[str, int] | None


def stat(dist: Dist) -> dict[str, Any]:
    mean = dist.mean()
    return {
        "expectation": fraction_text(mean),
        "expectation_float": float(mean),
        "distribution": [{"value": v, "probability": fraction_text(p),
                          "probability_float": float(p)} for v, p in dist.fractions()],
    }


def _side(side: SideResult, source: Source, lang: Lang) -> dict[str, Any]:
    unit = side.fighter.unit
    index = source[1] if source else 0
    issues = [replace(c.issue, unit=index if source else None)
              for c in unit_problems(index, unit, lang)]
    parrying = side.parrying
    return {
        "unit": unit_json(unit),
        "source": {"roster": source[0], "unit": source[1]} if source else None,
        "strikes_first": side.strikes_first,
        "hits": stat(side.hits),
        "blocked": stat(side.blocked),
        "lost": stat(side.lost),
        "hits_received": exact(side.received),
        "hits_received_by_target": {t: exact(v) for t, v in side.received_by_target.items()},
        "armour_piercing_received": exact(side.received_piercing),
        "blocked_by_shield_wall": exact(side.blocked_by_shield_wall),
        "blocked_by_armour": exact(side.blocked_by_armour),
        "parrying": {"parries": stat(parrying.parries), "lost": stat(parrying.lost),
                     "enemy_lost": stat(parrying.enemy_lost)} if parrying else None,
        "issues": [i.as_json() for i in issues],
    }


def melee_json(result: Exchange, lang: Lang = "en",
               sources: tuple[Source, Source] = (None, None)) -> dict[str, Any]:
    return {"a": _side(result.a, sources[0], lang), "b": _side(result.b, sources[1], lang)}


def percent(value: Fraction) -> float:
    return float(value) * 100
