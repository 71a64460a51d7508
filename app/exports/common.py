"""Escaping shared by every text export: player text cannot break or inject into a format."""

from __future__ import annotations

import re
import unicodedata

from app.domain.base import Lang, pick, read_points
from app.domain.words import counted

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
FRAME_WORDS: dict[str, tuple[str, str]] = {
    "share": ("Share link", "Ссылка на армию"),
    "reference": ("Rules for this army", "Правила для этой армии"),
    "problems": ("Rule problems", "Нарушения правил"),
    "print_hint": ("Print this page from the browser (Ctrl+P).",
                   "Напечатайте эту страницу из браузера (Ctrl+P)."),
    "points": ("Points", "Очки"),
    "paper": ("Paper", "Бумага"),
    "options": ("Sheet options", "Настройки листа"),
    "optional_sections": ("Also print", "Также напечатать"),
    "note": ("Note", "Примечание"),
    "legality": ("Legality", "Соответствие правилам"),
    "language": ("Language", "Язык"),
    "back": ("Back to the roster", "Назад к армии"),
    "army_sheet": ("Army sheet", "Лист армии"),
    "apply": ("Show", "Показать"),
}


def frame_words(lang: Lang) -> dict[str, str]:
    return {key: pick(lang, en, ru) for key, (en, ru) in FRAME_WORDS.items()}


def points(text: str, lang: Lang) -> str:
    """A sheet's points (written in the sheet's language) with their noun: "12,5 очка"."""
    return counted(read_points(text), "point", lang)


def points_of_limit(total: str, limit: int, remaining: str, over: bool, lang: Lang,
                    usual: bool = False) -> str:
    """A sheet's points against its limit: "21.5 of 30 points (8.5 left)", "32 of 30 points
    (2 over)", "21,5 из 30 очков (осталось 8,5, обычный лимит)"."""
    if over:
        by = remaining.lstrip("-")
        rest = pick(lang, f"{by} over", f"превышен на {by}")
    else:
        rest = pick(lang, f"{remaining} left", f"осталось {remaining}")
    if usual:
        rest += pick(lang, ", the usual limit", ", обычный лимит")
    of = counted(limit, "point_of", lang)  # "из 21 очка", "из 30 очков"
    return pick(lang, f"{total} of {of} ({rest})", f"{total} из {of} ({rest})")
