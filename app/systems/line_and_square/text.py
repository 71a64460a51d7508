""""Line and Square": the army sheet's words and the text exports (plain text, Markdown,
BBCode). Exports read only the army sheet (`app.systems.line_and_square.sheet`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from app.domain.base import Lang
from app.domain.text_writing import (
    bb,
    frame_words,
    md,
    one_line,
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


def export_text(document: BaseModel, lang: Lang = "en") -> str:
    sheet, words = sheet_of(document, lang), _labels(lang)
    out = [one_line(sheet.name), sheet.ruleset_name,
           f"{words['points']}: {points_line(sheet, lang)}",
           f"{words['figures']}: {sheet.figures} · {words['officers']}: {sheet.officers}",
           f"{words['break']}: {break_line(sheet, lang)}", ""]
    if note := roster_note(document):
        out.insert(-1, f"{words['note']}: {one_line(note)}")
    for unit in sheet.units:
        out.append(f"{unit.number}. {one_line(unit.name)} — {head(unit, lang)}")
        out.append(f"   {profile(unit, lang)}")
        out.append(f"   {words['actions']}: {', '.join(unit.actions)}")
        out.append(f"   {words['order_test']}: {chances(unit, lang)}")
        if unit.note:
            out.append(f"   {words['note']}: {one_line(unit.note)}")
    out += ["", f"{words['total']}: {points_line(sheet, lang)}", sheet.legality]
    return "\n".join(out) + "\n"


def export_markdown(document: BaseModel, lang: Lang = "en") -> str:
    sheet, words = sheet_of(document, lang), _labels(lang)
    # Only the players' text needs escaping; the catalogue's and Muster's words are known.
    out = [f"# {md(sheet.name)}", "", sheet.ruleset_name, "",
           f"- **{words['points']}:** {points_line(sheet, lang)}",
           f"- **{words['figures']}:** {sheet.figures} · **{words['officers']}:** "
           f"{sheet.officers}",
           f"- **{words['break']}:** {break_line(sheet, lang)}", ""]
    if note := roster_note(document):
        out.insert(-1, f"- **{words['note']}:** {md(note)}")
    if sheet.units:
        out += [f"| # | {words['unit']} | {words['profile']} | {words['actions']} | "
                f"{words['order_test']} | {words['points']} |", "|---:|---|---|---|---|---:|"]
        for unit in sheet.units:
            name = f"{md(unit.name)} ({unit.class_name}"
            name += tr(lang, ", officer)") if unit.officer else ")"
            if unit.note:
                name += f" — {md(unit.note)}"
            out.append(f"| {unit.number} | {name} | {profile(unit, lang)} | "
                       f"{', '.join(unit.actions)} | {chances(unit, lang)} | {unit.points} |")
        out.append("")
    out.append(f"**{words['total']}: {points_line(sheet, lang)}** — {sheet.legality}")
    return "\n".join(out) + "\n"


def export_bbcode(document: BaseModel, lang: Lang = "en") -> str:
    sheet, words = sheet_of(document, lang), _labels(lang)
    out = [f"[b]{bb(sheet.name)}[/b]", bb(sheet.ruleset_name),
           f"[b]{words['points']}:[/b] {bb(points_line(sheet, lang))}",
           f"[b]{words['figures']}:[/b] {sheet.figures} · [b]{words['officers']}:[/b] "
           f"{sheet.officers}",
           f"[b]{words['break']}:[/b] {bb(break_line(sheet, lang))}"]
    if note := roster_note(document):
        out.append(f"[i]{words['note']}: {bb(note)}[/i]")
    if sheet.units:
        out.append("[list=1]")
        for unit in sheet.units:
            out.append(f"[*][b]{bb(unit.name)}[/b] — {bb(head(unit, lang))}")
            out.append(bb(profile(unit, lang)))
            out.append(f"{words['actions']}: {bb(', '.join(unit.actions))}")
            out.append(f"{words['order_test']}: {bb(chances(unit, lang))}")
            if unit.note:
                out.append(f"[i]{words['note']}: {bb(unit.note)}[/i]")
        out.append("[/list]")
    out.append(f"[b]{words['total']}: {bb(points_line(sheet, lang))}[/b] — "
               f"{bb(sheet.legality)}")
    return "\n".join(out) + "\n"


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
