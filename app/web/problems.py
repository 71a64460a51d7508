"""A refused form in the player's words and language: which unit, line and field, and what is
allowed. The API keeps pydantic's own wording and field paths (`units[0].lines[1].figures:
Input should be …`), which clients and scripts match on; a page says "Unit 1, line 2, Figures:
must be at least 1" in English or Russian.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from app.domain import player_text
from app.domain.base import Lang, decimal_text
from app.domain.edits import EditError
from app.domain.form_reading import Document
from app.domain.translations import N_
from app.systems import SYSTEMS
from app.systems.field_errors import describe
from app.web.i18n import current_lang, gettext, pgettext

# Form fields and document keys every system shares, by the label the forms show them with
# (their msgids); each system's own are its editor's (`Editor.LABELS`).
_SHARED: dict[str, str] = {
    "name": N_("Name"), "unit_name": N_("Unit name"), "points_limit": N_("Points limit"),
    "ruleset": N_("Rule system"), "note": N_("Note"), "unit_note": N_("Note"),
    "units": N_("Units"), "lines": N_("Lines"), "file": N_("File"), "undo_to": N_("Undo"),
    "make_legal": N_("Make it legal")}
LABELS: dict[str, str] = {key: label for system in reversed(SYSTEMS.values())
                          for key, label in system.editor.LABELS.items()} | _SHARED
LINE_LABELS: dict[str, str] = {key: label for system in SYSTEMS.values()
                               for key, label in system.editor.LINE_LABELS.items()}
VALUE_ERRORS = frozenset().union(*(system.editor.VALUE_ERRORS for system in SYSTEMS.values()))
_STEP = re.compile(r"(?P<key>[a-z_]+)\[(?P<index>\d+)\]")


def _word(message: str, system: str | None) -> str:
    """`message` as `system`'s pages word it (its gettext context: Line and Square's
    «подразделение», where the others say «отряд»; i18n.pgettext falls back to the general
    word), or as every page words it when the system is not known."""
    return pgettext(system, message) if system is not None else gettext(message)


def _label(key: str, of_line: bool = False, system: str | None = None) -> str:
    if of_line and key in LINE_LABELS:
        return _word(LINE_LABELS[key], system)
    return _word(LABELS[key], system) if key in LABELS else key


def _system_of(loc: Any) -> str | None:
    """The rule system whose model refused a value: the discriminated union of documents puts
    its tag (the system's id) first in the error's path."""
    first = loc[0] if isinstance(loc, (list, tuple)) and loc else None
    return first if isinstance(first, str) and first in SYSTEMS else None


def field_label(field: str, system: str | None = None) -> str:
    """'units[2].lines[0].figures' → 'Unit 3, line 1, Figures'; 'points_limit' → 'Points
    limit'. A unit of `system` (the roster's rule system, when known) is named in its own
    word: 'Подразделение 3' for Line and Square in Russian, 'Отряд 3' for the others."""
    parts: list[str] = []
    in_line = False
    for step in field.split("."):
        indexed = _STEP.fullmatch(step)
        if indexed:
            n = int(indexed["index"]) + 1
            key = indexed["key"]
            in_line = key == "lines"
            parts.append(_word("Unit %(n)s", system) % {"n": n} if key == "units" else
                         gettext("line %(n)s") % {"n": n} if key == "lines" else
                         gettext("engine %(n)s") % {"n": n} if key == "engines" else
                         f"{_label(key, system=system)} {n}")
        else:
            parts.append(_label(step, of_line=in_line, system=system))
    return _sentence(parts)


def _sentence(parts: list[str]) -> str:
    label = ", ".join(parts)
    return label[:1].upper() + label[1:]  # "Engine 2, Count", as a sentence starts


def _named(key: str, system: str | None, unit: int | None = None, line: int | None = None,
           engine: int | None = None) -> str:
    """A field as the editor's forms show it, in the unit, line or engine at those places:
    'Unit 3, line 2, Figures' (the places people see; the forms name them by id)."""
    parts = [_word("Unit %(n)s", system) % {"n": unit + 1}] if unit is not None else []
    parts += [gettext("line %(n)s") % {"n": line + 1}] if line is not None else []
    parts += [gettext("engine %(n)s") % {"n": engine + 1}] if engine is not None else []
    return _sentence([*parts, _label(key, of_line=line is not None, system=system)])


def _number(value: Any) -> str:
    text = str(value)
    if isinstance(value, (float, Decimal)) and Decimal(text) == Decimal(text).to_integral():
        return str(int(Decimal(text)))
    return decimal_text(text, current_lang())


# pydantic's kinds of error that say the same whatever their context (a form or a file).
_PLAIN: dict[str, str] = {
    "string_too_short": N_("required"), "missing": N_("required"),
    "int_parsing": N_("must be a whole number"), "int_type": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "literal_error": N_("not one of the choices"), "enum": N_("not one of the choices"),
    "bool_type": N_("must be true or false"), "bool_parsing": N_("must be true or false"),
    "string_type": N_("must be text in quotes"),
    "list_type": N_("must be a list in square brackets"),
    "model_type": N_("must be an object in braces"),
    "model_attributes_type": N_("must be an object in braces"),
    "dict_type": N_("must be an object in braces"),
    "float_type": N_("must be a number"), "float_parsing": N_("must be a number"),
    "finite_number": N_("must be a finite number"),
}
# A number the error's context gives: the msgid and the context's key for it.
_BOUNDS: dict[str, tuple[str, str]] = {
    "greater_than_equal": (N_("must be at least %(n)s"), "ge"),
    "greater_than": (N_("must be more than %(n)s"), "gt"),
    "less_than_equal": (N_("must be at most %(n)s"), "le"),
    "less_than": (N_("must be less than %(n)s"), "lt"),
    "string_too_long": (N_("at most %(n)s characters"), "max_length"),
    "too_long": (N_("at most %(n)s"), "max_length"),
    "too_short": (N_("at least %(n)s"), "min_length"),
    "multiple_of": (N_("must be a multiple of %(n)s"), "multiple_of"),
}
# What a value may be when no sentence above fits: never pydantic's English on a page.
_ANY = N_("not a value this field takes")


def _choices() -> str:
    return ", ".join(f'"{system}"' for system in SYSTEMS)


def message(error: Mapping[str, Any]) -> str:
    """What is allowed, in the page's language, for one of pydantic's errors (its type and
    context): what a form or a file gave wrong, in a sentence of the page's language."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind in _PLAIN:
        return gettext(_PLAIN[kind])
    if kind in _BOUNDS:
        text, key = _BOUNDS[kind]
        return gettext(text) % {"n": _number(ctx.get(key))}
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == player_text.NOTE:
        return gettext("must not contain control characters other than tabs and line breaks")
    if kind == "string_pattern_mismatch" and ctx.get("pattern") in player_text.PATTERNS:
        return gettext("must contain a visible character and no control characters")
    if kind == "union_tag_not_found":  # a file that says nothing of its rule system
        return gettext('not given in the file ("ruleset" is one of %(choices)s)') % {
            "choices": _choices()}
    if kind == "union_tag_invalid":
        tag = json.dumps(str(ctx.get("tag", "")), ensure_ascii=False)[:60]
        return gettext('no rule system %(tag)s: "ruleset" is one of %(choices)s') % {
            "tag": tag, "choices": _choices()}
    if kind == "value_error" and str(ctx.get("error", "")) in VALUE_ERRORS:
        # The document models' own checks, worded as msgids.
        return gettext(str(ctx["error"]))
    return gettext(_ANY)


