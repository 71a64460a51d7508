"""JSON text read strictly: a key given twice in one object is refused, not taken as its last
value (RFC 8259 leaves that to the reader; taking the last would let two readers of one body
disagree on what it says)."""

from __future__ import annotations

import json
from typing import Any


class RepeatedKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} is given twice")
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise RepeatedKey(key)
        found[key] = value
    return found


def loads(text: str | bytes) -> Any:
    """`json.loads`, RepeatedKey for a key twice in one object."""
    return json.loads(text, object_pairs_hook=_once_each)
