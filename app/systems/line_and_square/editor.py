"""The "Line and Square" editor's forms read as edits: one form per unit with its whole profile.

Form text becomes values here (a blank accuracy is "no accuracy", "2,5" points are 2.5); the
edits then check ranges and ids, so a bad field is refused naming it.
"""

from __future__ import annotations

import re
from typing import Any

from app.domain.base import Lang
from app.domain.form_reading import Document, Edits, Form, FormError, checked, present, whole
from app.domain.translations import N_, tr

RULESET = "line_and_square"

# "12", "2.5", "2,5" (a Russian keyboard writes the decimal comma).
_NUMBER = re.compile(r"[+]?\d{1,6}(?:[.,]\d{1,6})?")


def _points(form: Form, field: str) -> int | float:
    lang = form.lang
    raw = form.get(field, "").strip()
    if not raw:
        raise FormError(field, tr(lang, "points are required (0 to 100, halves allowed)"))
    if not _NUMBER.fullmatch(raw):
        raise FormError(field, tr(lang, "%(raw)s is not a number of points", raw=repr(raw[:20])))
    value = float(raw.replace(",", "."))
    return int(value) if value.is_integer() else value


def _profile(form: Form) -> dict[str, Any]:
    """The unit's fields as its edits take them (`class` the form's name and the edit's)."""
    return {
        "class": form.get("class", ""),
        "figures": whole(form, "figures"),
        "speed": whole(form, "speed"),
        # No accuracy is a real value ("cannot shoot"), written as an empty field.
        "accuracy": whole(form, "accuracy", required=False),
        "discipline": whole(form, "discipline"),
        "points": _points(form, "points"),
        "officer": checked(form, "officer"),
    }


def read(action: str, argument: str, form: Form) -> Edits | None:
    """The Line and Square forms' edits, or None for an action of another form. The add form
    has no formation (which formations a class may take is shown once the class is chosen):
    a new unit starts in the domain's loose order."""
    if action == "add_unit":
        return [{"op": "add_unit", "name": form.get("unit_name", "").strip(), **_profile(form),
                 **present(form, note="unit_note")}]
    if action == "update_unit":
        return [{"op": "set_unit", "unit": form.get("unit", ""), **_profile(form),
                 **present(form, name="unit_name", note="unit_note", formation="formation")}]
    return None


# Actions that change one unit only: the editor redraws just that unit.
UNIT_ACTIONS = frozenset({"update_unit"})
LABELS = {
    "figures": N_("Figures"), "class": N_("Class"), "speed": N_("Speed (″)"),
    "accuracy": N_("Accuracy"), "discipline": N_("Discipline"), "points": N_("Points"),
    "formation": N_("Formation"), "officer": N_("Officer within 12″"),
    "disorder": N_("Disorder markers")}
LINE_LABELS: dict[str, str] = {}
VALUE_ERRORS: frozenset[str] = frozenset()
# A new unit is opened to edit: its folded row cannot change it.
NEW_UNIT_OPENS = True


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
