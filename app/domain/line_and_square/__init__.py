""""Line and Square" (Линия и каре): the black-powder rules of seed 002 — catalogue, points
the player enters, validation, order-test chances and break points."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.domain.base import Lang, points_json
from app.domain.catalogue_entries import named
from app.domain.line_and_square import catalogue as cat
from app.domain.line_and_square import edits
from app.domain.line_and_square.actions import allowed_actions
from app.domain.line_and_square.break_points import BreakPoints, break_points
from app.domain.line_and_square.orders import OrderTest, chance_json, unit_chances
from app.domain.line_and_square.result import LineAndSquareResult
from app.domain.line_and_square.roster import LineAndSquareRoster, Unit
from app.domain.line_and_square.square import square_rules
from app.domain.line_and_square.validation import assess, points_limit, validate
from app.domain.system import Evaluation, RuleSystem


def catalogue_json() -> dict[str, Any]:
    return {
        "id": cat.RULESET_ID,
        "name_ru": LINE_AND_SQUARE.name_ru,
        "name_en": LINE_AND_SQUARE.name_en,
        "version": cat.RULESET_VERSION,
        "classes": [named(c, kind=c.kind, shoot=c.shoot, skirmish=c.skirmish,
                          close_order=c.close_order, square=c.square,
                          march_column=c.march_column, attack=c.attack, volley=c.volley,
                          move=True, rally=True, formations=list(c.formations))
                    for c in cat.CLASSES.values()],
        "formations": [named(f, order_test_bonus=f.order_test_bonus)
                       for f in cat.FORMATIONS.values()],
        "actions": [named(a) for a in cat.ACTIONS.values()],
        "limits": {
            "figures": {"min": cat.MIN_FIGURES, "max": cat.MAX_FIGURES},
            "speed": {"min": cat.MIN_SPEED, "max": cat.MAX_SPEED},
            "accuracy": {"min": cat.MIN_ACCURACY, "max": cat.MAX_ACCURACY, "nullable": True},
            "discipline": {"min": cat.MIN_DISCIPLINE, "max": cat.MAX_DISCIPLINE},
            "points": {"min": cat.MIN_POINTS, "max": cat.MAX_POINTS, "step": cat.POINTS_STEP},
            "default_points_limit": cat.DEFAULT_POINTS_LIMIT,
            "square_min_figures": cat.SQUARE_MIN_FIGURES,
        },
        "order_test": {
            "dice": "2d6", "target": cat.ORDER_TEST_TARGET, "always_fails": [1, 1],
            "always_passes": [6, 6], "officer_in_reach_bonus": cat.OFFICER_BONUS,
            "disorder_marker_penalty": cat.DISORDER_PENALTY,
            "max_disorder": cat.MAX_DISORDER,
        },
    }


def unit_json(unit: Unit) -> dict[str, Any]:
    kind = cat.CLASSES[unit.unit_class]
    return {
        "name": unit.name, "class": unit.unit_class, "figures": unit.figures,
        "speed": unit.speed, "accuracy": unit.accuracy, "discipline": unit.discipline,
        "points": points_json(Fraction(unit.points)), "officer": unit.officer,
        "formation": unit.formation, "may_form_square": kind.square,
        "actions": allowed_actions(unit.unit_class, unit.formation, unit.accuracy),
        "order_test": unit_chances(unit.discipline, unit.formation),
    }


def break_points_json(points: BreakPoints, lang: Lang) -> dict[str, Any]:
    return {"starting": points_json(points.starting), "half": points.half,
            "three_quarters": points.three_quarters, "morale_below": points.morale_below,
            "flight_below": points.flight_below, "morale_text": points.morale_text(lang),
            "flight_text": points.flight_text(lang)}


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


LINE_AND_SQUARE = RuleSystem(
    id=cat.RULESET_ID,
    title=cat.NAME,
    version=cat.RULESET_VERSION,
    roster_model=LineAndSquareRoster,
    result_model=LineAndSquareResult,
    catalogue=catalogue_json,
    evaluate=evaluate,
    entries={"classes": cat.CLASSES, "formations": cat.FORMATIONS, "actions": cat.ACTIONS},
    edits=edits.EDITS,
)

__all__ = ["LINE_AND_SQUARE", "LineAndSquareRoster", "OrderTest", "allowed_actions", "assess",
           "break_points", "chance_json", "evaluate", "validate"]
