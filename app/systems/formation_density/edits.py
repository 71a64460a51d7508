"""Formation Density's edits: a unit's density, files and points, and its lines of warriors;
the shared edits are in app/domain/edits.py."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, Union

from pydantic import ConfigDict, Discriminator, Field

from app.domain import edits as common
from app.domain.base import Lang, Whole
from app.domain.edits import Document, Edit, room_for_line, unit_of
from app.domain.ids import ItemId, next_id
from app.domain.limits import MAX_LINES
from app.domain.player_text import Note, UnitName
from app.systems.formation_density import catalogue as cat
from app.systems.formation_density.roster import ClassId, Line, Points, WeaponId

Density = Annotated[Whole, Field(ge=cat.MIN_DENSITY, le=cat.MAX_DENSITY)]
Files = Annotated[Whole, Field(ge=cat.MIN_FILES, le=cat.MAX_FILES)]
Count = Annotated[Whole, Field(ge=cat.MIN_COUNT, le=cat.MAX_COUNT)]
_BY_ALIAS = ConfigDict(extra="forbid", frozen=True, strict=True, validate_by_name=True,
                       validate_by_alias=True, serialize_by_alias=True)


class AddUnit(Edit):
    model_config = _BY_ALIAS
    op: Literal["add_unit"] = "add_unit"
    name: UnitName = ""
    density: Density
    files: Files
    points: Points = None
    note: Note = ""
    lines: list[Line] = Field(min_length=1, max_length=MAX_LINES)  # their ids are given anew

    def apply(self, doc: Document, lang: Lang) -> None:
        common.room_for_unit(doc)
        doc["units"].append(common.new_unit(
            doc, self.model_dump(mode="json", by_alias=True, exclude={"op"})))


class SetUnit(common.SetUnit):
    """A unit's name, note, density, files and points (null: no points)."""

    NULLABLE: ClassVar[frozenset[str]] = frozenset({"points"})
    density: Density | None = None
    files: Files | None = None
    points: Points = None


class AddLine(Edit):
    """A line at the end of a unit: a copy of its last, one rank deep (as many as its files)."""

    op: Literal["add_line"] = "add_line"
    unit: ItemId

    def apply(self, doc: Document, lang: Lang) -> None:
        unit = unit_of(doc, self.unit)
        room_for_line(unit)
        twin = {**unit["lines"][-1], "count": min(unit["files"], cat.MAX_COUNT)}
        twin["id"] = next_id("l", (line.get("id") for line in unit["lines"]))
        unit["lines"].append(twin)


class SetLine(common.SetLine):
    model_config = _BY_ALIAS
    line_class: ClassId | None = Field(default=None, alias="class")  # type: ignore[valid-type]
    weapon: WeaponId | None = None  # type: ignore[valid-type]
    count: Count | None = None
    shield: bool | None = None
    armour: bool | None = None
    mounted: bool | None = None
    cavalry_armour: bool | None = None
    moved_straight: bool | None = None


class RemoveLine(common.RemoveLine):
    """Not a unit's last line: a unit of warriors has at least one."""

    KEEPS_ONE: ClassVar[bool] = True


FormationDensityEdit = Annotated[Union[  # noqa: UP007
    common.SetRoster, AddUnit, SetUnit, common.DuplicateUnit, common.MoveUnit,
    common.RemoveUnit, AddLine, SetLine, RemoveLine,
], Discriminator("op")]

