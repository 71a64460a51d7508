"""Roster documents read from their stored JSON text.

`DOCUMENT` is the one validator of roster documents (of every rule system) that the app's
layers share.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from app.domain import player_text
from app.systems import RosterDocument

DOCUMENT: TypeAdapter[Any] = TypeAdapter(RosterDocument)


def read_stored(text: str) -> BaseModel:
    """The document a stored text holds; invalid text raises pydantic's ValidationError. One
    stored before names had to show a character is read with those names mended
    (app.domain.player_text.mended), and is stored so at its next change."""
    try:
        return DOCUMENT.validate_json(text)  # type: ignore[no-any-return]
    except ValidationError:
        mended = player_text.mended(json.loads(text))
        if mended is None:
            raise
    return DOCUMENT.validate_json(json.dumps(mended))  # type: ignore[no-any-return]
