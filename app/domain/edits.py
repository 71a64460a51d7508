"""What a player can do to a roster, as typed edits: the ones every rule system shares.

An edit is a value (a pydantic model told apart by its `op`), built by the editor's form and
by `PATCH /api/v1/rosters/{id}` alike, that names units and lines by their stable ids
(app/domain/ids.py). `apply_edits` makes a list of them in order on one roster and answers
the new roster, validated by its rule system's model; an edit that cannot be made raises
`EditError` naming its field, and none of the list is made. Each rule system adds its own
edits in its `edits.py` and lists them all in one discriminated union.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain import limits
from app.domain.base import Lang, Whole, whole_in
from app.domain.ids import ItemId, next_id, numbered
from app.domain.player_text import Note, RosterName, UnitName
from app.domain.translations import N_, tr

Document = dict[str, Any]  # a roster as its model dumps it to JSON data, changed in place


class EditError(ValueError):
    """An edit that cannot be made: `field` is the edit's field at fault, `message` a msgid
    (app/domain/translations.py) filled with `params`; `edit` the edit's place in its list."""

    def __init__(self, field: str, message: str, **params: object) -> None:
        super().__init__(f"{field}: {message % params if params else message}")
        self.field, self.message, self.params = field, message, params
        self.edit: int | None = None

    def text(self, lang: Lang) -> str:
        return tr(lang, self.message, **self.params)


NO_UNIT = N_("there is no unit %(id)s")
NO_LINE = N_("unit %(unit)s has no line %(id)s")
NO_ENGINE = N_("there is no engine %(id)s")
TOO_MANY_UNITS = N_("at most %(n)s units")
TOO_MANY_LINES = N_("at most %(n)s lines")
TOO_MANY_ENGINES = N_("at most %(n)s engines")
LAST_LINE = N_("a unit keeps at least one line; remove the unit instead")


def _op_required(schema: dict[str, Any]) -> None:
    """`op` tells the edits apart, so every edit sent as JSON names it (its default only
    spares code that builds an edit from writing it twice)."""
    schema["required"] = ["op", *(name for name in schema.get("required", []) if name != "op")]


class Edit(BaseModel):
    """One edit; a subclass sets `op` and `apply`."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True,
                              json_schema_extra=_op_required)
    # Fields that say what the edit acts on, not what it sets.
    ADDRESS: ClassVar[frozenset[str]] = frozenset({"op", "unit", "line", "engine"})
    # Fields whose null is a value to set ("no limit", "cannot shoot"), not "leave it".
    NULLABLE: ClassVar[frozenset[str]] = frozenset()

    def apply(self, doc: Document, lang: Lang) -> None:
        """Make the edit on `doc` (names given to new units are in `lang`)."""
        raise NotImplementedError

    def changes(self) -> dict[str, Any]:
        """The document's keys and values this edit sets: the fields it was sent with; a
        field left out, or null where null is no value, leaves the document's as it is."""
        return {_key(type(self), name): getattr(self, name) for name in self.model_fields_set
                if name not in self.ADDRESS
                and (getattr(self, name) is not None or name in self.NULLABLE)}


def unit_of(doc: Document, unit_id: str) -> Document:
    for unit in doc["units"]:
        if unit.get("id") == unit_id:
            return unit  # type: ignore[no-any-return]
    raise EditError("unit", NO_UNIT, id=unit_id)


def place_of(doc: Document, unit_id: str) -> int:
    return doc["units"].index(unit_of(doc, unit_id))


def line_of(unit: Document, line_id: str, key: str = "lines") -> Document:
    for line in unit[key]:
        if line.get("id") == line_id:
            return line  # type: ignore[no-any-return]
    raise EditError("line", NO_LINE, unit=unit.get("id"), id=line_id)


def room_for_unit(doc: Document) -> None:
    if len(doc["units"]) >= limits.MAX_UNITS:
        raise EditError("unit", TOO_MANY_UNITS, n=limits.MAX_UNITS)


def new_unit(doc: Document, unit: Document, line_key: str | None = "lines") -> Document:
    """`unit` with the next free id, its lines numbered anew (ids.py)."""
    unit = {**unit, "id": next_id("u", (u.get("id") for u in doc["units"]))}
    if line_key is not None:
        unit[line_key] = numbered([{k: v for k, v in line.items() if k != "id"}
                                   for line in unit[line_key]], "l", (line_key,))
    return unit


