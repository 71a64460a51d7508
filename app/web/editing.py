"""The editor's changes to a roster document, one function per action a player can take.

Each action takes the current document (as plain JSON data) and the submitted form, and
returns the changed document. The caller validates the result with the rule system's model,
so limits and ids are enforced in one place; here we only turn form text into values and say
which field was wrong.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from app.rules import get_ruleset
from app.rules.limits import MAX_ENGINES, MAX_LINES, MAX_UNITS

Document = dict[str, Any]


class EditError(ValueError):
    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


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


def _int(form: Form, field: str, *, required: bool = True) -> int | None:
    raw = form.get(field, "").strip()
    if not raw:
        if required:
            raise EditError(field, "a whole number is required")
        return None
    try:
        return int(raw)
    except ValueError:
        raise EditError(field, f"{raw[:20]!r} is not a whole number") from None


def _index(form: Form, field: str, length: int) -> int:
    value = _int(form, field)
    assert value is not None
    if not 0 <= value < length:
        raise EditError(field, f"no such entry {value}")
    return value


def _checked(form: Form, field: str) -> bool:
    return form.get(field, "") in ("on", "true", "1", "yes")


def update_settings(doc: Document, form: Form) -> Document:
    doc["name"] = form.get("name", "")
    if "nation" in form:
        doc["nation"] = form["nation"]
    doc["points_limit"] = _int(form, "points_limit", required=False)
    doc["historical"] = _checked(form, "historical")
    doc["fortifications"] = _checked(form, "fortifications")
    doc["note"] = form.get("note", "")
    return doc


def add_unit(doc: Document, form: Form) -> Document:
    if len(doc["units"]) >= MAX_UNITS:
        raise EditError("units", f"at most {MAX_UNITS} units")
    system = get_ruleset(doc["ruleset"])
    presets = {p["id"]: p for p in system.catalogue().get("presets", [])} if system else {}
    preset_id = form.get("preset", "")
    if preset_id and preset_id not in presets:
        raise EditError("preset", f"unknown preset {preset_id[:40]!r}")
    if preset_id:
        preset = presets[preset_id]
        name_key = "name_ru" if form.get("lang") == "ru" else "name_en"
        name = form.get("unit_name", "").strip() or preset[name_key]
        unit = {"name": name, "mercenary": False, "flags": list(preset["flags"]), "note": "",
                "lines": [{"troop": preset["troop"], "figures": preset["figures"],
                           "weapon": preset["weapon"]}]}
    else:
        figures = _int(form, "figures", required=False) or 10
        unit = {"name": form.get("unit_name", "").strip(), "mercenary": False, "flags": [],
                "note": "", "lines": [{"troop": form.get("troop", "light_foot"),
                                       "figures": figures, "weapon": form.get("weapon", "none")}]}
    doc["units"].append(unit)
    return doc


def update_unit(doc: Document, form: Form) -> Document:
    i = _index(form, "unit", len(doc["units"]))
    unit = doc["units"][i]
    unit["name"] = form.get("unit_name", unit["name"])
    unit["mercenary"] = _checked(form, "mercenary")
    unit["flags"] = form.all("flags")
    unit["note"] = form.get("unit_note", unit.get("note", ""))
    for j, line in enumerate(unit["lines"]):
        line["troop"] = form.get(f"troop_{j}", line["troop"])
        line["weapon"] = form.get(f"weapon_{j}", line["weapon"])
        figures = _int(form, f"figures_{j}")
        line["figures"] = figures
    return doc


def add_line(doc: Document, form: Form) -> Document:
    i = _index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    if len(lines) >= MAX_LINES:
        raise EditError("lines", f"at most {MAX_LINES} lines in a unit")
    # A second line is most often the mixed horse the rules allow: start from the next type.
    last = lines[-1]["troop"] if lines else "light_horse"
    pairs = {"light_horse": "medium_horse", "medium_horse": "heavy_horse",
             "heavy_horse": "medium_horse"}
    lines.append({"troop": pairs.get(last, last), "figures": 5, "weapon": "none"})
    return doc


def remove_line(doc: Document, form: Form) -> Document:
    i = _index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    del lines[_index(form, "line", len(lines))]
    return doc


def duplicate_unit(doc: Document, form: Form) -> Document:
    if len(doc["units"]) >= MAX_UNITS:
        raise EditError("units", f"at most {MAX_UNITS} units")
    i = _index(form, "unit", len(doc["units"]))
    twin = copy.deepcopy(doc["units"][i])
    # Only one unit may carry the commander; the copy is an ordinary unit.
    twin["flags"] = [f for f in twin["flags"] if f != "commander"]
    doc["units"].insert(i + 1, twin)
    return doc


def move_unit(doc: Document, form: Form, step: int) -> Document:
    units = doc["units"]
    i = _index(form, "unit", len(units))
    j = i + step
    if 0 <= j < len(units):
        units[i], units[j] = units[j], units[i]
    return doc


def remove_unit(doc: Document, form: Form) -> Document:
    del doc["units"][_index(form, "unit", len(doc["units"]))]
    return doc


def add_engine(doc: Document, form: Form) -> Document:
    if len(doc["engines"]) >= MAX_ENGINES:
        raise EditError("engines", f"at most {MAX_ENGINES} engines")
    doc["engines"].append({"kind": form.get("kind", ""), "count": _int(form, "count"),
                           "mercenary": _checked(form, "mercenary")})
    return doc


def update_engine(doc: Document, form: Form) -> Document:
    k = _index(form, "engine", len(doc["engines"]))
    doc["engines"][k] = {"kind": form.get("kind", ""), "count": _int(form, "count"),
                         "mercenary": _checked(form, "mercenary")}
    return doc


def remove_engine(doc: Document, form: Form) -> Document:
    del doc["engines"][_index(form, "engine", len(doc["engines"]))]
    return doc


ACTIONS: dict[str, Callable[[Document, Form], Document]] = {
    "settings": update_settings,
    "add_unit": add_unit,
    "update_unit": update_unit,
    "add_line": add_line,
    "remove_line": remove_line,
    "duplicate": duplicate_unit,
    "move_up": lambda doc, form: move_unit(doc, form, -1),
    "move_down": lambda doc, form: move_unit(doc, form, +1),
    "remove_unit": remove_unit,
    "add_engine": add_engine,
    "update_engine": update_engine,
    "remove_engine": remove_engine,
}


def apply(document: Document, form: Form) -> Document:
    """The document after the action the form names (a button's `action` wins over `op`)."""
    action = form.get("action") or form.get("op", "")
    # A button may name its target in its value ("remove_line:2"): one form, many buttons.
    action, _, argument = action.partition(":")
    if argument:
        form = Form([*form.items_list(), ("line", argument)])
    if action not in ACTIONS:
        raise EditError("action", f"unknown action {action[:40]!r}")
    return ACTIONS[action](copy.deepcopy(document), form)
