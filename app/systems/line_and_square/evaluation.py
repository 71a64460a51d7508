"""A Line and Square roster priced and judged: the JSON result and the checks the rules
panel lists (the army sheet reads it too)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.domain.base import Lang, points_json
from app.domain.system import Evaluation
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.actions import allowed_actions
from app.systems.line_and_square.break_points import BreakPoints, break_points
from app.systems.line_and_square.orders import unit_chances
from app.systems.line_and_square.roster import LineAndSquareRoster, Unit
from app.systems.line_and_square.square import square_rules
from app.systems.line_and_square.validation import assess, points_limit


def unit_json(unit: Unit) -> dict[str, Any]:
    kind = cat.CLASSES[unit.unit_class]
    return {
        "name": unit.name, "class": unit.unit_class, "figures": unit.figures,
        "speed": unit.speed, "accuracy": unit.accuracy, "discipline": unit.discipline,
        "points": points_json(Fraction(unit.points)), "officer": unit.officer,
        "formation": unit.formation, "may_form_square": kind.square,
        "actions": allowed_actions(unit.unit_class, unit.formation, unit.accuracy),
        "order_test": unit_chances(unit.discipline, unit.formation, unit.officer),
    }


def break_points_json(points: BreakPoints, lang: Lang) -> dict[str, Any]:
    return {"starting": points_json(points.starting), "half": points.half,
            "three_quarters": points.three_quarters,
            "morale_below": points_json(points.morale_below),
            "flight_below": points_json(points.flight_below),
            "morale_text": points.morale_text(lang), "flight_text": points.flight_text(lang)}


def evaluate(roster: LineAndSquareRoster, lang: Lang = "en") -> Evaluation:
    total = roster.total()
    limit = points_limit(roster)
    checks = assess(roster, lang)
    issues = [c.issue for c in checks if not c.holds]
    squares = any(cat.CLASSES[u.unit_class].square for u in roster.units)
    result = {
        "total": points_json(total),
        "points_limit": limit,
        "points_limit_source": "default" if roster.points_limit is None else "roster",
        "remaining": points_json(limit - total),
        "figures": sum(u.figures for u in roster.units),
        "officers": sum(1 for u in roster.units if u.officer),
        "units": [unit_json(u) for u in roster.units],
        "break_points": break_points_json(break_points(total), lang),
        "square_rules": square_rules(lang) if squares else [],
        "issues": [i.as_json() for i in issues],
        "valid": not any(i.severity.value == "error" for i in issues),
    }
    return Evaluation(result, checks)
