"""Chainmail's army sheet words and its text exports (plain text, Markdown, BBCode).

Exports read only the army sheet (`app.systems.chainmail.sheet`), never the roster's own shape.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from app.domain.base import Lang, decimal_text
from app.domain.text_writing import (
    TextSheet,
    TextTable,
    TextUnit,
    frame_words,
    points,
    points_of_limit,
    roster_note,
)
from app.domain.translations import N_, counted, ntr, ptr, tr
from app.systems.chainmail.sheet import OPTIONAL, ArmySheet, SheetUnit, Thresholds, army_sheet

RULESET = "chainmail"
OPTIONAL_SECTIONS = OPTIONAL


def sheet_of(document: BaseModel, lang: Lang, optional: Iterable[str] = ()) -> ArmySheet:
    return army_sheet(document, lang, optional=optional)  # type: ignore[arg-type]


# --- the words every format shares ------------------------------------------------------------


def _subtitle(sheet: ArmySheet, lang: Lang) -> str:
    kind = tr(lang, "historical") if sheet.historical else tr(
        lang, "not historical")
    return f"{sheet.ruleset_name} — {sheet.nation_name} ({kind})"


def _points_line(sheet: ArmySheet, lang: Lang) -> str:
    if sheet.points_limit is None:
        return points(sheet.total, lang)
    assert sheet.remaining is not None
    return points_of_limit(sheet.total, sheet.points_limit, sheet.remaining, sheet.over_limit,
                           lang)


def _figures_line(sheet: ArmySheet, lang: Lang) -> str:
    return tr(lang, "%(figures)s (foot %(foot)s, horse %(horse)s); engines %(engine_count)s",
              figures=sheet.figures, foot=sheet.foot, horse=sheet.horse,
              engine_count=sheet.engine_count)


def _labels(lang: Lang) -> dict[str, str]:
    return {
        "points": tr(lang, "Points"),
        "figures": tr(lang, "Figures"),
        "units": tr(lang, "Units"),
        "engines": ptr(lang, "sheet", "Engines"),
        "total": tr(lang, "Total"),
        "mercenary": tr(lang, "mercenary"),
        "each": tr(lang, "each"),
        "note": ptr(lang, "sheet", "Note"),
        "unit": ptr(lang, "chainmail", "Unit"),
        "troops": tr(lang, "Troops"),
        "cost": tr(lang, "Cost"),
        "count": tr(lang, "Count"),
    }


def _traits(unit: SheetUnit, lang: Lang) -> list[str]:
    traits = list(unit.flag_names)
    if unit.mercenary:
        traits.insert(0, _labels(lang)["mercenary"])
    return traits


def _line_text(line: Any, lang: Lang) -> str:
    return f"{line.text} — {points(line.cost_per_figure, lang)} {_labels(lang)['each']}"


# --- the formats ------------------------------------------------------------------------------


def text_sheet(document: BaseModel, lang: Lang) -> TextSheet:
    """The army as the text exports write it (app/domain/text_writing.py)."""
    sheet, words = sheet_of(document, lang), _labels(lang)
    units = tuple(TextUnit(
        unit.number, unit.name, f"{counted(unit.figures, 'figure', lang)}, "
        f"{points(unit.cost, lang)}", tags=tuple(_traits(unit, lang)), note=unit.note,
        details=tuple(f"{_line_text(line, lang)} = {points(line.cost, lang)}"
                      for line in unit.lines),
        cells=(str(unit.figures), "; ".join(_line_text(line, lang) for line in unit.lines),
               unit.cost)) for unit in sheet.units)
    engines = tuple(
        (f"{engine.name} ({words['mercenary']})" if engine.mercenary else engine.name,
         engine.count, engine.cost) for engine in sheet.engines)
    tables = (TextTable(
        words["engines"], tuple(f"{count} × {name} — {points(cost, lang)}"
                                for name, count, cost in engines),
        (words["engines"], words["count"], words["cost"]), "|---|---:|---:|",
        tuple((name, str(count), cost) for name, count, cost in engines)),) if engines else ()
    return TextSheet(
        lang, sheet.name, _subtitle(sheet, lang),
        ((words["points"], _points_line(sheet, lang)),
         (words["figures"], _figures_line(sheet, lang))), units,
        (words["unit"], words["figures"], words["troops"], words["cost"]),
        "|---:|---|---:|---|---:|", f"{words['total']}: {points(sheet.total, lang)}",
        sheet.legality, note=roster_note(document), tables=tables)


# --- the printed sheet ---------------------------------------------------------------------


def print_words(lang: Lang) -> dict[str, str]:
    """Every fixed word of the printed sheet, in the sheet's language (the frame's too)."""
    entries = {
        "historical": N_("historical"),
        "not_historical": N_("not historical"),
        "fortifications": N_("holds fortifications"),
        "of": N_("of"),
        "left": N_("{points} left"),
        "over": N_("{points} over the limit"),
        "figures": N_("Figures"),
        "foot": N_("foot"),
        "horse": N_("horse"),
        "morale_test": N_("Morale test for losses (man-to-man combat)"),
        "units": N_("Units"),
        "troops": N_("Troops"),
        "per_figure": N_("Per figure"),
        "cost": N_("Cost"),
        "rating": N_("Morale (T. 19)"),
        "casualties": N_("Casualties"),
        "more_figures": N_("+{n} more figures: tally losses here"),
        "mercenary": N_("mercenary"),
        "count": N_("Count"),
        "engine": N_("Engine"),
        "applies_to": N_("Applies to"),
    }
    return {**frame_words(lang),
            **{key: tr(lang, text) for key, text in entries.items()},
            "unit": ptr(lang, "chainmail", "Unit"),
            "engines": ptr(lang, "sheet", "Engines"),
            "no_units": ptr(lang, "sheet", "No units yet.")}


def print_context(sheet: ArmySheet) -> dict[str, Any]:
    """What the print template needs beyond the sheet and its words."""
    return {"has_ratings": any(unit.rating is not None for unit in sheet.units),
            "morale_rule": morale_rule(sheet.thresholds, sheet.lang),
            "calculators": calculators(sheet)}


def calculators(sheet: ArmySheet) -> list[tuple[str, str]]:
    """The table calculators this army uses, linked from the sheet on screen: siege with
    engines, the tournament with knights, man-to-man combat always."""
    lang = sheet.lang
    found = []
    if sheet.engines:
        found.append(("/calc/siege", tr(lang, "Siege calculator")))
    if any("knights" in unit.flags for unit in sheet.units):
        found.append(("/calc/tournament", tr(lang, "Tournament")))
    found.append(("/calc/man-to-man", tr(lang, "Man-to-man combat")))
    return [(f"{href}?lang={lang}", title) for href, title in found]


def morale_rule(thresholds: Thresholds, lang: Lang) -> str:
    """The threshold, not a share that is not one: 4 lost of 10 is 40 %, but the test falls
    due then because 3 lost is not yet a third. The seed states it only in the man-to-man
    section's «Мораль», whose first words spare castle defenders: the line says both."""
    lost, figures = thresholds.one_third_lost, thresholds.figures
    rule = ntr(lang, "once %(lost)s of %(n)s figure are lost (a third), %(standing)s left "
               "standing", "once %(lost)s of %(n)s figures are lost (a third), %(standing)s "
               "left standing", figures, lost=lost, standing=thresholds.standing_at_test)
    share = decimal_text("33.3", lang) + "%"
    return rule + tr(lang, " (man-to-man combat, “Morale”: “if %(share)s of the whole army is "
                     "destroyed”; castle defenders need not test)", share=share)
