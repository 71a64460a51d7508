"""The "Formation Density" editor's forms read as edits: a unit's density, files and points,
and its lines of warriors (class, weapon, count, protection, mounted, moved straight).

Form text becomes values here ("12,5" points are 12.5, an empty points field is "no points");
the edits then check ranges and ids, so a bad field is refused naming it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from app.domain.base import Lang, percent_text
from app.domain.form_reading import (
    Document,
    Edits,
    Form,
    FormError,
    checked,
    line_ids,
    present,
    whole,
)
from app.domain.translations import N_, tr
from app.systems.formation_density.catalogue import (
    CLASSES,
    FEATURES,
    WEAPONS,
    takes_shield,
    weapons_of,
)

RULESET = "formation_density"
LINE_FLAGS = ("shield", "armour", "mounted", "cavalry_armour", "moved_straight")

# "12", "2.5", "2,5" (a Russian keyboard writes the decimal comma).
_NUMBER = re.compile(r"[+]?\d{1,8}(?:[.,]\d{1,6})?")


def _points(form: Form, field: str) -> int | float | None:
    raw = form.get(field, "").strip()
    if not raw:
        return None
    if not _NUMBER.fullmatch(raw):
        raise FormError(field, tr(form.lang, "%(raw)s is not a number of points",
                                  raw=repr(raw[:20])))
    value = float(raw.replace(",", "."))
    return int(value) if value.is_integer() else value


# The add form's one select of the class and weapon pairs the weapon table allows:
# "shock_troops:pike". Nothing is stored before the unit is added, so two selects could not
# follow each other there without a script; one select offers only the allowed pairs.
KITS = frozenset(f"{c}:{w}" for c in CLASSES for w in weapons_of(c))


def _kit(form: Form) -> tuple[str, str]:
    """The new line's class and weapon: the add form's `kit`, or `class` and `weapon`."""
    raw = form.get("kit", "")
    if not raw:
        return form.get("class", ""), form.get("weapon", "")
    if raw not in KITS:
        raise FormError("kit", tr(form.lang, "not one of the choices"))
    line_class, _, weapon = raw.partition(":")
    return line_class, weapon


def _line(form: Form, suffix: str) -> dict[str, Any]:
    """One line of warriors from the form fields ending in `suffix` ("" or "_<line id>")."""
    line_class, weapon = _kit(form) if suffix == "" else (form.get(f"class{suffix}", ""),
                                                          form.get(f"weapon{suffix}", ""))
    return {"class": line_class, "weapon": weapon, "count": whole(form, f"count{suffix}"),
            **{flag: checked(form, f"{flag}{suffix}") for flag in LINE_FLAGS}}


def _profile(form: Form) -> dict[str, Any]:
    return {"density": whole(form, "density"), "files": whole(form, "files"),
            "points": _points(form, "points")}


def read(action: str, argument: str, form: Form) -> Edits | None:
    """The Formation Density forms' edits (a unit's lines by their ids), or None for an
    action of another form."""
    unit = form.get("unit", "")
    if action == "add_unit":
        return [{"op": "add_unit", "name": form.get("unit_name", "").strip(), **_profile(form),
                 "lines": [_line(form, "")]}]
    if action == "update_unit":
        return [{"op": "set_unit", "unit": unit, **_profile(form),
                 **present(form, name="unit_name", note="unit_note")},
                *({"op": "set_line", "unit": unit, "line": line, **_line(form, f"_{line}")}
                  for line in line_ids(form))]
    if action in ("add_line", "remove_line"):
        return [{"op": action, "unit": unit} | ({"line": argument} if argument else {})]
    return None


# Actions that change one unit only: the editor redraws just that unit.
UNIT_ACTIONS = frozenset({"update_unit", "add_line", "remove_line"})
LABELS = {
    "class": N_("Class"), "points": N_("Points"), "formation": N_("Formation"),
    "density": N_("Density"), "files": N_("Files"), "kit": N_("Class and weapon"),
    "shield": N_("Shield"), "armour": N_("Armour"), "mounted": N_("Mounted"),
    "cavalry_armour": N_("Cavalry armour"), "moved_straight": N_("Moved straight")}
# A field of a unit's line that another form names otherwise ("count" of an engine is its Count).
LINE_LABELS = {"count": N_("Warriors")}
VALUE_ERRORS: frozenset[str] = frozenset()
# A new unit is opened to edit: its folded row cannot change it.
NEW_UNIT_OPENS = True


def new_document(form: Form) -> dict[str, Any]:
    """A new, empty roster from the home page's form (points and a limit are optional)."""
    return {"name": form.get("name", ""), "ruleset": RULESET,
            "points_limit": whole(form, "points_limit", required=False), "units": []}


def chance_text(value: dict[str, Any] | None, lang: Lang) -> str | None:
    if value is None:
        return None
    exact = Fraction(value["exact"])
    if exact.denominator == 1:  # never or always: "0 %", not "0/1 (0 %)"
        return f"{percent_text(exact, lang)} %"
    return f"{value['exact']} ({percent_text(exact, lang)} %)"


def exact_text(text: str) -> str:
    """An exact number for people: "5/6", and "0", not "0/1"."""
    value = Fraction(text)
    return str(value.numerator) if value.denominator == 1 else text


# The field focused after "Add a line": the new line's first.
LINE_FIELD = "{unit}-{line}-count"


def page_context(doc: Document, result: dict[str, Any], catalogue: dict[str, Any],
                 lang: Lang) -> dict[str, Any]:
    """Display text of the derived figures (chances as fractions and percentages)."""
    return {
        "densities": list(range(catalogue["limits"]["density"]["min"],
                                catalogue["limits"]["density"]["max"] + 1)),
        "fd_chances": [[chance_text(line["hit_chance"], lang) for line in unit["lines"]]
                       for unit in result["units"]],
        "fd_shields": [chance_text(unit["shield_wall"]["chance"], lang)
                       if unit["shield_wall"] else None for unit in result["units"]],
        "fd_blocks": [exact_text(unit["shield_wall"]["expected_blocks"]["exact"])
                      if unit["shield_wall"] else None for unit in result["units"]],
        "fd_features": {f.id: f.text(lang, f.description) for f in FEATURES.values()},
        "fd_flags": LINE_FLAGS,
        # The row's tags: the flags any line of the unit has, in the form's order.
        "fd_worn": [[f for f in LINE_FLAGS if any(line[f] for line in unit["lines"])]
                    for unit in doc["units"]],
        **_choices(lang),
    }


def _choices(lang: Lang) -> dict[str, Any]:
    """What each line may be given: the weapons of each class (its select offers only those)
    and the weapons that leave no hand for a shield."""
    return {
        "fd_weapons": {c: {w: WEAPONS[w].name(lang) for w in weapons_of(c)} for c in CLASSES},
        "fd_no_shield": frozenset(w for w in WEAPONS if not takes_shield(w)),
        # Each pair names its class too: a closed select shows the option, not its group.
        "fd_kit_groups": [(CLASSES[c].name(lang),
                           {f"{c}:{w}": f"{CLASSES[c].name(lang)}: {WEAPONS[w].name(lang)}"
                            for w in weapons_of(c)}) for c in CLASSES],
    }
