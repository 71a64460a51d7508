"""Roster documents parsed from their stored JSON text, the latest ones kept parsed.

`DOCUMENT` is the one validator of roster documents (of every rule system) that the app's
layers share. The editor reads the roster it wrote a moment before on every change; parsing
the stored text into the rule system's model again took about a twentieth of the change's
time in the interpreter (a profile of a server editing flat out). A document model is frozen,
so one parse can be shared by every request that reads the same text. Texts are the keys: a
new version is a new text, so nothing kept can go stale, and a text no longer stored is
simply never asked for again and falls out.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from app.kept import Kept
from app.rules import RosterDocument, names

DOCUMENT: TypeAdapter[Any] = TypeAdapter(RosterDocument)

# A parsed document takes about twelve times its text in memory (measured: 17 KB for a 10-unit
# roster of 1.4 KB of text, 161 KB for 100 units of 12.7 KB). A keeper of documents is bounded
# by the text it stands for: KEPT_TEXT in all, each text counted as at least MIN_WEIGHT (so at
# most 256 documents), none over MAX_TEXT (a roster of some five hundred units; bigger ones are
# parsed anew): some 12 MB per keeper, whatever is stored.
KEPT_TEXT = 1024 * 1024
MIN_WEIGHT = 4 * 1024
MAX_TEXT = 64 * 1024


def weight(text_length: int) -> int:
    """What a document of this much text counts for against KEPT_TEXT."""
    return max(text_length, MIN_WEIGHT)


def read_stored(text: str) -> BaseModel:
    """The document a stored text holds; invalid text raises pydantic's ValidationError. One
    stored before names had to show a character is read with those names mended
    (app.rules.names.mended), and is stored so at its next change."""
    try:
        return DOCUMENT.validate_json(text)  # type: ignore[no-any-return]
    except ValidationError:
        mended = names.mended(json.loads(text))
        if mended is None:
            raise
    return DOCUMENT.validate_json(json.dumps(mended))  # type: ignore[no-any-return]


class ParsedDocuments:
    def __init__(self, kept_text: int = KEPT_TEXT, longest: int = MAX_TEXT) -> None:
        self.longest = longest
        self._kept: Kept[str, tuple[BaseModel, int]] = Kept(kept_text,
                                                             weigh=lambda kept: kept[1])

    def parse(self, text: str) -> BaseModel:
        """The document this text holds; invalid text raises pydantic's ValidationError."""
        found = self._kept.get(text)
        if found is not None:
            return found[0]
        document = read_stored(text)
        self.keep(text, document)
        return document

    def keep(self, text: str, document: BaseModel) -> None:
        """Note that `text` is `document` serialised (as it was just stored)."""
        if len(text) <= self.longest:
            self._kept.put(text, (document, weight(len(text))))

    def __len__(self) -> int:
        return len(self._kept)


parsed = ParsedDocuments()
