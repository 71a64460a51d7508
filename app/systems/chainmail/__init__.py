"""Chainmail (Gygax & Perren): catalogue, pricing and validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.domain.base import Lang, points_json
from app.domain.catalogue_entries import named
from app.domain.system import Evaluation, RuleSystem
from app.systems.chainmail import catalogue as cat
from app.systems.chainmail import editor, edits, game, text
from app.systems.chainmail.calculators import CALCULATORS
from app.systems.chainmail.pricing import EIGHTHS, PricedRoster, price
from app.systems.chainmail.result import ChainmailResult
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.chainmail.sheet import ArmySheet, army_sheet
from app.systems.chainmail.standing import preset_standing
from app.systems.chainmail.validation import assess, validate


def catalogue_json() -> dict[str, Any]:
    return {
        "id": cat.RULESET_ID,
        "name_ru": CHAINMAIL.name_ru,
        "name_en": CHAINMAIL.name_en,
        "version": cat.RULESET_VERSION,
        "troop_types": [named(t, troop_class=t.troop_class, points=points_json(t.points),
                              fights_as=t.fights_as) for t in cat.TROOPS.values()],
        "weapons": [named(w, points=points_json(w.points), allowed_on=sorted(w.allowed_on))
                    for w in cat.WEAPONS.values()],
        "engines": [named(e, points=points_json(e.points)) for e in cat.ENGINES.values()],
        "nations": [named(n) for n in cat.NATIONS.values()],
        "unit_flags": [named(f, description_ru=f.text("ru", f.description),
                             description_en=f.text("en", f.description))
                       for f in cat.FLAGS.values()],
        "presets": [named(p, troop=p.troop, weapon=p.weapon, figures=p.figures,
                          flags=list(p.flags), nations=list(p.nations),
                          standing=preset_standing(p)) for p in cat.PRESETS.values()],
    }


def _points(eighths: int) -> int | float:
    """Whole eighths of a point as a JSON number (an eighth is exact in binary)."""
    return eighths // EIGHTHS if eighths % EIGHTHS == 0 else eighths / EIGHTHS


def result_json(priced: PricedRoster, evaluation_issues: list[Any]) -> dict[str, Any]:
    remaining = priced.remaining_eighths
    return {
        "total": _points(priced.total_eighths),
        "points_limit": priced.points_limit,
        "remaining": None if remaining is None else _points(remaining),
        "figures": priced.figures,
        "foot": priced.foot,
        "horse": priced.horse,
        "units": [
            {"name": u.name, "mercenary": u.mercenary, "flags": list(u.flags),
             "figures": u.figures, "cost": _points(u.cost_eighths),
             "lines": [{"troop": ln.troop, "figures": ln.figures, "weapon": ln.weapon,
                        "cost_per_figure": _points(ln.each_eighths),
                        "cost": _points(ln.cost_eighths)} for ln in u.lines]}
            for u in priced.units
        ],
        "engines": [{"kind": e.kind, "count": e.count, "mercenary": e.mercenary,
                     "cost": _points(e.cost_eighths)} for e in priced.engines],
        "issues": [i.as_json() for i in evaluation_issues],
        "valid": not any(i.severity.value == "error" for i in evaluation_issues),
    }


def evaluate(roster: ChainmailRoster, lang: Lang = "en") -> Evaluation:
    priced = price(roster)
    checks = assess(roster, lang, priced)
    issues = [c.issue for c in checks if not c.holds]
    return Evaluation(result_json(priced, issues), checks)


CHAINMAIL = RuleSystem(
    id=cat.RULESET_ID,
    title=cat.NAME,
    version=cat.RULESET_VERSION,
    roster_model=ChainmailRoster,
    result_model=ChainmailResult,
    catalogue=catalogue_json,
    evaluate=evaluate,
    entries={"troop_types": cat.TROOPS, "weapons": cat.WEAPONS, "engines": cat.ENGINES,
             "nations": cat.NATIONS, "unit_flags": cat.FLAGS, "presets": cat.PRESETS},
    edit=edits.ChainmailEdit,
    editor=editor,
    writers=text,
    templates=Path(__file__).parent / "templates",
    game=game,
    suggest=edits.suggested,
    calculators=CALCULATORS,
)

__all__ = ["CHAINMAIL", "ArmySheet", "ChainmailRoster", "army_sheet", "assess", "evaluate", "price",
           "validate"]