def problem_text(errors: Iterable[Mapping[str, Any]], most: int = 5,
                 system: str | None = None) -> str:
    """pydantic's errors (with their context: the bound a value broke) in the player's words,
    '; '-separated; the fields as `describe` (app/systems/field_errors.py) finds them in the
    document, named in the words of `system`, or of the rule system whose model refused the
    document (its tag in the error's path: an import or a new army knows no other)."""
    raw = [dict(e) for e in errors][:most]
    return "; ".join(_problem(e, d["field"], system or _system_of(e.get("loc")))
                     for e, d in zip(raw, describe(raw), strict=True))


def _problem(error: Mapping[str, Any], field: str, system: str | None) -> str:
    if error.get("type") == "extra_forbidden":
        # A key the document does not have: said as the file writes it, where it stands.
        parent, _, key = field.rpartition(".")
        where = field_label(parent, system=system) if parent else gettext("File")
        return f"{where}: " + gettext('unknown field "%(key)s": remove it') % {"key": key[:60]}
    return f"{field_label(field, system=system)}: {message(error)}"


def _place(items: list[Any], item_id: Any) -> int | None:
    return next((i for i, item in enumerate(items) if item.get("id") == item_id), None)


def form_problem(field: str, text: str, doc: Document | None = None, unit: str | None = None,
                 system: str | None = None) -> str:
    """A form's text refused as it was read (app.domain.form_reading.FormError), its field named as
    the form of `system` shows it; `unit` the id of the unit whose form it is, in `doc`, and
    a line's field names its line by id (`figures_l2`): 'Unit 3, line 2, Figures: …'."""
    units = doc["units"] if doc else []
    at = _place(units, unit) if unit else None
    if at is None:
        return f"{_named(field, system)}: {text}"
    for j, line in enumerate(units[at].get("lines", [])):
        key = field.removesuffix(f"_{line['id']}")
        if key != field and key in LABELS:
            return f"{_named(key, system, at, j)}: {text}"
    return f"{_named(field, system, at)}: {text}"


