"""The "Line and Square" editor's own actions: one form per unit with its whole profile.

Form text becomes values here (a blank accuracy is "no accuracy", "2,5" points are 2.5); the
rule system's model then checks ranges and ids, so a bad field is refused naming it.
"""

from __future__ import annotations

import re
from typing import Any

from app.domain.base import Lang
from app.domain.limits import MAX_UNITS
from app.domain.text import tr
from app.web.editing import Document, EditError, Form, at_most, checked, index, whole

RULESET = "line_and_square"

# "12", "2.5", "2,5" (a Russian keyboard writes the decimal comma).
_NUMBER = re.compile(r"[+]?\d{1,6}(?:[.,]\d{1,6})?")


def _points(form: Form, field: str) -> int | float:
    lang: Lang = "ru" if form.get("lang") == "ru" else "en"  # the page's, added by the route
    raw = form.get(field, "").strip()
    if not raw:
        raise EditError(field, tr(lang, "points are required (0 to 100, halves allowed)"))
    if not _NUMBER.fullmatch(raw):
        raise EditError(field, tr(lang, "%(raw)s is not a number of points", raw=repr(raw[:20])))
    value = float(raw.replace(",", "."))
    return int(value) if value.is_integer() else value


def _profile(form: Form, formation: str) -> dict[str, Any]:
    """The unit's fields as the document holds them (the name and note are set by callers).

    `formation` stands when the form has no formation field: the add form has none, since
    which formations a class may take is shown only once the class is chosen.
    """
    return {
        "class": form.get("class", ""),
        "figures": whole(form, "figures"),
        "speed": whole(form, "speed"),
        # No accuracy is a real value ("cannot shoot"), written as an empty field.
        "accuracy": whole(form, "accuracy", required=False),
        "discipline": whole(form, "discipline"),
        "points": _points(form, "points"),
        "officer": checked(form, "officer"),
        "formation": form.get("formation", formation),
    }


def add_unit(doc: Document, form: Form) -> Document:
    if len(doc["units"]) >= MAX_UNITS:
        raise EditError("units", at_most(MAX_UNITS, "units"))
    doc["units"].append({"name": form.get("unit_name", "").strip(), **_profile(form, "loose"),
                         "note": form.get("unit_note", "")})
    return doc


def update_unit(doc: Document, form: Form) -> Document:
    i = index(form, "unit", len(doc["units"]))
    unit = doc["units"][i]
    unit["name"] = form.get("unit_name", unit["name"])
    unit.update(_profile(form, unit["formation"]))
    unit["note"] = form.get("unit_note", unit.get("note", ""))
    return doc


ACTIONS = {
    "add_unit": add_unit,
    "update_unit": update_unit,
}

# Actions that change one unit only: the editor redraws just that unit.
UNIT_ACTIONS = frozenset({"update_unit"})


def new_document(form: Form) -> dict[str, Any]:
    """A new, empty roster from the home page's form (an empty limit means the usual 30)."""
    return {"name": form.get("name", ""), "ruleset": RULESET,
            "points_limit": whole(form, "points_limit", required=False), "units": []}


def page_context(doc: Document, result: dict[str, Any], catalogue: dict[str, Any],
                 lang: Lang) -> dict[str, Any]:
    """The formations each class allows, so each unit's select offers only those."""
    return {
        "allowed_formations": {c["id"]: c["formations"] for c in catalogue["classes"]},
        "disciplines": list(range(catalogue["limits"]["discipline"]["min"],
                                  catalogue["limits"]["discipline"]["max"] + 1)),
    }
