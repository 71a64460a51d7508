"""A refused form in the player's words and language: which unit, line and field, and what is
allowed. The API keeps pydantic's own wording and field paths (`units[0].lines[1].figures:
Input should be …`), which clients and scripts match on; a page says "Unit 1, line 2, Figures:
must be at least 1" in English or Russian.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from app.domain import RULESETS, names
from app.domain.base import decimal_text
from app.domain.chainmail.roster import VALUE_ERRORS
from app.domain.field_errors import describe
from app.domain.text import N_
from app.web.i18n import current_lang, gettext, pgettext

# Form fields and document keys, by the label the forms show them with (their msgids).
LABELS: dict[str, str] = dict((
    ("name", N_("Name")), ("unit_name", N_("Unit name")), ("points_limit", N_("Points limit")),
    ("nation", N_("Nation")), ("ruleset", N_("Rule system")), ("preset", N_("Preset")),
    ("figures", N_("Figures")), ("troop", N_("Troop type")), ("weapon", N_("Weapon")),
    ("count", N_("Count")), ("kind", N_("Engine")), ("note", N_("Note")),
    ("unit_note", N_("Note")), ("class", N_("Class")), ("speed", N_("Speed (″)")),
    ("accuracy", N_("Accuracy")), ("discipline", N_("Discipline")), ("points", N_("Points")),
    ("formation", N_("Formation")), ("density", N_("Density")), ("files", N_("Files")),
    ("units", N_("Units")), ("lines", N_("Lines")), ("engines", N_("Engines")),
    ("file", N_("File")), ("disorder", N_("Disorder markers")),
    ("officer", N_("Officer within 12″")), ("undo_to", N_("Undo")),
    ("make_legal", N_("Make it legal")), ("kit", N_("Class and weapon")),
    # A file's keys that no form names by themselves.
    ("historical", N_("Historical (keep the nation's proportions)")),
    ("fortifications", N_("Defends fortifications")), ("flags", N_("Special rules")),
    ("mercenary", N_("Mercenary (half cost)")), ("shield", N_("Shield")),
    ("armour", N_("Armour")), ("mounted", N_("Mounted")),
    ("cavalry_armour", N_("Cavalry armour")), ("moved_straight", N_("Moved straight")),
))
# A field of a unit's line that another form names otherwise ("count" of an engine is its Count).
LINE_LABELS: dict[str, str] = {"count": N_("Warriors")}
# "figures_0", "troop_1": a field of a unit's line, numbered from 0 in the form.
_LINE_FIELD = re.compile(r"(?P<field>[a-z_]+?)_(?P<line>\d+)")
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
    its tag ('line_and_square') first in the error's path."""
    first = loc[0] if isinstance(loc, (list, tuple)) and loc else None
    return first if isinstance(first, str) and first in RULESETS else None


def field_label(field: str, unit: str | None = None, system: str | None = None) -> str:
    """'units[2].lines[0].figures' → 'Unit 3, line 1, Figures'; 'figures_0' of the form of unit
    2 → 'Unit 3, line 1, Figures'; 'points_limit' → 'Points limit'. A unit of `system` (the
    roster's rule system, when known) is named in its own word: 'Подразделение 3' for Line
    and Square in Russian, 'Отряд 3' for the others."""
    parts: list[str] = []
    if unit is not None and unit.isdigit():
        parts.append(_word("Unit %(n)s", system) % {"n": int(unit) + 1})
    in_line = False
    for step in field.split("."):
        indexed = _STEP.fullmatch(step)
        line = _LINE_FIELD.fullmatch(step)
        if indexed:
            n = int(indexed["index"]) + 1
            key = indexed["key"]
            in_line = key == "lines"
            parts.append(_word("Unit %(n)s", system) % {"n": n} if key == "units" else
                         gettext("line %(n)s") % {"n": n} if key == "lines" else
                         gettext("engine %(n)s") % {"n": n} if key == "engines" else
                         f"{_label(key, system=system)} {n}")
        elif line and line["field"] in LABELS and step not in LABELS:
            parts.append(gettext("line %(n)s") % {"n": int(line["line"]) + 1})
            parts.append(_label(line["field"], of_line=True, system=system))
        else:
            parts.append(_label(step, of_line=in_line, system=system))
    label = ", ".join(parts)
    return label[:1].upper() + label[1:]  # "Engine 2, Count", as a sentence starts


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
    return ", ".join(f'"{system}"' for system in RULESETS)


def message(error: Mapping[str, Any]) -> str:
    """What is allowed, in the page's language, for one of pydantic's errors (its type and
    context): what a form or a file gave wrong, in a sentence of the page's language."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind in _PLAIN:
        return gettext(_PLAIN[kind])
    if kind in _BOUNDS:
        text, key = _BOUNDS[kind]
        return gettext(text) % {"n": _number(ctx.get(key))}
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == names.NOTE:
        return gettext("must not contain control characters other than tabs and line breaks")
    if kind == "string_pattern_mismatch" and ctx.get("pattern") in names.PATTERNS:
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
    '; '-separated; the fields as `describe` (app/domain/field_errors.py) finds them in the
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


def edit_problem(field: str, text: str, unit: str | None = None,
                 system: str | None = None) -> str:
    """An editor action's refusal (app.web.editing.EditError), its field named as the form
    of `system` (the roster's rule system) shows it."""
    return f"{field_label(field, unit, system)}: {text}"
