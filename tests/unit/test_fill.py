""""Fill to the limit": the fewest figures added, to the army's lines and its nation's
presets, that make the army legal with its points as near its limit as they can come —
checked against the verdict, against trying every count of a small army, and for every
nation from an empty army."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from app.domain.base import Severity
from app.systems.chainmail import price, validate
from app.systems.chainmail.catalogue import NATIONS
from app.systems.chainmail.edits import suggested
from app.systems.chainmail.make_legal import apply, fill
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit.rule_cases import army, line, unit


def roster_of(doc: dict[str, Any]) -> ChainmailRoster:
    return ChainmailRoster.model_validate(doc)


def errors(roster: ChainmailRoster) -> list[str]:
    return [i.code for i in validate(roster) if i.severity is Severity.error]


@pytest.mark.parametrize("limit", [200, 300])
@pytest.mark.parametrize("nation", list(NATIONS))
def test_an_empty_army_of_every_nation_is_filled_legal_and_near_its_limit(
        nation: str, limit: int) -> None:
    empty = roster_of(army(nation, points_limit=limit))
    found = fill(empty)
    assert found.possible, found.reason
    filled = apply(empty, found.changes)
    assert errors(filled) == []
    # Within the dearest figure of the limit (a few points), never past it.
    assert limit - 10 <= price(filled).total == found.total <= limit
    assert all(change.new > change.old for change in found.changes)


def test_a_mongol_army_of_200_is_filled_to_200() -> None:
    found = fill(roster_of(army("mongols", points_limit=200)))
    assert found.total == 200 and found.moved == 40
    assert {c.preset for c in found.changes} == {
        "steppe_horse_archers", "steppe_medium_lancers", "steppe_light_lancers"}
    assert found.outcome == "40 figures added; the army then costs 200 points."


def test_the_fill_is_the_most_points_then_the_fewest_figures_of_every_way_to_grow() -> None:
    # A small Mongol army grown line by line, every count tried: the most points that keep
    # every rule under 60, then the fewest figures added for them.
    start = army("mongols", unit(line("medium_horse", 2, "lance")),
                 unit(line("light_horse", 2, "lance")), unit(line("light_horse", 3, "bow")),
                 points_limit=60)
    roster = roster_of(start)
    best: tuple[Fraction, int] | None = None
    for more in itertools.product(range(8), repeat=3):
        grown = roster_of(start | {"units": [
            {**u, "lines": [{**u["lines"][0], "figures": u["lines"][0]["figures"] + k}]}
            for u, k in zip(start["units"], more, strict=True)]})
        if not errors(grown):
            score = (price(grown).total, -sum(more))
            best = score if best is None or score > best else best
    found = fill(roster)
    assert best is not None and (found.total, -found.moved) == best
    assert errors(apply(roster, found.changes)) == []


def test_nothing_is_removed_and_what_cannot_be_mended_by_adding_is_said() -> None:
    # Foot in an all-horse army: only removing them mends it.
    foot = roster_of(army("mongols", unit(line("light_horse", 10, "bow")),
                          unit(line("light_foot", 5)), points_limit=200))
    found = fill(foot)
    assert not found.possible and "find the smallest change" in found.reason
    over = roster_of(army("mongols", unit(line("light_horse", 40, "bow")), points_limit=100))
    assert not fill(over).possible
    unlimited = fill(roster_of(army("mongols")), "ru")
    assert not unlimited.possible and "лимит" in unlimited.reason


def test_a_full_army_is_offered_nothing() -> None:
    done = roster_of(army("mongols", unit(line("medium_horse", 11, "lance")),
                          unit(line("light_horse", 6, "lance")),
                          unit(line("light_horse", 23, "bow")), points_limit=200))
    found = fill(done)
    assert found.possible and found.changes == () and found.total == 200


def test_new_units_take_their_presets_names_told_apart_from_the_others() -> None:
    # A unit already called as a preset: the new one of that preset is "… 2".
    named = roster_of(army("mongols", unit(line("light_horse", 10, "bow"),
                                           name="Medium horse with lances"),
                           points_limit=200))
    found, made = suggested(named, "en", fill=True)
    names = [edit.name for edit in made if edit.op == "add_unit"]
    assert "Medium horse with lances 2" in names and len(set(names)) == len(names)
    assert errors(apply(named, found.changes)) == []
