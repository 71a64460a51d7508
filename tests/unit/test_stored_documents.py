"""A stored text reads back as the document it holds, and bad text is refused."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from pydantic import ValidationError

from app.systems.stored_documents import DOCUMENT, read_stored
from tests.unit.strategies import rosters


@settings(max_examples=60, deadline=None)
@given(rosters)
def test_a_stored_text_reads_back_as_its_document(roster: dict[str, Any]) -> None:
    text = DOCUMENT.validate_python(roster).model_dump_json()
    read = read_stored(text)
    assert read == DOCUMENT.validate_json(text)
    assert read.model_dump_json() == text


def test_bad_text_is_refused() -> None:
    with pytest.raises(ValidationError):
        read_stored('{"ruleset": "chainmail", "units": "many"}')
