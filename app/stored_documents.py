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

from typing import Any

from pydantic import BaseModel, TypeAdapter

from app.kept import Kept
from app.rules import RosterDocument

DOCUMENT: TypeAdapter[Any] = TypeAdapter(RosterDocument)
# A roster of some forty units is about 16 KB of text; bigger ones are rare and parsed anew.
# At most 256 kept per process: a few MB whatever is stored.
MAX_ENTRIES = 256
MAX_TEXT = 16 * 1024


class ParsedDocuments(Kept[str, BaseModel]):
    def __init__(self, entries: int = MAX_ENTRIES, longest: int = MAX_TEXT) -> None:
        super().__init__(entries)
        self.longest = longest

    def parse(self, text: str) -> BaseModel:
        """The document this text holds; invalid text raises pydantic's ValidationError."""
        found = self.get(text)
        if found is None:
            found = DOCUMENT.validate_json(text)
            self.keep(text, found)
        return found

    def keep(self, text: str, document: BaseModel) -> None:
        """Note that `text` is `document` serialised (as it was just stored)."""
        if len(text) <= self.longest:
            self.put(text, document)


parsed = ParsedDocuments()
