"""What a player may write: a roster's or a unit's name (at most MAX_NAME characters, the
spaces around it dropped, and never only characters that nobody sees) and a note (no control
characters but tabs and line breaks); and how such text is read and drawn safely.

A name of zero-width spaces, joiners, byte-order marks, control characters or spaces looks
empty on every page, sheet and export, but is not. A roster's name is required, so it must
show a character. A unit may be left unnamed (an empty name, or spaces only, is stored as ""
and shown as "Unit 3"), but not named with nothing visible.

The rule is a pattern, so that the JSON Schema states exactly what is refused and pydantic
checks it without Python. Its classes are written out, not `\\s` or `\\p{Cf}`: JSON Schema
(ECMA-262), Python's `re` (the fuzzer's) and pydantic's regular expressions disagree on both.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import StringConstraints

from app.domain import limits

# What pydantic's strip_whitespace removes around a name (Rust's char::is_whitespace, the
# Unicode White_Space property).
WHITE_SPACE: tuple[tuple[int, int], ...] = (
    (0x0009, 0x000D), (0x0020, 0x0020), (0x0085, 0x0085), (0x00A0, 0x00A0), (0x1680, 0x1680),
    (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000),
)
# Characters that show nothing: controls (Cc), format characters (Cf: zero-width space and
# joiners, direction marks, word joiner, byte-order mark, tags …), separators (Zs, Zl, Zp),
# and Unicode's other default-ignorable code points (Hangul fillers, variation selectors, the
# combining grapheme joiner …); Unicode 14, Python 3.11's. tests/unit/test_player_text.py holds the
# list to unicodedata.
INVISIBLE: tuple[tuple[int, int], ...] = (
    (0x0000, 0x0020), (0x007F, 0x00A0), (0x00AD, 0x00AD), (0x034F, 0x034F), (0x0600, 0x0605),
    (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0x115F, 0x1160), (0x1680, 0x1680), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x2000, 0x200F),
    (0x2028, 0x202F), (0x205F, 0x206F), (0x3000, 0x3000), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _class(ranges: tuple[tuple[int, int], ...]) -> str:
    """The ranges as the inside of a character class that every regex dialect reads alike:
    `\\uXXXX` in the Basic Multilingual Plane, the character itself beyond it (ECMA-262 has
    no escape for it without braces, which Python's `re` does not read)."""
    def one(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)
    return "".join(one(low) if low == high else f"{one(low)}-{one(high)}"
                   for low, high in ranges)


# C0 control characters (and DEL) are refused in every text a player writes: a NUL is written
# raw into a page, becomes a space in an export, and PostgreSQL's text columns drop it. A note
# keeps its tabs and line breaks (a form's textarea sends CR LF).
CONTROLS: tuple[tuple[int, int], ...] = ((0x0000, 0x001F), (0x007F, 0x007F))
NOTE_CONTROLS: tuple[tuple[int, int], ...] = (
    (0x0000, 0x0008), (0x000B, 0x000C), (0x000E, 0x001F), (0x007F, 0x007F))

# A roster's name: some character that shows, and no control character. A unit's: that, or
# nothing but spaces (which stripping leaves empty: an unnamed unit).
_NO_CONTROL = f"[^{_class(CONTROLS)}]*"
VISIBLE = f"^{_NO_CONTROL}[^{_class(INVISIBLE)}]{_NO_CONTROL}$"
VISIBLE_OR_BLANK = f"^[{_class(WHITE_SPACE)}]*$|{VISIBLE}"
NOTE = f"^[^{_class(NOTE_CONTROLS)}]*$"
# What a refusal by each pattern says (the patterns are classes of some thirty ranges).
MESSAGES = {
    VISIBLE: "must contain a visible character and no control characters",
    VISIBLE_OR_BLANK: "must contain a visible character and no control characters",
    NOTE: "must not contain control characters other than tabs and line breaks",
}
PATTERNS = frozenset(MESSAGES)

UnitName = Annotated[str, StringConstraints(strip_whitespace=True, max_length=limits.MAX_NAME,
                                            pattern=VISIBLE_OR_BLANK)]
RosterName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                              max_length=limits.MAX_NAME, pattern=VISIBLE)]
Note = Annotated[str, StringConstraints(max_length=limits.MAX_NOTE, pattern=NOTE)]

_VISIBLE = re.compile(VISIBLE)
_VISIBLE_OR_BLANK = re.compile(VISIBLE_OR_BLANK)
_CONTROL = re.compile(f"[{_class(CONTROLS)}]")
_NOTE_CONTROL = re.compile(f"[{_class(NOTE_CONTROLS)}]")
# What a stored roster named with nothing visible is called when it is read (see `mended`).
UNNAMED = "—"


def _shown(name: Any, shows: re.Pattern[str], instead: str) -> Any:
    """A stored name without control characters, or `instead` when it then shows nothing."""
    if not isinstance(name, str):
        return name
    name = _CONTROL.sub("", name)
    return name if shows.search(name) else instead


def _unit_mended(unit: Any) -> Any:
    if not isinstance(unit, dict):
        return unit
    out = {**unit, "name": _shown(unit.get("name"), _VISIBLE_OR_BLANK, "")}
    if "name" not in unit:
        del out["name"]
    if isinstance(out.get("note"), str):
        out["note"] = _NOTE_CONTROL.sub("", out["note"])
    return out


def mended(document: Any) -> dict[str, Any] | None:
    """A stored document (as parsed JSON) whose names show nothing or hold control characters,
    with those characters dropped (notes keep tabs and line breaks), its roster named UNNAMED
    and such units unnamed; None if no text needs it. For rosters stored before these were
    refused: they are read as they look, and stored so at their next change."""
    if not isinstance(document, dict):
        return None
    out = dict(document)
    if "name" in out:
        out["name"] = _shown(out["name"], _VISIBLE, UNNAMED)
    units = out.get("units")
    if isinstance(units, list):
        out["units"] = [_unit_mended(unit) for unit in units]
    return None if out == document else out


# Bidirectional embeddings and overrides (LRE RLE PDF LRO RLO) and isolates (LRI RLI FSI PDI).
_OPENS = {"\u202a": "\u202c", "\u202b": "\u202c", "\u202d": "\u202c", "\u202e": "\u202c",
          "\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069"}
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def balanced(text: str) -> str:
    """`text` with every bidirectional embedding, override or isolate that is not closed
    within it (and every closing one that opens nothing) dropped: an unclosed right-to-left
    override in a name would otherwise reverse what a page writes after it (its cost)."""
    if not _BIDI.search(text):
        return text
    kept = [True] * len(text)
    stack: list[int] = []
    for at, ch in enumerate(text):
        if ch in _OPENS:
            stack.append(at)
        elif ch in ("\u202c", "\u2069"):
            if stack and _OPENS[text[stack[-1]]] == ch:
                stack.pop()
            else:
                kept[at] = False
    for at in stack:
        kept[at] = False
    return "".join(ch for ch, keep in zip(text, kept, strict=True) if keep)
