"""A roster taken out of Muster: as JSON that imports back, or as text to paste into a forum
post, a chat or a notes file (plain text, Markdown, BBCode), in English or Russian.

Names and notes are the players' own text, so every format escapes them: a name cannot open a
link, a table cell, a tag or a new line in the output.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from anyascii import anyascii
from pydantic import BaseModel

from app.domain.base import Lang
from app.domain.system import Writers
from app.domain.text_writing import bb, bbcode, markdown, md, one_line, plain_text
from app.systems import SYSTEMS

FORMAT = "muster-roster/1"
EXPORT_KEYS = ("format", "ruleset_version", "exported_at")

__all__ = ["FORMAT", "bb", "content_disposition", "export_bbcode", "export_json",
           "export_markdown", "export_text", "md", "one_line", "safe_filename", "sheet_of"]


def export_json(document: BaseModel, ruleset_version: str, now: datetime) -> dict[str, Any]:
    """The roster document of the API plus what an importer needs to know about it."""
    if now.tzinfo is None:  # a naive time is taken as UTC rather than as local guesswork
        now = now.replace(tzinfo=UTC)
    stamp = now.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    return {"format": FORMAT, "ruleset_version": ruleset_version, "exported_at": stamp,
            **document.model_dump(mode="json")}


def _system(document: BaseModel) -> Writers:
    return SYSTEMS[str(getattr(document, "ruleset", None))].writers


def sheet_of(document: BaseModel, lang: Lang, optional: Iterable[str] = ()) -> Any:
    """The rule system's army sheet for a document; `optional` names ticked sections."""
    return _system(document).sheet_of(document, lang, optional)


def export_text(document: BaseModel, lang: Lang = "en") -> str:
    """Plain text for chats: units, costs, totals and the list's legality in one line."""
    return plain_text(_system(document).text_sheet(document, lang))


def export_markdown(document: BaseModel, lang: Lang = "en") -> str:
    return markdown(_system(document).text_sheet(document, lang))


def export_bbcode(document: BaseModel, lang: Lang = "en") -> str:
    return bbcode(_system(document).text_sheet(document, lang))


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
