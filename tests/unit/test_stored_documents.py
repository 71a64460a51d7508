"""Parsed documents are shared by their stored text: the same text gives an equal document
whether it was parsed now or kept, nothing over the bounds is kept, and bad text is refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from pydantic import ValidationError

from app.stored_documents import DOCUMENT, MIN_WEIGHT, ParsedDocuments
from tests.unit.strategies import rosters


@settings(max_examples=60, deadline=None)
@given(rosters)
def test_a_kept_document_is_the_one_its_text_holds(roster: dict[str, Any]) -> None:
    text = DOCUMENT.validate_python(roster).model_dump_json()
    kept = ParsedDocuments()
    first = kept.parse(text)
    assert first == DOCUMENT.validate_json(text)
    assert kept.parse(text) is first  # parsed once
    assert first.model_dump_json() == text


def test_the_document_just_stored_is_read_without_parsing() -> None:
    kept = ParsedDocuments()
    document = DOCUMENT.validate_python({"ruleset": "chainmail", "name": "Орда",
                                         "nation": "mongols", "units": []})
    text = document.model_dump_json()
    kept.keep(text, document)
    assert kept.parse(text) is document


def test_at_most_so_many_documents_and_none_too_long() -> None:
    kept = ParsedDocuments(kept_text=3 * MIN_WEIGHT, longest=200)  # three short texts
    texts = [json.dumps({"ruleset": "chainmail", "name": f"army {i}", "units": []})
             for i in range(5)]
    for text in texts:
        kept.parse(text)
    assert len(kept) == 3
    assert kept.parse(texts[-1]) is kept.parse(texts[-1])
    assert kept.parse(texts[0]) is not kept.parse(texts[1])  # the oldest were dropped
    long = json.dumps({"ruleset": "chainmail", "name": "x" * 100, "note": "y" * 150, "units": []})
    assert kept.parse(long) is not kept.parse(long)


def test_bad_text_is_refused_and_not_kept() -> None:
    kept = ParsedDocuments()
    with pytest.raises(ValidationError):
        kept.parse('{"ruleset": "chainmail", "units": "many"}')
    assert len(kept) == 0


def test_documents_are_kept_by_the_text_they_stand_for() -> None:
    kept = ParsedDocuments(kept_text=3 * MIN_WEIGHT, longest=10 * MIN_WEIGHT)
    short = [json.dumps({"ruleset": "chainmail", "name": f"army {i}", "units": []})
             for i in range(3)]
    for text in short:
        kept.parse(text)
    units: list[dict[str, Any]] = []
    long = ""
    while len(long) <= MIN_WEIGHT:
        units.append({"name": f"Отряд {len(units)}", "lines": [
            {"figures": 20, "troop": "light_foot", "weapon": "bow"}]})
        long = DOCUMENT.validate_python({"ruleset": "chainmail", "name": "big",
                                         "units": units}).model_dump_json()
    assert len(long) <= 2 * MIN_WEIGHT
    kept.parse(long)  # counts for its length: it pushes out two of the three short ones
    assert len(kept) == 2
    assert kept.parse(long) is kept.parse(long)
    assert kept.parse(short[2]) is kept.parse(short[2])