def distinct_name(units: Iterable[Document], name: str) -> str:
    """`name`, or, when another unit has it, the first of "name 2", "name 3" … that none has
    ("Horse archers 2" copied: "Horse archers 3"): a unit added from a preset or duplicated is
    told apart by its name wherever it is named. An empty name stays empty."""
    taken = {unit.get("name", "") for unit in units}
    if not name or name not in taken:
        return name
    stem = re.sub(r" \d+$", "", name)
    k = 2
    while True:
        number = f" {k}"
        found = stem[:limits.MAX_NAME - len(number)].rstrip() + number
        if found not in taken:
            return found
        k += 1


def room_for_line(unit: Document, key: str = "lines") -> None:
    if len(unit[key]) >= limits.MAX_LINES:
        raise EditError("line", TOO_MANY_LINES, n=limits.MAX_LINES)


class SetRoster(Edit):
    """The roster's name, points limit and note (a system adds its own settings)."""

    NULLABLE: ClassVar[frozenset[str]] = frozenset({"points_limit"})
    op: Literal["set_roster"] = "set_roster"
    name: RosterName | None = None
    points_limit: whole_in(1, limits.MAX_POINTS_LIMIT) | None = None
    note: Note | None = None

    def apply(self, doc: Document, lang: Lang) -> None:
        doc.update(self.changes())


class DuplicateUnit(Edit):
    """A copy of the unit right after it, with a new id. Only one unit may lead the army, so
    the copy is never the commander (Chainmail) nor carries the officer (Line and Square)."""

    op: Literal["duplicate_unit"] = "duplicate_unit"
    unit: ItemId

    def apply(self, doc: Document, lang: Lang) -> None:
        room_for_unit(doc)
        i = place_of(doc, self.unit)
        twin = new_unit(doc, _copied(doc["units"][i]), "lines" if "lines" in doc["units"][i]
                        else None)
        if twin.get("name"):
            twin["name"] = distinct_name(doc["units"], twin["name"])
        if "flags" in twin:
            twin["flags"] = [flag for flag in twin["flags"] if flag != "commander"]
        if "officer" in twin:
            twin["officer"] = False
        doc["units"].insert(i + 1, twin)


class MoveUnit(Edit):
    """The unit `by` places down the list (up when negative), stopping at either end."""

    op: Literal["move_unit"] = "move_unit"
    unit: ItemId
    by: Whole = Field(ge=-limits.MAX_UNITS, le=limits.MAX_UNITS)

    def apply(self, doc: Document, lang: Lang) -> None:
        units = doc["units"]
        i = place_of(doc, self.unit)
        units.insert(min(max(i + self.by, 0), len(units) - 1), units.pop(i))


class RemoveUnit(Edit):
    op: Literal["remove_unit"] = "remove_unit"
    unit: ItemId

    def apply(self, doc: Document, lang: Lang) -> None:
        del doc["units"][place_of(doc, self.unit)]


class SetUnit(Edit):
    """Fields every system's unit has: its name and note (each system's `set_unit` adds)."""

    op: Literal["set_unit"] = "set_unit"
    unit: ItemId
    name: UnitName | None = None
    note: Note | None = None

    def apply(self, doc: Document, lang: Lang) -> None:
        unit_of(doc, self.unit).update(self.changes())


class SetLine(Edit):
    """A line's fields (each system with lines names them)."""

    op: Literal["set_line"] = "set_line"
    unit: ItemId
    line: ItemId

    def apply(self, doc: Document, lang: Lang) -> None:
        line_of(unit_of(doc, self.unit), self.line).update(self.changes())


class RemoveLine(Edit):
    """A line out of its unit; where a unit must keep one (`KEEPS_ONE`), not its last."""

    KEEPS_ONE: ClassVar[bool] = False
    op: Literal["remove_line"] = "remove_line"
    unit: ItemId
    line: ItemId

    def apply(self, doc: Document, lang: Lang) -> None:
        unit = unit_of(doc, self.unit)
        line = line_of(unit, self.line)
        if self.KEEPS_ONE and len(unit["lines"]) == 1:
            raise EditError("line", LAST_LINE)
        unit["lines"].remove(line)


def _key(model: type[BaseModel], name: str) -> str:
    """The document's key of an edit's field (Line and Square's `unit_class` is "class")."""
    return model.model_fields[name].alias or name


def _copied(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def apply_edits(roster: BaseModel, edits: Sequence[Edit], lang: Lang) -> BaseModel:
    """The roster with every edit made in order, validated by its model (pydantic's
    ValidationError if the result is no roster); EditError, its `edit` set, if one cannot be
    made."""
    doc = roster.model_dump(mode="json", by_alias=True)
    for place, edit in enumerate(edits):
        try:
            edit.apply(doc, lang)
        except EditError as error:
            error.edit = place
            raise
    return type(roster).model_validate(doc)
