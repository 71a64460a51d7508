"""Pydantic's validation errors as the fields they name and what is wrong with each: how every
refused document is told, by the API (its 422), the pages and the imports alike."""

from __future__ import annotations

from typing import Any

from app.domain import player_text
from app.systems import SYSTEMS


def field_path(loc: tuple[Any, ...] | list[Any]) -> str:
    """('body', 'units', 0, 'lines', 1, 'troop') -> 'units[0].lines[1].troop'."""
    path = ""
    for part in loc:
        if part in ("body",) and not path:
            continue
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            # Discriminated unions add the tag ('chainmail') to the path; it is no field.
            path += f".{part}" if path else str(part)
    return path or "body"


def describe(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for error in errors:
        loc = [p for p in error.get("loc", ()) if p not in _TAGS]
        message = error.get("msg", "invalid")
        if error.get("type") in ("union_tag_invalid", "union_tag_not_found"):
            # The rule-system union names no field when `ruleset` is missing or unknown.
            tag = str((error.get("ctx") or {}).get("discriminator", "ruleset")).strip("'")
            loc = [*loc, tag]
            if error.get("type") == "union_tag_not_found":
                message = "Field required: one of " + ", ".join(f"'{r}'" for r in SYSTEMS)
        if (error.get("type") == "string_pattern_mismatch"
                and (error.get("ctx") or {}).get("pattern") in player_text.PATTERNS):
            message = player_text.MESSAGES[error["ctx"]["pattern"]]  # not the pattern itself
        out.append({"field": field_path(loc), "message": message,
                    "type": error.get("type", "value_error"), "loc": loc})
    return out


# Discriminated unions put the tag ('chainmail') into the path; it is no field. Known from the
# registry at import, so code that describes errors without an app (imports) strips them too.
# The systems' ids, and the tags of the calculators' input models' unions.
_TAGS: set[str] = set(SYSTEMS) | {tag for system in SYSTEMS.values()
                                  for calc in system.calculators for tag in calc.error_tags}


def register_tags(tags: set[str]) -> None:
    _TAGS.update(tags)
