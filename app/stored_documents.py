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

import threading
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from app.rules import RosterDocument

DOCUMENT: TypeAdapter[Any] = TypeAdapter(RosterDocument)
# A roster of some forty units is about 16 KB of text; bigger ones are rare and parsed anew.
# At most 256 kept per process: a few MB whatever is stored.
MAX_ENTRIES = 256
MAX_TEXT = 16 * 1024


K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most `entries` values, the oldest kept dropped first; safe between threads (a read
    takes no lock: a dict's `get` is atomic under the interpreter lock)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._kept: dict[K, V] = {}
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        return self._kept.get(key)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._kept.pop(key, None)  # a value put again counts as new
            self._kept[key] = value
            while len(self._kept) > self.entries:  # the oldest first
                del self._kept[next(iter(self._kept))]

    def __len__(self) -> int:
        return len(self._kept)


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
