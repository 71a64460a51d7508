"""Skirmish's army sheet and text exports: one line a unit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.domain.base import Lang
from app.domain.text_writing import bb, md, one_line

OPTIONAL_SECTIONS: tuple[str, ...] = ()


def sheet_of(document: Any, lang: Lang, optional: Iterable[str] = ()) -> dict[str, Any]:
    from . import POINTS, evaluate  # the package's, once it is imported

    result = evaluate(document, lang).result
    return {"name": document.name, "total": result["total"],
            "units": [(one_line(u.name), u.figures, u.troop, POINTS[u.troop] * u.figures)
                      for u in document.units]}


def export_text(document: Any, lang: Lang = "en") -> str:
    sheet = sheet_of(document, lang)
    lines = [f"{name}: {figures} {troop}, {cost} pts" for name, figures, troop, cost
             in sheet["units"]]
    return "\n".join([one_line(sheet["name"]), *lines, f"Total: {sheet['total']} pts"])


def export_markdown(document: Any, lang: Lang = "en") -> str:
    return md(export_text(document, lang))


def export_bbcode(document: Any, lang: Lang = "en") -> str:
    return bb(export_text(document, lang))


def print_words(lang: Lang) -> dict[str, str]:
    return {}


def print_context(sheet: Any) -> dict[str, Any]:
    return {}
