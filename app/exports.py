"""A roster taken out of Muster: as JSON that imports back, or as text to paste into a forum
post, a chat or a notes file (plain text, Markdown, BBCode), in English or Russian.

Names and notes are the players' own text, so every format escapes them: a name cannot open a
link, a table cell, a tag or a new line in the output.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any
from urllib.parse import quote

from anyascii import anyascii
from pydantic import BaseModel

from app.rules.base import Lang, pick
from app.rules.chainmail.sheet import ArmySheet, SheetUnit, army_sheet, counted

FORMAT = "muster-roster/1"
EXPORT_KEYS = ("format", "ruleset_version", "exported_at")

# Each rule system's army sheet; exports read only the sheet, never the roster's own shape.
SHEETS: dict[str, Callable[..., ArmySheet]] = {"chainmail": army_sheet}


def export_json(document: BaseModel, ruleset_version: str, now: datetime) -> dict[str, Any]:
    """The roster document of the API plus what an importer needs to know about it."""
    if now.tzinfo is None:  # a naive time is taken as UTC rather than as local guesswork
        now = now.replace(tzinfo=UTC)
    stamp = now.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return {"format": FORMAT, "ruleset_version": ruleset_version, "exported_at": stamp,
            **document.model_dump(mode="json")}


def sheet_of(document: BaseModel, lang: Lang, optional: Iterable[str] = ()) -> ArmySheet:
    """The rule system's army sheet for a document; `optional` names ticked sections."""
    ruleset = getattr(document, "ruleset", None)
    build = SHEETS.get(str(ruleset))
    if build is None:
        raise ValueError(f"no army sheet for ruleset {ruleset!r}")
    return build(document, lang, optional=optional)


# --- escaping -------------------------------------------------------------------------------

