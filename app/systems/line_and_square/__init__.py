""""Line and Square" (Линия и каре): the black-powder rules of seed 002 — catalogue, points
the player enters, validation, order-test chances and break points."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.domain.base import Lang
from app.domain.catalogue_entries import named
from app.domain.system import RuleSystem
from app.domain.translations import tr
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square import editor, edits, game, text
from app.systems.line_and_square.actions import allowed_actions
from app.systems.line_and_square.break_points import break_points
from app.systems.line_and_square.calculators import CALCULATORS
from app.systems.line_and_square.evaluation import evaluate
from app.systems.line_and_square.orders import OrderTest, chance_json
from app.systems.line_and_square.result import LineAndSquareResult
from app.systems.line_and_square.roster import LineAndSquareRoster
from app.systems.line_and_square.square import square_rules
from app.systems.line_and_square.validation import RULE_TITLES, assess, validate


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


def rules_page(lang: Lang) -> dict[str, Any]:
    """What its rules page (`/rules/line_and_square`) shows beyond the catalogue."""
    return {"names": LINE_AND_SQUARE.names(lang), "catalogue": catalogue_json(),
            "square_rules": square_rules(lang),
            "rule_titles": {code: tr(lang, title) for code, title in RULE_TITLES.items()}}


LINE_AND_SQUARE = RuleSystem(
    id=cat.RULESET_ID,
    title=cat.NAME,
    version=cat.RULESET_VERSION,
    roster_model=LineAndSquareRoster,
    result_model=LineAndSquareResult,
    catalogue=catalogue_json,
    evaluate=evaluate,
    entries={"classes": cat.CLASSES, "formations": cat.FORMATIONS, "actions": cat.ACTIONS},
    edit=edits.LineAndSquareEdit,
    editor=editor,
    writers=text,
    templates=Path(__file__).parent / "templates",
    game=game,
    calculators=CALCULATORS,
    rules_page=rules_page,
)

__all__ = ["LINE_AND_SQUARE", "LineAndSquareRoster", "OrderTest", "allowed_actions", "assess",
           "break_points", "chance_json", "evaluate", "validate"]
