""""Line and Square": the army sheet's words and the text exports (plain text, Markdown,
BBCode). Exports read only the army sheet (`app.systems.line_and_square.sheet`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from app.domain.base import Lang
from app.domain.text_writing import (
    TextSheet,
    TextUnit,
    frame_words,
    points,
    points_of_limit,
    roster_note,
)
from app.domain.translations import N_, counted, ptr, tr
from app.systems.line_and_square.sheet import LineAndSquareSheet, SheetUnit, army_sheet

RULESET = "line_and_square"
OPTIONAL_SECTIONS: tuple[str, ...] = ()


def sheet_of(document: BaseModel, lang: Lang, optional: Iterable[str] = ()) -> LineAndSquareSheet:
    unknown = sorted(set(optional))
    if unknown:  # the print page checks first; this keeps any other caller honest
        raise ValueError(f"unknown section {', '.join(unknown)}; this sheet has none to choose")
    return army_sheet(document, lang)  # type: ignore[arg-type]


def points_line(sheet: LineAndSquareSheet, lang: Lang) -> str:
    """'21.5 of 30 points (8.5 left)'; the usual limit says so."""
    return points_of_limit(sheet.total, sheet.points_limit, sheet.remaining, sheet.over_limit,
                           lang, usual=sheet.default_limit)


def break_line(sheet: LineAndSquareSheet, lang: Lang) -> str:
    return " ".join(sheet.break_points)


def _labels(lang: Lang) -> dict[str, str]:
    return {
        "points": tr(lang, "Points"),
        "figures": tr(lang, "Figures"),
        "officers": tr(lang, "Officers"),
        "break": tr(lang, "Break points"),
        "total": tr(lang, "Total"),
        "note": ptr(lang, "sheet", "Note"),
        "actions": tr(lang, "Actions"),
        "order_test": tr(lang, "Order test"),
        "unit": tr(lang, "Unit"),
        "profile": tr(lang, "Profile"),
    }


def head(unit: SheetUnit, lang: Lang) -> str:
    """'Grenadiers, 16 figures, 12.5 points, officer'."""
    parts = [unit.class_name, counted(unit.figures, "figure", lang),
             points(unit.points, lang)]
    if unit.officer:
        parts.append(tr(lang, "officer"))
    return ", ".join(parts)


def profile(unit: SheetUnit, lang: Lang) -> str:
    return tr(lang, "%(formation_name)s; speed %(speed)s\", accuracy %(accuracy)s, discipline "
              "%(discipline)s", formation_name=unit.formation_name, speed=unit.speed,
              accuracy=unit.accuracy, discipline=unit.discipline)


def chances(unit: SheetUnit, lang: Lang) -> str:
    """'26/36 · 21/36 · 15/36 (0/1/2 disorder); officer in reach: 30/36 · …'."""
    alone = " · ".join(c.fraction for c in unit.chances if not c.officer_in_reach)
    led = " · ".join(c.fraction for c in unit.chances if c.officer_in_reach)
    if unit.officer:  # always within 12″ of its own officer: only its chances with him
        return tr(lang, "%(led)s (0/1/2 disorder markers; the officer's own unit)", led=led)
    return tr(lang, "%(alone)s (0/1/2 disorder markers); officer in reach: %(led)s", alone=alone,
              led=led)


def text_sheet(document: BaseModel, lang: Lang) -> TextSheet:
    """The army as the text exports write it (app/domain/text_writing.py)."""
    sheet, words = sheet_of(document, lang), _labels(lang)
    units = tuple(TextUnit(
        unit.number, unit.name, head(unit, lang), note=unit.note,
        details=(profile(unit, lang), f"{words['actions']}: {', '.join(unit.actions)}",
                 f"{words['order_test']}: {chances(unit, lang)}"),
        cells=(f"{unit.class_name}{', ' + tr(lang, 'officer') if unit.officer else ''}; "
               f"{profile(unit, lang)}", ", ".join(unit.actions), chances(unit, lang),
               str(unit.points))) for unit in sheet.units)
    return TextSheet(
        lang, sheet.name, sheet.ruleset_name,
        ((words["points"], points_line(sheet, lang)),
         (words["figures"], f"{sheet.figures} · {words['officers']}: {sheet.officers}"),
         (words["break"], break_line(sheet, lang))), units,
        (words["unit"], words["profile"], words["actions"], words["order_test"],
         words["points"]), "|---:|---|---|---|---|---:|",
        f"{words['total']}: {points_line(sheet, lang)}", sheet.legality,
        note=roster_note(document))


# --- the printed sheet ---------------------------------------------------------------------


def print_words(lang: Lang) -> dict[str, str]:
    """Every fixed word of the printed sheet, in the sheet's language (the frame's too)."""
    entries = {
        "figures": N_("Figures"),
        "officers": N_("Officers"),
        "break_points": N_("Break points"),
        "unit": N_("Unit"),
        "profile": N_("Profile"),
        "formation": N_("formation"),
        "speed": N_("speed"),
        "accuracy": N_("accuracy"),
        "discipline": N_("discipline"),
        "officer": N_("officer"),
        "actions": N_("Actions"),
        "order_test": N_("Order test"),
        "alone": N_("no officer"),
        "led": N_("officer in reach"),
        "own": N_("the officer's own unit"),
        "markers": N_("disorder markers: 0 / 1 / 2"),
        "cost": N_("Points"),
        "casualties": N_("Losses"),
        "more_figures": N_("+{n} more figures: tally losses here"),
    }
    return {**frame_words(lang),
            **{key: tr(lang, text) for key, text in entries.items()},
            "units": ptr(lang, "line_and_square", "Units"),
            "no_units": ptr(lang, "line_and_square", "No units yet.")}


def print_context(sheet: LineAndSquareSheet) -> dict[str, Any]:
    """What the print template needs beyond the sheet and its words."""
    return {"points_line": points_line(sheet, sheet.lang)}
