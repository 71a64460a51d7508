"""The text exports every system shares: escaping (player text cannot break or inject into a
format), the sheet's frame words, points in words, and one writer a format (plain text,
Markdown, BBCode) over the `TextSheet` each system makes."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from app.domain.base import Lang, read_points
from app.domain.translations import N_, counted, ptr, tr

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


def roster_note(document: object) -> str:
    """The roster's own note (each unit's is written with the unit), or "" without one."""
    return str(getattr(document, "note", "") or "").strip()


def bb(text: str) -> str:
    """BBCode has no escape every forum honours, so square brackets become their full-width
    look-alikes: the name still reads the same and no tag can open."""
    return one_line(text).replace("[", "［").replace("]", "］")


# Words of the printed sheet's frame (templates/print/base.html), the same in every system.
FRAME_WORDS: dict[str, str] = {
    "share": N_("Share link"),
    "reference": N_("Rules for this army"),
    "problems": N_("Rule problems"),
    "print_hint": N_("Print this page from the browser (Ctrl+P)."),
    "points": N_("Points"),
    "paper": N_("Paper"),
    "options": N_("Sheet options"),
    "optional_sections": N_("Also print"),
    "legality": N_("Legality"),
    "language": N_("Language"),
    "back": N_("Back to the roster"),
    "army_sheet": N_("Army sheet"),
    "apply": N_("Show"),
}


def frame_words(lang: Lang) -> dict[str, str]:
    return {**{key: tr(lang, text) for key, text in FRAME_WORDS.items()},
            "note": ptr(lang, "sheet", "Note")}


def points(text: str, lang: Lang) -> str:
    """A sheet's points (written in the sheet's language) with their noun: "12,5 очка"."""
    return counted(read_points(text), "point", lang)


def points_of_limit(total: str, limit: int, remaining: str, over: bool, lang: Lang,
                    usual: bool = False) -> str:
    """A sheet's points against its limit: "21.5 of 30 points (8.5 left)", "32 of 30 points
    (2 over)", "21,5 из 30 очков (осталось 8,5, обычный лимит)"."""
    if over:
        by = remaining.lstrip("-")
        rest = tr(lang, "%(by)s over", by=by)
    else:
        rest = tr(lang, "%(remaining)s left", remaining=remaining)
    if usual:
        rest += tr(lang, ", the usual limit")
    of = counted(limit, "point_of", lang)  # "из 21 очка", "из 30 очков"
    return tr(lang, "%(total)s of %(of)s (%(rest)s)", total=total, of=of, rest=rest)


# --- one writer a format, over every system's sheet as text ---------------------------------


@dataclass(frozen=True)
class TextUnit:
    """A unit as the text exports write it: the player's `name` and `note`, and Muster's
    words: its `head` ("16 figures, 64 points"), its `tags` (special rules), a line a
    `details` entry, and its Markdown table's `cells` after its number and name."""

    number: int
    name: str
    head: str
    details: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class TextTable:
    """A list after the units (Chainmail's engines): its `lines` in plain text and BBCode,
    its `rows` of cells under `columns` in Markdown."""

    title: str
    lines: tuple[str, ...]
    columns: tuple[str, ...]
    align: str
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class TextSheet:
    """A roster's sheet as every text format writes it; each system makes its own
    (`Writers.text_sheet`) and the three writers below draw it."""

    lang: Lang
    name: str
    subtitle: str
    facts: tuple[tuple[str, str], ...]  # (label, value) lines under the title
    units: tuple[TextUnit, ...]
    columns: tuple[str, ...]  # the Markdown units table's, after "#"
    align: str
    total: str  # "Total: 112 points"
    legality: str
    note: str = ""
    tables: tuple[TextTable, ...] = ()

    @property
    def note_word(self) -> str:
        return ptr(self.lang, "sheet", "Note")


def plain_text(sheet: TextSheet) -> str:
    """Plain text for chats: units, costs, totals and the list's legality in one line."""
    out = [one_line(sheet.name), sheet.subtitle, *(f"{k}: {v}" for k, v in sheet.facts), ""]
    if sheet.note:
        out.insert(-1, f"{sheet.note_word}: {one_line(sheet.note)}")
    for unit in sheet.units:
        tags = f" [{', '.join(unit.tags)}]" if unit.tags else ""
        out.append(f"{unit.number}. {one_line(unit.name)} — {unit.head}{tags}")
        out += [f"   {detail}" for detail in unit.details]
        if unit.note:
            out.append(f"   {sheet.note_word}: {one_line(unit.note)}")
    for table in sheet.tables:
        out += [f"{table.title}:", *(f"   {line}" for line in table.lines)]
    out += ["", sheet.total, sheet.legality]
    return "\n".join(out) + "\n"


def markdown(sheet: TextSheet) -> str:
    # Only the players' text needs escaping; the catalogue's and Muster's words are known.
    out = [f"# {md(sheet.name)}", "", sheet.subtitle, "",
           *(f"- **{k}:** {v}" for k, v in sheet.facts), ""]
    if sheet.note:
        out.insert(-1, f"- **{sheet.note_word}:** {md(sheet.note)}")
    if sheet.units:
        out += [f"| # | {' | '.join(sheet.columns)} |", sheet.align]
        for unit in sheet.units:
            name = md(unit.name) + (f" ({', '.join(unit.tags)})" if unit.tags else "")
            name += f" — {md(unit.note)}" if unit.note else ""
            out.append(f"| {unit.number} | {name} | {' | '.join(unit.cells)} |")
        out.append("")
    for table in sheet.tables:
        out += [f"| {' | '.join(table.columns)} |", table.align,
                *(f"| {' | '.join(row)} |" for row in table.rows), ""]
    out.append(f"**{sheet.total}** — {sheet.legality}")
    return "\n".join(out) + "\n"


def bbcode(sheet: TextSheet) -> str:
    out = [f"[b]{bb(sheet.name)}[/b]", bb(sheet.subtitle),
           *(f"[b]{k}:[/b] {bb(v)}" for k, v in sheet.facts)]
    if sheet.note:
        out.append(f"[i]{sheet.note_word}: {bb(sheet.note)}[/i]")
    if sheet.units:
        out.append("[list=1]")
        for unit in sheet.units:
            tags = f" [i]({bb(', '.join(unit.tags))})[/i]" if unit.tags else ""
            out.append(f"[*][b]{bb(unit.name)}[/b] — {bb(unit.head)}{tags}")
            out += [bb(detail) for detail in unit.details]
            if unit.note:
                out.append(f"[i]{sheet.note_word}: {bb(unit.note)}[/i]")
        out.append("[/list]")
    for table in sheet.tables:
        out += [f"[b]{table.title}:[/b]", "[list]", *(f"[*]{bb(line)}" for line in table.lines),
                "[/list]"]
    out.append(f"[b]{bb(sheet.total)}[/b] — {bb(sheet.legality)}")
    return "\n".join(out) + "\n"
