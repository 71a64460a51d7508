"""Stable ids of a roster's units, their lines and its engines.

An edit names the unit it acts on by its id, never by its place, so moving, duplicating or
removing another unit never turns an edit on one unit into an edit on its neighbour. A document
without ids (sent by an older client, stored before ids existed) is given them as it is read:
`u1`, `u2` … in list order, each line `l1`, `l2` … within its unit, engines `e1` …; a new
item takes the next number after the highest in use, so the same edits give the same ids
whichever door (the page or the API) they came through. The same id twice in one list is
refused as pydantic's error at that item's `id` (`units.3.id`), as any other bad field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import BaseModel, StringConstraints, ValidationError

from app.domain.translations import N_

ItemId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
"""A unit's, line's or engine's id: letters, digits, '-' and '_', at most 32."""

# The refusal of an id given twice (a msgid: a page says it in its language, the API as written).
REPEATED_ID = N_("this id is already used in the list: each must be different")


def next_id(prefix: str, taken: Iterable[str | None]) -> str:
    """The id after the highest `prefix<n>` among `taken`: u3 after u1 and u2."""
    numbers = [int(m.group(1)) for t in taken if t
               for m in [re.fullmatch(re.escape(prefix) + r"(\d{1,9})", t)] if m]
    return f"{prefix}{max(numbers, default=0) + 1}"


def _id_of(item: Any) -> str | None:
    if isinstance(item, BaseModel):
        return getattr(item, "id", None)
    return item.get("id") if isinstance(item, dict) else None


def _with_id(item: Any, new: str) -> Any:
    if isinstance(item, BaseModel):
        return item.model_copy(update={"id": new})
    return {**item, "id": new}


def repeated(loc: tuple[str | int, ...], found: str) -> ValidationError:
    """pydantic's error for an id given twice, at `loc` (the second one's `id`): raised in a
    model's validator, it keeps that place, so the API and the pages name the field."""
    return ValidationError.from_exception_data("roster", [{
        "type": "value_error", "loc": loc, "input": found,
        "ctx": {"error": ValueError(REPEATED_ID)}}])


def numbered(items: Any, prefix: str, loc: tuple[str | int, ...]) -> Any:
    """`items` (dicts or models, the list at `loc` in the document) each with an id: missing
    ones get the next free; the same id twice is refused (`repeated`), as an edit could not
    tell the two apart."""
    if not isinstance(items, list):
        return items  # not a list: the model's own validation refuses it
    seen: set[str] = set()
    for place, item in enumerate(items):
        found = _id_of(item)
        if isinstance(found, str):
            if found in seen:
                raise repeated((*loc, place, "id"), found)
            seen.add(found)
    if len(seen) == len(items):
        return items
    given: list[Any] = []
    # Each new id is next_id(prefix, seen) as it grows: the highest number read once, then
    # counted on, so numbering a list takes time in proportion to its length.
    number = int(next_id(prefix, seen).removeprefix(prefix))
    for item in items:
        if isinstance(item, dict | BaseModel) and _id_of(item) is None:
            item = _with_id(item, f"{prefix}{number}")
            number += 1
        given.append(item)
    return given


def with_ids(data: Any, line_key: str | None = "lines") -> Any:
    """A roster document (as data, before validation) whose units, their lines (`line_key`,
    None for a system whose units have none) and engines all have ids."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    units = numbered(data.get("units"), "u", ("units",))
    if line_key is not None and isinstance(units, list):
        units = [_lines_numbered(unit, line_key, ("units", place, line_key))
                 for place, unit in enumerate(units)]
    if "units" in data:
        data["units"] = units
    if "engines" in data:
        data["engines"] = numbered(data["engines"], "e", ("engines",))
    return data


def _lines_numbered(unit: Any, key: str, loc: tuple[str | int, ...]) -> Any:
    if isinstance(unit, dict) and isinstance(unit.get(key), list):
        lines = numbered(unit[key], "l", loc)
        return unit if lines is unit[key] else {**unit, key: lines}
    if isinstance(unit, BaseModel):
        lines = numbered(getattr(unit, key), "l", loc)
        return unit if lines is getattr(unit, key) else unit.model_copy(update={key: lines})
    return unit
