"""Stable ids (app/domain/ids.py): a document without them is given them, the same every time;
ids given are kept and new ones come after the highest; the same id twice in a list is refused
at that item's `id`. Migration 0009 gives stored documents exactly the ids and the text the
app gives them, and takes them out again."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from app.domain.ids import REPEATED_ID, next_id, with_ids
from app.systems.stored_documents import DOCUMENT
from tests.unit import strategies

Doc = dict[str, Any]
MIGRATION = Path(__file__).resolve().parents[2] / "migrations" / "versions" / "0009_roster_ids.py"


def _migration() -> Any:
    spec = importlib.util.spec_from_file_location("roster_ids_0009", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ids_of(doc: Doc) -> list[Any]:
    return [[(u.get("id"), [x.get("id") for x in u.get("lines", [])]) for u in doc["units"]],
            [e.get("id") for e in doc.get("engines", [])]]


def _line(**more: Any) -> Doc:
    return {"troop": "light_foot", "figures": 3, **more}


def army(units: list[Doc], engines: list[Doc] | None = None) -> Doc:
    return {"name": "Орда", "ruleset": "chainmail", "units": units,
            "engines": engines or []}


def test_a_document_without_ids_is_given_them_in_list_order_the_same_every_time() -> None:
    doc = army([{"lines": [_line(), _line()]}, {"lines": []}, {"lines": [_line()]}],
               [{"kind": "bombard", "count": 1}, {"kind": "bombard", "count": 2}])
    given = with_ids(copy.deepcopy(doc))
    assert ids_of(given) == [[("u1", ["l1", "l2"]), ("u2", []), ("u3", ["l1"])], ["e1", "e2"]]
    assert with_ids(copy.deepcopy(doc)) == given
    assert ids_of(doc) == [[(None, [None, None]), (None, []), (None, [None])], [None, None]]
    assert DOCUMENT.validate_python(doc) == DOCUMENT.validate_python(given)


def test_ids_given_are_kept_and_missing_ones_come_after_the_highest() -> None:
    doc = army([{"lines": []}, {"id": "u4", "lines": [_line(id="l9"), _line()]},
                {"id": "mine", "lines": []}, {"id": "u2", "lines": [_line()]}],
               [{"kind": "bombard", "count": 1}, {"id": "e7", "kind": "bombard", "count": 1}])
    assert ids_of(with_ids(doc)) == [
        [("u5", []), ("u4", ["l9", "l10"]), ("mine", []), ("u2", ["l1"])], ["e8", "e7"]]


def test_line_and_square_units_have_no_lines_to_number() -> None:
    doc = {"name": "Бригада", "ruleset": "line_and_square", "units": [
        {"class": "line_infantry", "figures": 12, "speed": 6, "points": 10}] * 2}
    read = DOCUMENT.validate_python(doc)
    assert [u.id for u in read.units] == ["u1", "u2"]
    assert "lines" not in json.loads(read.model_dump_json())["units"][0]


@pytest.mark.parametrize(("taken", "expected"), [
    ([], "u1"), (["u1", "u2"], "u3"), (["u2", None, "u10"], "u11"),
    (["x", "unit7", "u-3", "l5"], "u1"), (["u007"], "u8")])
def test_the_next_id_is_one_past_the_highest_of_its_own_form(taken: list[str | None],
                                                             expected: str) -> None:
    assert next_id("u", taken) == expected


@pytest.mark.parametrize(("doc", "loc"), [
    (army([{"id": "u1", "lines": []}, {"lines": []}, {"id": "u1", "lines": []}]),
     ("units", 2, "id")),
    (army([{"lines": []}, {"lines": [_line(id="a"), _line(), _line(id="a")]}]),
     ("units", 1, "lines", 2, "id")),
    (army([], [{"id": "e1", "kind": "bombard", "count": 1}] * 2), ("engines", 1, "id")),
])
def test_the_same_id_twice_in_a_list_is_refused_at_the_second(doc: Doc,
                                                              loc: tuple[Any, ...]) -> None:
    with pytest.raises(ValidationError) as refused:
        DOCUMENT.validate_python(doc)
    (error,) = refused.value.errors()
    assert (error["type"], error["loc"], error["ctx"]["error"].args) == (
        "value_error", ("chainmail", *loc), (REPEATED_ID,))
    # The same id in two different lists is no repeat: each unit numbers its own lines.
    assert DOCUMENT.validate_python(army([{"id": "a", "lines": [_line(id="a")]},
                                          {"id": "b", "lines": [_line(id="a")]}],
                                         [{"id": "a", "kind": "bombard", "count": 1}]))


def _bare(doc: Doc) -> Doc:
    """The document as the code before ids wrote it."""
    doc = copy.deepcopy(doc)
    for item in [*doc["units"], *(x for u in doc["units"] for x in u.get("lines", [])),
                 *doc.get("engines", [])]:
        item.pop("id", None)
    return doc


def _compact(doc: Doc) -> str:
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=80, deadline=None)
@given(doc=strategies.rosters, dropped=st.sets(st.integers(0, 40), max_size=10))
def test_migration_0009_gives_the_ids_and_the_text_the_app_gives(doc: Doc,
                                                                  dropped: set[int]) -> None:
    migration = _migration()
    stored = json.loads(DOCUMENT.validate_python(doc).model_dump_json())
    # Some ids missing (dropped by their place in a walk of the document), the others kept.
    items = [*stored["units"], *(x for u in stored["units"] for x in u["lines"]),
             *stored["engines"]]
    for place in dropped & set(range(len(items))):
        items[place].pop("id")
    text = _compact(stored)
    up = migration.rewritten(text, migration.with_ids)
    assert (up or text) == DOCUMENT.validate_json(text).model_dump_json()
    # Down: the text the code before ids wrote (None: nothing to take out, the text stays).
    upgraded = up or text
    assert (migration.rewritten(upgraded, migration.without_ids) or upgraded) == _compact(
        _bare(stored))
