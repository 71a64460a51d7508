"""Hypothesis strategies for Chainmail roster documents: schema-valid ones, and valid ones
broken in every way a client could break them."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

from tests.unit import page_tables as page

Doc = dict[str, Any]

# Letters, digits and spaces: what people name armies with, in both scripts.
_name_chars = st.characters(categories=("L", "N"), max_codepoint=0x4FF) | st.just(" ")
unit_names = st.text(_name_chars, max_size=30)
roster_names = st.text(_name_chars, min_size=1, max_size=40).filter(lambda s: s.strip() != "")

figures = st.integers(1, 60) | st.integers(1, 100_000)

lines = st.fixed_dictionaries(
    {"troop": st.sampled_from(list(page.TROOPS)), "figures": figures},
    optional={"weapon": st.sampled_from(list(page.WEAPONS))},
)

units = st.fixed_dictionaries(
    {"lines": st.lists(lines, max_size=4)},
    optional={"name": unit_names, "mercenary": st.booleans(),
              "flags": st.lists(st.sampled_from(page.FLAGS), unique=True, max_size=3)},
)

engines = st.fixed_dictionaries(
    {"kind": st.sampled_from(list(page.ENGINES)), "count": st.integers(1, 1_000)},
    optional={"mercenary": st.booleans()},
)

rosters = st.fixed_dictionaries(
    {"name": roster_names, "ruleset": st.just("chainmail")},
    optional={
        "nation": st.sampled_from(list(page.NATIONS)),
        "points_limit": st.none() | st.integers(1, 10_000_000),
        "historical": st.booleans(),
        "fortifications": st.booleans(),
        "units": st.lists(units, max_size=6),
        "engines": st.lists(engines, max_size=3),
    },
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=6,
)

# Values that are the right type but outside the allowed range, or not in the catalogue.
OUT_OF_RANGE: dict[str, list[Any]] = {
    "figures": [0, -1, 100_001, 10**30, 1.5],
    "count": [0, -3, 1_001, 2.5],
    "points_limit": [0, -10, 10_000_001],
    "troop": ["orc", "", "LIGHT_FOOT", "light foot"],
    "weapon": ["sword", "", "Pike"],
    "kind": ["trebuchet", ""],
    "nation": ["elves", "Mongols", ""],
    "ruleset": ["warhammer", "", "Chainmail"],
    "name": ["", "   ", "x" * 121],
}


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a document: dict keys and list positions, depth first."""
    found = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*here, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*here, index))
    return found


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path[:-1]:
        doc = doc[step]
    return doc


@st.composite
def broken_rosters(draw: st.DrawFn) -> Doc | Any:
    """A valid roster changed in one place: a wrong type, an unknown id, an out-of-range
    number, a missing field or an unexpected one."""
    doc = copy.deepcopy(draw(rosters))
    places = [p for p in _paths(doc) if p]
    how = draw(st.sampled_from(["retype", "out_of_range", "drop", "extra", "whole"]))
    if how == "whole" or not places:
        return draw(json_values)
    path = draw(st.sampled_from(places))
    parent, key = _parent(doc, path), path[-1]
    if how == "retype":
        parent[key] = draw(json_values)
    elif how == "out_of_range":
        named = [p for p in places if p[-1] in OUT_OF_RANGE]
        if named:
            path = draw(st.sampled_from(named))
            parent, key = _parent(doc, path), path[-1]
            parent[key] = draw(st.sampled_from(OUT_OF_RANGE[key]))
    elif how == "drop":
        if isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    else:
        target = parent if isinstance(parent, dict) else doc
        target[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    return doc


def encoded(doc: Any) -> bytes:
    # allow_nan: Python's encoder writes NaN and Infinity, which a sloppy client might send.
    return json.dumps(doc, ensure_ascii=False).encode()


junk_bodies = (
    st.binary(max_size=200)
    | st.text(max_size=200).map(str.encode)
    | rosters.map(lambda d: encoded(d)[: max(1, len(encoded(d)) // 2)])  # cut short
)

any_bodies = (
    rosters.map(encoded) | broken_rosters().map(encoded) | junk_bodies
)
