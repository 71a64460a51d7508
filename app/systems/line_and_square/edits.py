"""Line and Square's edits: a unit is one profile (class, figures, speed, accuracy,
discipline, points, officer, formation); the shared edits are in app/domain/edits.py."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Union

from pydantic import ConfigDict, Discriminator, Field

from app.domain import edits as common
from app.domain.base import Lang, Whole, whole_in
from app.domain.edits import Document, Edit
from app.domain.player_text import Note, UnitName
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.roster import ClassId, FormationId, Points

Figures = Annotated[Whole, Field(ge=cat.MIN_FIGURES, le=cat.MAX_FIGURES)]
Speed = Annotated[Whole, Field(ge=cat.MIN_SPEED, le=cat.MAX_SPEED)]
Discipline = Annotated[Whole, Field(ge=cat.MIN_DISCIPLINE, le=cat.MAX_DISCIPLINE)]
_BY_ALIAS = ConfigDict(validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)


class AddUnit(Edit):
    """A unit at the end of the list, in loose order unless a formation is given."""

    model_config = _BY_ALIAS
    op: Literal["add_unit"] = "add_unit"
    name: UnitName = ""
    unit_class: ClassId = Field(alias="class")  # type: ignore[valid-type]
    figures: Figures
    speed: Speed
    accuracy: whole_in(cat.MIN_ACCURACY, cat.MAX_ACCURACY) | None = None
    discipline: Discipline = 0
    points: Points
    officer: bool = False
    formation: FormationId = "loose"  # type: ignore[valid-type]
    note: Note = ""

    def apply(self, doc: Document, lang: Lang) -> None:
        common.room_for_unit(doc)
        unit = self.model_dump(mode="json", by_alias=True, exclude={"op"})
        doc["units"].append(common.new_unit(doc, unit, line_key=None))


class SetUnit(common.SetUnit):
    """Any of a unit's fields; a null accuracy is "cannot shoot"."""

    model_config = _BY_ALIAS
    NULLABLE: ClassVar[frozenset[str]] = frozenset({"accuracy"})
    unit_class: ClassId | None = Field(default=None, alias="class")  # type: ignore[valid-type]
    figures: Figures | None = None
    speed: Speed | None = None
    accuracy: whole_in(cat.MIN_ACCURACY, cat.MAX_ACCURACY) | None = None
    discipline: Discipline | None = None
    points: Points | None = None
    officer: bool | None = None
    formation: FormationId | None = None  # type: ignore[valid-type]


LineAndSquareEdit = Annotated[Union[  # noqa: UP007
    common.SetRoster, AddUnit, SetUnit, common.DuplicateUnit, common.MoveUnit,
    common.RemoveUnit,
], Discriminator("op")]

