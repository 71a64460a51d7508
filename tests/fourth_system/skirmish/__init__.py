"""Skirmish: archers (2 points a figure) and spearmen (1), and one rule: archers at most half
of the army's figures."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, model_validator

from app.domain import edits as common
from app.domain import limits
from app.domain.base import Lang, RuleCheck, Severity, Whole, whole_in
from app.domain.catalogue_entries import Named, named
from app.domain.ids import ItemId, with_ids
from app.domain.player_text import Note, RosterName, UnitName
from app.domain.results import IssueOut
from app.domain.system import Evaluation, RuleSystem

TROOPS = {"archers": Named("archers", "Archers"), "spearmen": Named("spearmen", "Spearmen")}
POINTS = {"archers": 2, "spearmen": 1}


class _Document(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Unit(_Document):
    id: ItemId | None = None
    name: UnitName = ""
    troop: Literal["archers", "spearmen"]
    figures: Whole = Field(ge=1, le=limits.MAX_FIGURES)
    note: Note = ""


class SkirmishRoster(_Document):
    name: RosterName
    ruleset: Literal["skirmish"]
    points_limit: whole_in(1, limits.MAX_POINTS_LIMIT) | None = None  # type: ignore[valid-type]
    note: Note = ""
    units: list[Unit] = Field(default_factory=list, max_length=limits.MAX_UNITS)

    @model_validator(mode="before")
    @classmethod
    def _ids(cls, data: object) -> object:
        return with_ids(data, line_key=None)


class UnitOut(BaseModel):
    name: str
    troop: str
    figures: int
    cost: int


class SkirmishResult(BaseModel):
    total: int
    points_limit: int | None
    remaining: int | None
    archers_share: float  # its own field: how the results' union tells it apart
    units: list[UnitOut]
    issues: list[IssueOut]
    valid: bool


def evaluate(roster: SkirmishRoster, lang: Lang = "en") -> Evaluation:
    figures = sum(u.figures for u in roster.units)
    archers = sum(u.figures for u in roster.units if u.troop == "archers")
    total = sum(POINTS[u.troop] * u.figures for u in roster.units)
    checks = [RuleCheck("skirmish.archers", "Archers at most half",
                        f"archers {archers} of {figures} figures, at most half",
                        2 * archers <= figures, Severity.error)]
    issues = [c.issue.as_json() for c in checks if not c.holds]
    limit = roster.points_limit
    result = {"total": total, "points_limit": limit,
              "remaining": None if limit is None else limit - total,
              "archers_share": archers / figures if figures else 0.0,
              "units": [{"name": u.name, "troop": u.troop, "figures": u.figures,
                         "cost": POINTS[u.troop] * u.figures} for u in roster.units],
              "issues": issues, "valid": not issues}
    return Evaluation(result, checks)


def catalogue() -> dict[str, Any]:
    return {"id": "skirmish", "name_ru": "Стычка", "name_en": "Skirmish", "version": "1",
            "troop_types": [named(t, points=POINTS[t.id]) for t in TROOPS.values()]}


class AddUnit(common.Edit):
    op: Literal["add_unit"] = "add_unit"
    name: UnitName = ""
    troop: Literal["archers", "spearmen"]
    figures: Whole = Field(ge=1, le=limits.MAX_FIGURES)

    def apply(self, doc: dict[str, Any], lang: Lang) -> None:
        common.room_for_unit(doc)
        unit = self.model_dump(mode="json", exclude={"op"})
        doc["units"].append(common.new_unit(doc, unit, line_key=None))


SkirmishEdit = Annotated[Union[  # noqa: UP007
    common.SetRoster, AddUnit, common.DuplicateUnit, common.MoveUnit, common.RemoveUnit,
], Discriminator("op")]

from . import editor, text  # noqa: E402  (they read the evaluation above)

SKIRMISH = RuleSystem(
    id="skirmish", title="Skirmish", version="1", roster_model=SkirmishRoster,
    result_model=SkirmishResult, catalogue=catalogue, evaluate=evaluate,
    entries={"troop_types": TROOPS}, edit=SkirmishEdit, editor=editor, writers=text,
    templates=Path(__file__).parent / "templates")
