"""The "Line and Square" roster document (the JSON a client sends) as pydantic models.

A unit's class and formation are checked against the catalogue, so an unknown id is refused
with the field's path and the allowed values; a formation the class may not take is a rule
(`unit.formation_not_allowed`), not a refusal, so a player can still store the list and fix it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, model_validator

from app.domain import limits
from app.domain.base import Whole, whole_in
from app.domain.ids import ItemId, with_ids
from app.domain.player_text import Note, RosterName, UnitName
from app.systems.line_and_square import catalogue as cat

ClassId = Literal.__getitem__(tuple(cat.CLASSES))  # type: ignore[attr-defined]
FormationId = Literal.__getitem__(tuple(cat.FORMATIONS))  # type: ignore[attr-defined]



def _points_json(value: float) -> int | float:
    # 3 points are written 3, not 3.0, in stored documents and exports.
    return int(value) if value.is_integer() else value


# Player-entered points: 0–100 in halves; a half is exact in binary, so a float loses nothing.
# Numbers are strict here: `true` is no count of figures and "2.5" no number of points.
Points = Annotated[
    float,
    Field(ge=cat.MIN_POINTS, le=cat.MAX_POINTS, multiple_of=cat.POINTS_STEP,
          allow_inf_nan=False, strict=True),
    PlainSerializer(_points_json, return_type=int | float),
]


class _Document(BaseModel):
    # Unknown keys are refused rather than dropped: a typo must not silently lose data.
    # `class` is a Python keyword: the field is `unit_class` in code, `class` in JSON.
    model_config = ConfigDict(extra="forbid", frozen=True, serialize_by_alias=True,
                              strict=True)


class Unit(_Document):
    id: ItemId | None = None  # always set once in a roster (ids.with_ids)
    name: UnitName = ""
    unit_class: ClassId = Field(alias="class")  # type: ignore[valid-type]
    figures: Whole = Field(ge=cat.MIN_FIGURES, le=cat.MAX_FIGURES, strict=True)
    speed: Whole = Field(ge=cat.MIN_SPEED, le=cat.MAX_SPEED, strict=True)
    accuracy: whole_in(cat.MIN_ACCURACY, cat.MAX_ACCURACY) | None = None
    discipline: Whole = Field(default=0, ge=cat.MIN_DISCIPLINE, le=cat.MAX_DISCIPLINE,
                            strict=True)
    points: Points
    officer: bool = Field(default=False, strict=True)
    formation: FormationId = "loose"  # type: ignore[valid-type]
    note: Note = ""


class LineAndSquareRoster(_Document):
    name: RosterName
    ruleset: Literal["line_and_square"]
    points_limit: whole_in(1, limits.MAX_POINTS_LIMIT) | None = None
    note: Note = ""
    units: list[Unit] = Field(default_factory=list, max_length=limits.MAX_UNITS)

    @model_validator(mode="before")
    @classmethod
    def _ids(cls, data: object) -> object:
        return with_ids(data, line_key=None)

    def total(self) -> Fraction:
        """The sum of the points the player entered, exact (halves stay halves)."""
        return sum((Fraction(unit.points) for unit in self.units), Fraction(0))