# What an edit's address field names when it is refused: the list it was looked for in.
_ADDRESSES = {"unit": "units", "line": "lines", "engine": "engines"}


def _edit_field(edit: Mapping[str, Any], path: Sequence[Any], doc: Document,
                system: str) -> str:
    """The field at `path` of one edit (as data), named as the form it came from shows it:
    the unit, line and engine it acts on by their places in `doc` (a unit being added by
    the place it would take), then the field; an edit refused for what it names (no such
    unit, a list full) names the list."""
    op = str(edit.get("op", ""))
    units, engines = doc["units"], doc.get("engines", [])
    unit = len(units) if op == "add_unit" else _place(units, edit.get("unit"))
    lines = units[unit].get("lines", []) if unit is not None and unit < len(units) else []
    line, engine = _place(lines, edit.get("line")), _place(engines, edit.get("engine"))
    if len(path) > 2 and path[0] == "lines" and isinstance(path[1], int):
        line = path[1]  # a line of a unit being added
    key = next((step for step in reversed(path) if isinstance(step, str)), "op")
    if key == "op":
        key = op  # an edit refused as a whole: "Make it legal"
    elif key in _ADDRESSES:
        unit = None if key == "unit" else unit
        line = None if key in ("unit", "line") else line
        engine, key = None, _ADDRESSES[key]
    return _named(key, system, unit, line, engine)


def edit_problem(refused: EditError | ValidationError, edits: Sequence[Mapping[str, Any]],
                 doc: Document, system: str, lang: Lang) -> str:
    """An edit's refusal, by the domain (EditError) or by pydantic (an edit that is none, or
    a roster that would be none), in the page's language, its field named as the form shows
    it."""
    if isinstance(refused, EditError):
        at = refused.edit if refused.edit is not None and refused.edit < len(edits) else None
        edit = edits[at] if at is not None else {}
        return f"{_edit_field(edit, (refused.field,), doc, system)}: {refused.text(lang)}"
    errors = [dict(e) for e in refused.errors()][:5]
    if not all(isinstance(e["loc"][0], int) and e["loc"][0] < len(edits) for e in errors):
        return problem_text(errors, system=system)  # the roster the edits would make
    return "; ".join(
        f"{_named('ruleset', system)}: {gettext('not one of the choices')}"
        if len(e["loc"]) < 2 else  # no edit of this system (a form of another's)
        f"{_edit_field(edits[e['loc'][0]], e['loc'][2:], doc, system)}: {message(e)}"
        for e in errors)
