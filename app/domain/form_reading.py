"""The editor's forms read as edits (app/domain/edits.py): form text turned into values, the
form's field names into the edit's fields, and which field was wrong said in the form's
language (the page's, carried by the `Form`). What an edit does, and every rule it keeps, is
the domain's; each rule system's own form reader is its `editor.py` and uses the pieces every
system shares here. Pure: no web import, so a rule system's package stays below the web.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from app.domain.base import Lang
from app.domain.translations import tr

Document = dict[str, Any]  # a roster as JSON data, as the templates read it
Edits = list[dict[str, Any]]  # edits as JSON data, as `PATCH /api/v1/rosters/{id}` takes them

class FormError(ValueError):
    """A form's text that is no value of its field (`field`, the form's name for it); the
    message is in the page's language already."""

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

    def __init__(self, items: list[tuple[str, str]], lang: Lang = "en") -> None:
        self._items = items
        self.lang: Lang = lang  # the page's: what its refusals are said in
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
            raise FormError(field, tr(form.lang, "a whole number is required"))
        return None
    if "_" in raw:  # Python reads "1_0" as 10; a player who typed it meant no such number
        raise FormError(field, tr(form.lang, "“%(text)s” is not a whole number", text=raw[:20]))
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
    raise FormError(field, tr(form.lang, "“%(text)s” is not a whole number", text=raw[:20]))


def checked(form: Form, field: str) -> bool:
    return form.get(field, "") in ("on", "true", "1", "yes")


def present(form: Form, **fields: str) -> dict[str, str]:
    """The edit's fields (the keys) that the form has (under the values, its names for
    them): a field the form leaves out leaves the roster's value as it is."""
    return {key: form[name] for key, name in fields.items() if name in form}


def pressed(form: Form) -> tuple[str, str]:
    """What the form asks for: a button's `action` wins over the form's `op`; a button may
    name its target in its value ("remove_line:l2"), one form holding many buttons."""
    action, _, argument = (form.get("action") or form.get("op", "")).partition(":")
    return action, argument


def roster_settings(form: Form) -> dict[str, Any]:
    """The settings form's name, points limit (empty: none) and note, as `set_roster`."""
    return {"op": "set_roster", "name": form.get("name", ""),
            "points_limit": whole(form, "points_limit", required=False),
            "note": form.get("note", "")}


def form_edits(form: Form, read: Callable[[str, str, Form], Edits | None]) -> Edits:
    """The edits a form of the editor asks for: its rule system's reading of it (`read`, the
    system module's), else one every system shares (FormError for an action of none)."""
    action, argument = pressed(form)
    made = read(action, argument, form)
    if made is None:
        made = _shared(action, form)
    if made is None:
        raise FormError("action", tr(form.lang, "unknown action %(text)s", text=repr(action[:40])))
    return made


def _shared(action: str, form: Form) -> Edits | None:
    """The settings form's and the unit buttons' every system has (Duplicate, Move, Remove)."""
    unit = form.get("unit", "")
    if action == "settings":
        return [roster_settings(form)]
    if action == "duplicate":
        return [{"op": "duplicate_unit", "unit": unit}]
    if action in ("move_up", "move_down"):
        return [{"op": "move_unit", "unit": unit, "by": -1 if action == "move_up" else 1}]
    if action == "remove_unit":
        return [{"op": "remove_unit", "unit": unit}]
    return None


def line_ids(form: Form) -> list[str]:
    """The ids of the unit's lines the form shows (a hidden `line` field per row); each
    line's fields are named by its id: `figures_l2`."""
    return form.all("line")
