"""The "Formation Density" roster document (the JSON a client sends) as pydantic models.

Ids are checked against the catalogue, so an unknown class or weapon is refused with the
field's path and the allowed values. A weapon on the wrong class, a shield with a two-handed
weapon and the like are rules (§3), not refusals: a player can store the list and fix it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, model_validator

from app.domain import limits
from app.domain.base import Whole, whole_in
from app.domain.ids import ItemId, with_ids
from app.domain.player_text import Note, RosterName, UnitName
from app.systems.formation_density import catalogue as cat

ClassId = Literal.__getitem__(tuple(cat.CLASSES))  # type: ignore[attr-defined]
WeaponId = Literal.__getitem__(tuple(cat.WEAPONS))  # type: ignore[attr-defined]

Flag = Annotated[bool, Field(strict=True)]


def _points_json(value: float | None) -> int | float | None:
    # 3 points are written 3, not 3.0, in stored documents and exports.
    if value is None:
        return None
    return int(value) if value.is_integer() else value


# Player-entered points in halves: a half is exact in binary, so a float loses nothing.
Points = Annotated[
    float | None,
    Field(default=None, ge=0, le=limits.MAX_POINTS_LIMIT, multiple_of=cat.POINTS_STEP,
          allow_inf_nan=False, strict=True),
    PlainSerializer(_points_json, return_type=int | float | None),
]


class _Document(BaseModel):
    # Unknown keys are refused rather than dropped: a typo must not silently lose data.
    # `class` is a Python keyword: the field is `line_class` in code, `class` in JSON.
    # Types are strict, as the published JSON Schema says: `0` is no `false`.
    model_config = ConfigDict(extra="forbid", frozen=True, serialize_by_alias=True,
                              validate_by_name=True, validate_by_alias=True, strict=True)


class Line(_Document):
    """Warriors of one kind in a unit: class, weapon, how many, and their protection."""

    id: ItemId | None = None  # always set once in a roster (ids.with_ids)
    line_class: ClassId = Field(alias="class")  # type: ignore[valid-type]
    weapon: WeaponId  # type: ignore[valid-type]
    count: Whole = Field(ge=cat.MIN_COUNT, le=cat.MAX_COUNT, strict=True)
    shield: Flag = False
    armour: Flag = False
    mounted: Flag = False
    cavalry_armour: Flag = False
    moved_straight: Flag = False


class Unit(_Document):
    id: ItemId | None = None
    name: UnitName = ""
    density: Whole = Field(ge=cat.MIN_DENSITY, le=cat.MAX_DENSITY, strict=True)
    files: Whole = Field(ge=cat.MIN_FILES, le=cat.MAX_FILES, strict=True)
    points: Points = None
    note: Note = ""
    lines: list[Line] = Field(min_length=1, max_length=limits.MAX_LINES)

    @property
    def warriors(self) -> int:
        return sum(line.count for line in self.lines)


class FormationDensityRoster(_Document):
    name: RosterName
    ruleset: Literal["formation_density"]
    points_limit: whole_in(1, limits.MAX_POINTS_LIMIT) | None = None
    note: Note = ""
    units: list[Unit] = Field(default_factory=list, max_length=limits.MAX_UNITS)

    @model_validator(mode="before")
    @classmethod
    def _ids(cls, data: object) -> object:
        return with_ids(data)

    def total(self) -> Fraction:
        """The sum of the points the player entered, exact (halves stay halves)."""
        return sum((Fraction(u.points) for u in self.units if u.points is not None),
                   Fraction(0))

    def priced(self) -> bool:
        """Whether any unit carries points (the limit is judged only then)."""
        return any(u.points is not None for u in self.units)
