"""Skirmish's editor: one form adds a unit of a troop type."""

from __future__ import annotations

from typing import Any

from app.domain.base import Lang
from app.domain.form_reading import Document, Edits, Form, whole
from app.domain.translations import N_

UNIT_ACTIONS: frozenset[str] = frozenset()
LINE_FIELD = "{unit}-figures"
NEW_UNIT_OPENS = False
LABELS = {"troop": N_("Troop type"), "figures": N_("Figures")}
LINE_LABELS: dict[str, str] = {}
VALUE_ERRORS: frozenset[str] = frozenset()


def read(action: str, argument: str, form: Form) -> Edits | None:
    if action == "add_unit":
        return [{"op": "add_unit", "name": form.get("unit_name", ""),
                 "troop": form.get("troop", ""), "figures": whole(form, "figures")}]
    return None


def new_document(form: Form) -> dict[str, Any]:
    return {"name": form.get("name", ""), "ruleset": "skirmish",
            "points_limit": form.get("points_limit", "").strip() or None, "units": []}


def page_context(doc: Document, result: dict[str, Any], catalogue: dict[str, Any],
                 lang: Lang) -> dict[str, Any]:
    return {}
