"""The Chainmail editor's own actions: units of lines, engines, nation and historical flags."""

from __future__ import annotations

from typing import Any

from app.domain import get_ruleset
from app.domain.base import Lang
from app.domain.limits import MAX_ENGINES, MAX_LINES, MAX_UNITS
from app.web.composition import segments
from app.web.editing import (
    Action,
    Document,
    EditError,
    Form,
    at_most,
    checked,
    index,
    whole,
)

RULESET = "chainmail"


def update_settings(doc: Document, form: Form) -> Document:
    if "nation" in form:
        doc["nation"] = form["nation"]
    doc["historical"] = checked(form, "historical")
    doc["fortifications"] = checked(form, "fortifications")
    return doc


def add_unit(doc: Document, form: Form) -> Document:
    if len(doc["units"]) >= MAX_UNITS:
        raise EditError("units", at_most(MAX_UNITS, "units"))
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
        figures = whole(form, "figures", required=False)
        if figures is None:  # left empty: the form's own default (0 is refused, not replaced)
            figures = 10
        unit = {"name": form.get("unit_name", "").strip(), "mercenary": False, "flags": [],
                "note": "", "lines": [{"troop": form.get("troop", "light_foot"),
                                       "figures": figures, "weapon": form.get("weapon", "none")}]}
    doc["units"].append(unit)
    return doc


def update_unit(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    unit = doc["units"][i]
    unit["name"] = form.get("unit_name", unit["name"])
    unit["mercenary"] = checked(form, "mercenary")
    unit["flags"] = form.all("flags")
    unit["note"] = form.get("unit_note", unit.get("note", ""))
    for j, line in enumerate(unit["lines"]):
        line["troop"] = form.get(f"troop_{j}", line["troop"])
        line["weapon"] = form.get(f"weapon_{j}", line["weapon"])
        figures = whole(form, f"figures_{j}")
        line["figures"] = figures
    return doc


def add_line(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    if len(lines) >= MAX_LINES:
        raise EditError("lines", at_most(MAX_LINES, "lines"))
    # A second line is most often the mixed horse the rules allow: start from the next type.
    last = lines[-1]["troop"] if lines else "light_horse"
    pairs = {"light_horse": "medium_horse", "medium_horse": "heavy_horse",
             "heavy_horse": "medium_horse"}
    lines.append({"troop": pairs.get(last, last), "figures": 5, "weapon": "none"})
    return doc


def remove_line(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    lines = doc["units"][i]["lines"]
    del lines[index(form, "line", len(lines))]
    return doc


def add_engine(doc: Document, form: Form) -> Document:
    if len(doc["engines"]) >= MAX_ENGINES:
        raise EditError("engines", at_most(MAX_ENGINES, "engines"))
    doc["engines"].append({"kind": form.get("kind", ""), "count": whole(form, "count"),
                           "mercenary": checked(form, "mercenary")})
    return doc


def update_engine(doc: Document, form: Form) -> Document:
    k = index(form, "engine", len(doc["engines"]))
    doc["engines"][k] = {"kind": form.get("kind", ""), "count": whole(form, "count"),
                         "mercenary": checked(form, "mercenary")}
    return doc


def remove_engine(doc: Document, form: Form) -> Document:
    del doc["engines"][index(form, "engine", len(doc["engines"]))]
    return doc


ACTIONS: dict[str, Action] = {
    "settings": update_settings,
    "add_unit": add_unit,
    "update_unit": update_unit,
    "add_line": add_line,
    "remove_line": remove_line,
    "add_engine": add_engine,
    "update_engine": update_engine,
    "remove_engine": remove_engine,
}


# Actions that change one unit only: the editor redraws just that unit.
UNIT_ACTIONS = frozenset({"update_unit", "add_line", "remove_line"})


def new_document(form: Form) -> dict[str, Any]:
    """A new, empty roster from the home page's form."""
    return {"name": form.get("name", ""), "ruleset": RULESET,
            "nation": form.get("nation", "generic"),
            "points_limit": form.get("points_limit", "").strip() or None,
            "historical": checked(form, "historical"), "units": [], "engines": []}


def page_context(doc: Document, result: dict[str, Any], catalogue: dict[str, Any],
                 lang: Lang) -> dict[str, Any]:
    """What this system's templates need beyond the document and its priced result."""
    return {"bar": segments(doc["units"], [troop["id"] for troop in catalogue["troop_types"]])}
