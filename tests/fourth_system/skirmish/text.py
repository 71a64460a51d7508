"""Skirmish's army sheet and text exports: one line a unit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.domain.base import Lang
from app.domain.text_writing import TextSheet, TextUnit

OPTIONAL_SECTIONS: tuple[str, ...] = ()


def sheet_of(document: Any, lang: Lang, optional: Iterable[str] = ()) -> dict[str, Any]:
    from . import evaluate  # the package's, once it is imported

    return {"name": document.name, "total": evaluate(document, lang).result["total"]}


def text_sheet(document: Any, lang: Lang) -> TextSheet:
    from . import POINTS

    units = tuple(TextUnit(i, u.name, f"{u.figures} {u.troop}, {POINTS[u.troop] * u.figures} pts")
                  for i, u in enumerate(document.units, 1))
    total = sheet_of(document, lang)["total"]
    return TextSheet(lang, document.name, "Skirmish", (), units, ("Unit",), "|---:|---|",
                     f"Total: {total} pts", "")


def print_words(lang: Lang) -> dict[str, str]:
    return {}


def print_context(sheet: Any) -> dict[str, Any]:
    return {}
