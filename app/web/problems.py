"""A refused form in the player's words and language: which unit, line and field, and what is
allowed. The API keeps pydantic's own wording and field paths (`units[0].lines[1].figures:
Input should be …`), which clients and scripts match on; a page says "Unit 1, line 2, Figures:
must be at least 1" in English or Russian.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from app.domain import RULESETS, names
from app.domain.text import N_
from app.errors import describe
from app.web.i18n import gettext, pgettext

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
    return text


def message(error: Mapping[str, Any]) -> str:
    """What is allowed, in the page's language, for one of pydantic's errors (its type and
    context); its own English words for a kind of error no form can make."""
    kind, ctx = error.get("type", ""), error.get("ctx") or {}
    if kind == "greater_than_equal":
        return gettext("must be at least %(n)s") % {"n": _number(ctx.get("ge"))}
    if kind == "greater_than":
        return gettext("must be more than %(n)s") % {"n": _number(ctx.get("gt"))}
    if kind == "less_than_equal":
        return gettext("must be at most %(n)s") % {"n": _number(ctx.get("le"))}
    if kind == "less_than":
        return gettext("must be less than %(n)s") % {"n": _number(ctx.get("lt"))}
    if kind == "string_too_long":
        return gettext("at most %(n)s characters") % {"n": ctx.get("max_length")}
    if kind in ("string_too_short", "missing"):
        return gettext("required")
    if kind == "too_long":
        return gettext("at most %(n)s") % {"n": ctx.get("max_length")}
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == names.NOTE:
        return gettext("must not contain control characters other than tabs and line breaks")
    if kind == "string_pattern_mismatch" and ctx.get("pattern") in names.PATTERNS:
        return gettext("must contain a visible character and no control characters")
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return gettext("must be a whole number")
    if kind in ("literal_error", "enum"):
        return gettext("not one of the choices")
    return str(error.get("message") or error.get("msg") or "")


def problem_text(errors: Iterable[Mapping[str, Any]], most: int = 5,
                 system: str | None = None) -> str:
    """pydantic's errors (with their context: the bound a value broke) in the player's words,
    '; '-separated; the fields as app.errors.describe finds them in the document, named in
    the words of `system`, or of the rule system whose model refused the document (its tag
    in the error's path: an import or a new army knows no other)."""
    raw = [dict(e) for e in errors][:most]
    return "; ".join(
        f"{field_label(d['field'], system=system or _system_of(e.get('loc')))}: {message(e)}"
        for e, d in zip(raw, describe(raw), strict=True))


def edit_problem(field: str, text: str, unit: str | None = None,
                 system: str | None = None) -> str:
    """An editor action's refusal (app.web.editing.EditError), its field named as the form
    of `system` (the roster's rule system) shows it."""
    return f"{field_label(field, unit, system)}: {text}"
