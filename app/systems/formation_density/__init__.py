""""Formation Density" (Плотность строя): the melee rules of seed 001 — catalogue, points the
player enters, validation, derived figures per unit and the exact melee calculator."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.domain.base import Lang, points_json
from app.domain.catalogue_entries import named
from app.domain.system import Evaluation, RuleSystem
from app.domain.translations import tr
from app.systems.formation_density import catalogue as cat
from app.systems.formation_density import editor, edits, text
from app.systems.formation_density.calculators import CALCULATORS
from app.systems.formation_density.figures import unit_json
from app.systems.formation_density.melee import Exchange, exchange
from app.systems.formation_density.melee_json import melee_json
from app.systems.formation_density.result import FormationDensityResult, MeleeResult
from app.systems.formation_density.roster import FormationDensityRoster, Line, Unit
from app.systems.formation_density.validation import RULE_TITLES, assess, unit_problems, validate


def catalogue_json() -> dict[str, Any]:
    return {
        "id": cat.RULESET_ID,
        "name_ru": FORMATION_DENSITY.name_ru,
        "name_en": FORMATION_DENSITY.name_en,
        "version": cat.RULESET_VERSION,
        "classes": [named(c, hits=c.hits, rule_en=c.text("en", c.rule),
                          rule_ru=c.text("ru", c.rule)) for c in cat.CLASSES.values()],
        "weapons": [named(w, classes=[c for c in cat.CLASSES if c in w.classes],
                          features=list(w.features)) for w in cat.WEAPONS.values()],
        "features": [named(f, description_en=f.text("en", f.description),
                           description_ru=f.text("ru", f.description))
                     for f in cat.FEATURES.values()],
        "protections": [named(p) for p in cat.PROTECTIONS.values()],
        "line_flags": [named(f) for f in cat.LINE_FLAGS.values()],
        "limits": {
            "density": {"min": cat.MIN_DENSITY, "max": cat.MAX_DENSITY},
            "files": {"min": cat.MIN_FILES, "max": cat.MAX_FILES},
            "count": {"min": cat.MIN_COUNT, "max": cat.MAX_COUNT},
            "points": {"min": 0, "step": cat.POINTS_STEP, "optional": True},
        },
    }


def evaluate(roster: FormationDensityRoster, lang: Lang = "en") -> Evaluation:
    total = roster.total()
    checks = assess(roster, lang)
    issues = [c.issue for c in checks if not c.holds]
    limit = roster.points_limit
    result = {
        "total": points_json(total),
        "points_limit": limit,
        "remaining": None if limit is None else points_json(limit - total),
        "warriors": sum(u.warriors for u in roster.units),
        "units": [unit_json(u) for u in roster.units],
        "issues": [i.as_json() for i in issues],
        "valid": not any(i.severity.value == "error" for i in issues),
    }
    return Evaluation(result, checks)


def rules_page(lang: Lang) -> dict[str, Any]:
    """What its rules page (`/rules/formation_density`) shows: the classes' rules and the
    features' descriptions in the page's language, each rule's name by its code."""
    return {"names": FORMATION_DENSITY.names(lang), "catalogue": catalogue_json(),
            "class_rules": {c.id: c.text(lang, c.rule) for c in cat.CLASSES.values()},
            "feature_texts": {f.id: f.text(lang, f.description) for f in cat.FEATURES.values()},
            "rule_titles": rule_titles(lang)}


def rule_titles(lang: Lang) -> dict[str, str]:
    return {code: tr(lang, title) for code, title in RULE_TITLES.items()}


FORMATION_DENSITY = RuleSystem(
    id=cat.RULESET_ID,
    title=cat.NAME,
    version=cat.RULESET_VERSION,
    roster_model=FormationDensityRoster,
    result_model=FormationDensityResult,
    catalogue=catalogue_json,
    evaluate=evaluate,
    entries={"classes": cat.CLASSES, "weapons": cat.WEAPONS, "features": cat.FEATURES,
             "protections": cat.PROTECTIONS, "line_flags": cat.LINE_FLAGS},
    edit=edits.FormationDensityEdit,
    editor=editor,
    writers=text,
    templates=Path(__file__).parent / "templates",
    calculators=CALCULATORS,
    rules_page=rules_page,
)

__all__ = ["FORMATION_DENSITY", "Exchange", "FormationDensityRoster", "Line", "MeleeResult",
           "Unit", "assess", "evaluate", "exchange", "melee_json", "unit_problems",
           "validate"]