# Direction overrides could make a name display as something it is not.
_BIDI = dict.fromkeys(map(ord, "\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                               "\u2066\u2067\u2068\u2069"), None)


def one_line(text: str) -> str:
    """Player text on one line: control characters and line breaks become spaces."""
    text = text.translate(_BIDI)
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    return " ".join(text.split())


_MD_SPECIAL = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark


def md(text: str) -> str:
    """CommonMark lets any ASCII punctuation be backslash-escaped, which makes it literal:
    no emphasis, link, HTML tag, entity, heading, list or table cell can start inside."""
    return _MD_SPECIAL.sub(r"\\\1", one_line(text))


def bb(text: str) -> str:
    """BBCode has no escape every forum honours, so square brackets become their full-width
    look-alikes: the name still reads the same and no tag can open."""
    return one_line(text).replace("[", "［").replace("]", "］")


# --- the words every format shares ------------------------------------------------------------


def _points(value: str, lang: Lang) -> str:
    return counted(Fraction(value), "point", lang)


def _subtitle(sheet: ArmySheet, lang: Lang) -> str:
    kind = pick(lang, "historical", "историческая") if sheet.historical else pick(
        lang, "not historical", "не историческая")
    return f"{sheet.ruleset_name} — {sheet.nation_name} ({kind})"


def _points_line(sheet: ArmySheet, lang: Lang) -> str:
    if sheet.points_limit is None:
        return _points(sheet.total, lang)
    assert sheet.remaining is not None
    left = (pick(lang, f"{sheet.remaining} left", f"осталось {sheet.remaining}")
            if not sheet.over_limit else
            pick(lang, f"{sheet.remaining.lstrip('-')} over", f"превышен на "
                 f"{sheet.remaining.lstrip('-')}"))
    return pick(lang, f"{sheet.total} of {sheet.points_limit} points ({left})",
                f"{sheet.total} из {sheet.points_limit} очков ({left})")


def _figures_line(sheet: ArmySheet, lang: Lang) -> str:
    return pick(lang, f"{sheet.figures} (foot {sheet.foot}, horse {sheet.horse}); "
                      f"engines {sheet.engine_count}",
                f"{sheet.figures} (пехота {sheet.foot}, конница {sheet.horse}); "
                f"машин {sheet.engine_count}")


def _labels(lang: Lang) -> dict[str, str]:
    return {
        "points": pick(lang, "Points", "Очки"),
        "figures": pick(lang, "Figures", "Фигуры"),
        "units": pick(lang, "Units", "Отряды"),
        "engines": pick(lang, "Engines", "Машины"),
        "total": pick(lang, "Total", "Итого"),
        "mercenary": pick(lang, "mercenary", "наёмники"),
        "each": pick(lang, "each", "за фигуру"),
        "note": pick(lang, "Note", "Примечание"),
        "unit": pick(lang, "Unit", "Отряд"),
        "troops": pick(lang, "Troops", "Войска"),
        "cost": pick(lang, "Cost", "Стоимость"),
        "count": pick(lang, "Count", "Количество"),
    }


def _traits(unit: SheetUnit, lang: Lang) -> list[str]:
    traits = list(unit.flag_names)
    if unit.mercenary:
        traits.insert(0, _labels(lang)["mercenary"])
    return traits


def _line_text(line: Any, lang: Lang) -> str:
    return f"{line.text} — {_points(line.cost_per_figure, lang)} {_labels(lang)['each']}"


# --- the formats ------------------------------------------------------------------------------


def export_text(document: BaseModel, lang: Lang = "en") -> str:
    sheet, words = sheet_of(document, lang), _labels(lang)
    out = [one_line(sheet.name), _subtitle(sheet, lang),
           f"{words['points']}: {_points_line(sheet, lang)}",
           f"{words['figures']}: {_figures_line(sheet, lang)}", ""]
    for unit in sheet.units:
        traits = _traits(unit, lang)
        head = (f"{unit.number}. {one_line(unit.name)} — "
                f"{counted(unit.figures, 'figure', lang)}, {_points(unit.cost, lang)}")
        out.append(head + (f" [{', '.join(traits)}]" if traits else ""))
        out += [f"   {_line_text(line, lang)} = {_points(line.cost, lang)}"
                for line in unit.lines]
        if unit.note:
            out.append(f"   {words['note']}: {one_line(unit.note)}")
    if sheet.engines:
        out.append(f"{words['engines']}:")
        for engine in sheet.engines:
            merc = f" ({words['mercenary']})" if engine.mercenary else ""
            out.append(f"   {engine.count} × {engine.name}{merc} — {_points(engine.cost, lang)}")
    out += ["", f"{words['total']}: {_points(sheet.total, lang)}", sheet.legality]
    return "\n".join(out) + "\n"


def export_markdown(document: BaseModel, lang: Lang = "en") -> str:
    sheet, words = sheet_of(document, lang), _labels(lang)
    # Only the players' text needs escaping; the catalogue's and Muster's words are known.
    out = [f"# {md(sheet.name)}", "", _subtitle(sheet, lang), "",
           f"- **{words['points']}:** {_points_line(sheet, lang)}",
           f"- **{words['figures']}:** {_figures_line(sheet, lang)}", ""]
    if sheet.units:
        out += [f"| # | {words['unit']} | {words['figures']} | {words['troops']} | "
                f"{words['cost']} |", "|---:|---|---:|---|---:|"]
        for unit in sheet.units:
            name = md(unit.name)
            traits = _traits(unit, lang)
            if traits:
                name += f" ({', '.join(traits)})"
            if unit.note:
                name += f" — {md(unit.note)}"
            troops = "; ".join(_line_text(line, lang) for line in unit.lines)
            out.append(f"| {unit.number} | {name} | {unit.figures} | {troops} | {unit.cost} |")
        out.append("")
    if sheet.engines:
        out += [f"| {words['engines']} | {words['count']} | {words['cost']} |",
                "|---|---:|---:|"]
        for engine in sheet.engines:
            merc = f" ({words['mercenary']})" if engine.mercenary else ""
            out.append(f"| {engine.name}{merc} | {engine.count} | {engine.cost} |")
        out.append("")
    out += [f"**{words['total']}: {_points(sheet.total, lang)}** — {sheet.legality}"]
    return "\n".join(out) + "\n"


def export_bbcode(document: BaseModel, lang: Lang = "en") -> str:
    sheet, words = sheet_of(document, lang), _labels(lang)
    out = [f"[b]{bb(sheet.name)}[/b]", bb(_subtitle(sheet, lang)),
           f"[b]{words['points']}:[/b] {bb(_points_line(sheet, lang))}",
           f"[b]{words['figures']}:[/b] {bb(_figures_line(sheet, lang))}"]
    if sheet.units:
        out.append("[list=1]")
        for unit in sheet.units:
            traits = _traits(unit, lang)
            head = (f"[*][b]{bb(unit.name)}[/b] — {counted(unit.figures, 'figure', lang)}, "
                    f"{bb(_points(unit.cost, lang))}")
            out.append(head + (f" [i]({bb(', '.join(traits))})[/i]" if traits else ""))
            out += [bb(_line_text(line, lang)) for line in unit.lines]
            if unit.note:
                out.append(f"[i]{words['note']}: {bb(unit.note)}[/i]")
        out.append("[/list]")
    if sheet.engines:
        out.append(f"[b]{words['engines']}:[/b]")
        out.append("[list]")
        for engine in sheet.engines:
            merc = f" ({words['mercenary']})" if engine.mercenary else ""
            out.append(f"[*]{engine.count} × {bb(engine.name)}{merc} — "
                       f"{bb(_points(engine.cost, lang))}")
        out.append("[/list]")
    out.append(f"[b]{words['total']}: {bb(_points(sheet.total, lang))}[/b] — "
               f"{bb(sheet.legality)}")
    return "\n".join(out) + "\n"


# --- file names -------------------------------------------------------------------------------

MAX_STEM = 60
_UNSAFE_ASCII = re.compile(r"[^A-Za-z0-9._-]+")
_UNSAFE_ANY = re.compile(r"[\\/:*?\"<>|;%]+")
# Names Windows refuses for a file whatever its extension.
_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
             *(f"lpt{i}" for i in range(10))}


def _stem(text: str, unsafe: re.Pattern[str]) -> str:
    stem = unsafe.sub("-", one_line(text).replace(" ", "-"))
    stem = re.sub(r"-{2,}", "-", stem).strip(".-_ ")[:MAX_STEM].rstrip(".-_ ")
    if not stem or stem.lower() in _RESERVED:
        stem = f"{stem}-roster" if stem else "roster"
    return stem


def _extension(ext: str) -> str:
    return re.sub(r"[^a-z0-9]", "", ext.lower())[:10] or "txt"


def safe_filename(name: str, ext: str) -> str:
    """An ASCII file name every system and browser keeps as given: Cyrillic is transliterated
    ('Орда Субэдэя' -> 'Orda-Subedeya.json'), anything else unsafe becomes '-', never a path
    separator, quote or leading dot, at most 60 characters before the extension."""
    return f"{_stem(anyascii(name), _UNSAFE_ASCII)}.{_extension(ext)}"


def content_disposition(name: str, ext: str) -> str:
    """`attachment` with the ASCII name for every client and the player's own (UTF-8, RFC
    5987) for the browsers that read `filename*`."""
    ascii_name = safe_filename(name, ext)
    own = f"{_stem(name, _UNSAFE_ANY)}.{_extension(ext)}"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(own, safe='')}"
