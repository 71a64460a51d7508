"""Escaping shared by every text export: player text cannot break or inject into a format."""

from __future__ import annotations

import re
import unicodedata

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
