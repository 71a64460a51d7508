"""The editor's changes to a roster document, one function per action a player can take.

Each action takes the current document (as plain JSON data) and the submitted form, and
returns the changed document. The caller validates the result with the rule system's model,
so limits and ids are enforced in one place; here we only turn form text into values and say
which field was wrong. Actions every rule system shares (settings, reordering, duplicating and
removing units) live here; each system's own (its unit form) in `app.web.systems.<id>`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from app.domain.limits import MAX_UNITS
from app.web.i18n import gettext

Document = dict[str, Any]


class EditError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


# As many fields as Starlette's own form parser takes (its default max_fields).
MAX_FIELDS = 1000


class TooManyFields(ValueError):
    pass


class UnreadableForm(ValueError):
    """A multipart body its parser refused for another reason than its number of fields."""


class Form(Mapping[str, str]):
    """Submitted form fields; repeated fields (checkboxes) are read with `all`."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        self._items = items
        self._last = {key: value for key, value in items}

    def __getitem__(self, key: str) -> str:
        return self._last[key]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._last)

    def __len__(self) -> int:
        return len(self._last)

    def items_list(self) -> list[tuple[str, str]]:
        return list(self._items)

    def all(self, key: str) -> list[str]:
        return [value for k, value in self._items if k == key]


def whole(form: Form, field: str, *, required: bool = True) -> int | None:
    raw = form.get(field, "").strip()
    if not raw:
        if required:
            raise EditError(field, gettext("a whole number is required"))
        return None
    if "_" in raw:  # Python reads "1_0" as 10; a player who typed it meant no such number
        raise EditError(field, gettext("“%(text)s” is not a whole number") % {"text": raw[:20]})
    try:
        return int(raw)
    except ValueError:
        pass
    # A number field lets the browser send what it reads as one: "1e3" is 1000, "12.0" is 12.
    try:
        number = Decimal(raw) if len(raw) <= 20 else None
    except InvalidOperation:
        number = None
    # (a bound on the magnitude first: "1e3000000000" would not fit any whole number)
    if number is not None and number.is_finite() and number.adjusted() < 10 \
            and number == number.to_integral_value():
        return int(number)
    raise EditError(field, gettext("“%(text)s” is not a whole number") % {"text": raw[:20]})


def index(form: Form, field: str, length: int) -> int:
    value = whole(form, field)
    assert value is not None
    if not 0 <= value < length:
        raise EditError(field, gettext("there is no number %(n)s") % {"n": value + 1})
    return value


def at_most(count: int, what: str) -> str:
    """'at most 500 units', worded in the page's language ('units', 'lines', 'engines')."""
    return {"units": gettext("at most %(n)s units"), "lines": gettext("at most %(n)s lines"),
            "engines": gettext("at most %(n)s engines")}[what] % {"n": count}


def checked(form: Form, field: str) -> bool:
    return form.get(field, "") in ("on", "true", "1", "yes")


Action = Callable[[Document, Form], Document]


def update_settings(doc: Document, form: Form) -> Document:
    """Name, points limit and note; a system's own settings follow in its module."""
    doc["name"] = form.get("name", "")
    doc["points_limit"] = whole(form, "points_limit", required=False)
    doc["note"] = form.get("note", "")
    return doc


def duplicate_unit(doc: Document, form: Form) -> Document:
    if len(doc["units"]) >= MAX_UNITS:
        raise EditError("units", at_most(MAX_UNITS, "units"))
    i = index(form, "unit", len(doc["units"]))
    twin = copied(doc["units"][i])
    # Only one unit may carry the commander; the copy is an ordinary unit.
    if "flags" in twin:
        twin["flags"] = [f for f in twin["flags"] if f != "commander"]
    if "officer" in twin:
        twin["officer"] = False
    doc["units"].insert(i + 1, twin)
    return doc


def move_unit(doc: Document, form: Form, step: int) -> Document:
    units = doc["units"]
    i = index(form, "unit", len(units))
    j = i + step
    if 0 <= j < len(units):
        units[i], units[j] = units[j], units[i]
    return doc


def remove_unit(doc: Document, form: Form) -> Document:
    del doc["units"][index(form, "unit", len(doc["units"]))]
    return doc


COMMON: dict[str, Action] = {
    "settings": update_settings,
    "duplicate": duplicate_unit,
    "move_up": lambda doc, form: move_unit(doc, form, -1),
    "move_down": lambda doc, form: move_unit(doc, form, +1),
    "remove_unit": remove_unit,
}


def copied(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists and scalars): what copy.deepcopy does here,
    in under half the time (no memo, no type dispatch); every change copies the document."""
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) for item in value]
    return value


def apply(document: Document, form: Form, actions: dict[str, Action]) -> Document:
    """The document after the action the form names (a button's `action` wins over `op`).

    `actions` are the rule system's own; they may extend a common action of the same name
    (a system's "settings" runs after the common one). `document` is the caller's to give
    away (the editor passes a fresh `model_dump`): the actions change it in place, as copying
    it once more cost every change a walk of the whole document.
    """
    action = form.get("action") or form.get("op", "")
    # A button may name its target in its value ("remove_line:2"): one form, many buttons.
    action, _, argument = action.partition(":")
    if argument:
        form = Form([*form.items_list(), ("line", argument)])
    if action not in COMMON and action not in actions:
        raise EditError("action", gettext("unknown action %(text)s") % {"text": repr(action[:40])})
    doc = document
    if action in COMMON:
        doc = COMMON[action](doc, form)
    if action in actions:
        doc = actions[action](doc, form)
    return doc
