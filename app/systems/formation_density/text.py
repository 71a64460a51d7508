""""Formation Density": the army sheet's words and the text exports (plain text, Markdown,
BBCode). Exports read only the army sheet (`app.systems.formation_density.sheet`)."""

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
from app.systems.formation_density.sheet import (
    OPTIONAL,
    FormationSheet,
    SheetLine,
    SheetUnit,
    army_sheet,
)

RULESET = "formation_density"
OPTIONAL_SECTIONS = OPTIONAL


def sheet_of(document: BaseModel, lang: Lang, optional: Iterable[str] = ()) -> FormationSheet:
    return army_sheet(document, lang, optional=optional)  # type: ignore[arg-type]


def _points_line(sheet: FormationSheet, lang: Lang) -> str:
    if sheet.points_limit is None:
        return points(sheet.total, lang) if sheet.priced else tr(lang, "not counted")
    assert sheet.remaining is not None
    return points_of_limit(sheet.total, sheet.points_limit, sheet.remaining, sheet.over_limit,
                           lang)


def _labels(lang: Lang) -> dict[str, str]:
    return {
        "points": tr(lang, "Points"),
        "warriors": tr(lang, "Warriors"),
        "total": tr(lang, "Total"),
        "note": ptr(lang, "sheet", "Note"),
        "unit": ptr(lang, "formation_density", "Unit"),
        "lines": tr(lang, "Warriors"),
        "formation": ptr(lang, "formation_density", "Formation"),
    }


def _head(unit: SheetUnit, lang: Lang) -> str:
    parts = [counted(unit.warriors, "warrior", lang)]
    if unit.points is not None:
        parts.append(points(unit.points, lang))
    return ", ".join(parts)


def _formation(unit: SheetUnit, lang: Lang) -> str:
    text = tr(lang, "density %(density)s, files %(files)s, ranks %(ranks)s (full %(full_ranks)s), "
              "front rank %(front_rank)s", density=unit.density, files=unit.files, ranks=unit.ranks,
              full_ranks=unit.full_ranks, front_rank=unit.front_rank)
    if unit.extra_hits:
        text += tr(lang, ", extra hits %(extra_hits)s", extra_hits=unit.extra_hits)
    if unit.shield_wall:
        text += tr(lang, ", shield wall %(shield_wall)s", shield_wall=unit.shield_wall)
    return text


def _line(line: SheetLine, lang: Lang) -> str:
    kit = f"; {line.kit}" if line.kit else ""
    return f"{line.text}{kit} — {line.hits}"


def text_sheet(document: BaseModel, lang: Lang) -> TextSheet:
    """The army as the text exports write it (app/domain/text_writing.py)."""
    sheet, words = sheet_of(document, lang), _labels(lang)
    units = tuple(TextUnit(
        unit.number, unit.name, _head(unit, lang), tags=tuple(unit.features), note=unit.note,
        details=(_formation(unit, lang), *(_line(line, lang) for line in unit.lines)),
        cells=(_formation(unit, lang), "; ".join(_line(line, lang) for line in unit.lines),
               str(unit.points) if unit.points is not None else "—"))
        for unit in sheet.units)
    return TextSheet(
        lang, sheet.name, sheet.ruleset_name,
        ((words["points"], _points_line(sheet, lang)),
         (words["warriors"], str(sheet.warriors))), units,
        (words["unit"], words["formation"], words["lines"], words["points"]),
        "|---:|---|---|---|---:|", f"{words['total']}: {_points_line(sheet, lang)}",
        sheet.legality, note=roster_note(document))


# --- the printed sheet ---------------------------------------------------------------------


def print_words(lang: Lang) -> dict[str, str]:
    """Every fixed word of the printed sheet, in the sheet's language (the frame's too)."""
    entries = {
        "not_counted": N_("not counted"),
        "of": N_("of"),
        "left": N_("{points} left"),
        "over": N_("{points} over the limit"),
        "warriors": N_("Warriors"),
        "units": N_("Units"),
        "density": N_("density"),
        "files": N_("files"),
        "ranks": N_("ranks"),
        "full": N_("full"),
        "front": N_("front rank"),
        "extra_hits": N_("extra hits"),
        "shield_wall": N_("shield wall"),
        "lines": N_("Warriors and weapons"),
        "cost": N_("Points"),
        "casualties": N_("Losses"),
        "more_figures": N_("+{n} more warriors: tally losses here"),
    }
    return {**frame_words(lang),
            **{key: tr(lang, text) for key, text in entries.items()},
            "unit": ptr(lang, "formation_density", "Unit"),
            "formation": ptr(lang, "formation_density", "Formation"),
            "no_units": ptr(lang, "sheet", "No units yet.")}


def print_context(sheet: FormationSheet) -> dict[str, Any]:
    """What the print template needs beyond the sheet and its words."""
    return {}
