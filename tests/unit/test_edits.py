"""The edits a player makes (app/domain/edits.py and each system's edits.py), without a
database: each does what it says to the unit, line or engine it names by id, whatever else
the same list moved, copied or removed; new ids come after the highest; every refusal names
its field, at its exact edge, in both languages; "Make it legal" is its suggested edits."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from app.domain import limits
from app.domain.edits import EditError, apply_edits
from app.systems import SYSTEMS
from app.systems.chainmail.edits import MakeLegal, suggested
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit.rule_cases import BREAKS

Doc = dict[str, Any]


def edited(roster: BaseModel, *edits: Doc, lang: str = "en") -> Any:
    """The roster after `edits`, sent as the API and the page send them (JSON data)."""
    made = SYSTEMS[roster.ruleset].edits.validate_python(list(edits))  # type: ignore[attr-defined]
    return apply_edits(roster, made, lang)  # type: ignore[arg-type]


def refused(roster: BaseModel, *edits: Doc) -> EditError:
    with pytest.raises(EditError) as error:
        edited(roster, *edits)
    return error.value


def line(troop: str = "light_horse", figures: int = 10, weapon: str = "none",
         **more: Any) -> Doc:
    return {"troop": troop, "figures": figures, "weapon": weapon, **more}


def chainmail(*units: Doc, **more: Any) -> ChainmailRoster:
    return ChainmailRoster.model_validate({"name": "Орда", "ruleset": "chainmail",
                                           "nation": "generic", "units": list(units), **more})


def army() -> ChainmailRoster:
    """Three units whose ids are not their places (as edits leave them), and two engines."""
    return chainmail(
        {"id": "u1", "name": "Кешиг", "flags": ["commander", "elite"], "note": "н",
         "lines": [line("heavy_horse", 6, "lance")]},
        {"id": "u5", "name": "Лучники", "mercenary": True,
         "lines": [line("light_horse", 8, "bow", id="l2"), line("medium_horse", 4, id="l7")]},
        {"id": "u2", "name": "Пешие", "lines": [line("light_foot", 12)]},
        engines=[{"id": "e3", "kind": "bombard", "count": 1},
                 {"id": "e1", "kind": "light_cannon", "count": 2}], points_limit=300,
        note="заметка")


def by_id(roster: Any) -> dict[str, Any]:
    return {unit.id: unit for unit in roster.units}


def ids(roster: Any) -> list[str]:
    return [unit.id for unit in roster.units]


# ---------------------------------------------------------------- the shared edits

def test_set_roster_sets_what_it_is_sent_and_leaves_the_rest() -> None:
    roster = army()
    renamed = edited(roster, {"op": "set_roster", "name": "Тумен"})
    assert renamed == roster.model_copy(update={"name": "Тумен"})
    # A null limit is "no limit"; a null name or note is no value, and leaves them.
    unlimited = edited(roster, {"op": "set_roster", "points_limit": None, "note": None,
                                "name": None})
    assert unlimited == roster.model_copy(update={"points_limit": None})
    settings = edited(roster, {"op": "set_roster", "nation": "mongols", "historical": False,
                               "fortifications": True})
    assert settings == roster.model_copy(update={"nation": "mongols", "historical": False,
                                                 "fortifications": True})


def test_move_unit_moves_by_places_and_stops_at_either_end() -> None:
    roster = army()
    assert ids(edited(roster, {"op": "move_unit", "unit": "u1", "by": 1})) == ["u5", "u1", "u2"]
    assert ids(edited(roster, {"op": "move_unit", "unit": "u2", "by": -1})) == [
        "u1", "u2", "u5"]
    assert ids(edited(roster, {"op": "move_unit", "unit": "u5", "by": 9})) == ["u1", "u2", "u5"]
    assert ids(edited(roster, {"op": "move_unit", "unit": "u5", "by": -9})) == [
        "u5", "u1", "u2"]
    moved = edited(roster, {"op": "move_unit", "unit": "u1", "by": 2})
    assert by_id(moved) == by_id(roster)  # each unit as it was, only its place changed


def test_remove_unit_removes_that_unit_only() -> None:
    roster = army()
    left = edited(roster, {"op": "remove_unit", "unit": "u5"})
    assert left.units == [roster.units[0], roster.units[2]]


def test_duplicate_unit_copies_it_right_after_with_new_ids_and_no_commander() -> None:
    roster = army()
    copied = edited(roster, {"op": "duplicate_unit", "unit": "u1"},
                    {"op": "duplicate_unit", "unit": "u5"})
    assert ids(copied) == ["u1", "u6", "u5", "u7", "u2"]
    twin, second = by_id(copied)["u6"], by_id(copied)["u7"]
    # Only one unit leads the army: the copy keeps every other flag.
    assert twin.flags == ["elite"] and by_id(copied)["u1"].flags == ["commander", "elite"]
    # Its name is told apart from every other unit's ("Кешиг 2").
    assert twin.name == "Кешиг 2"
    assert twin.model_copy(update={"id": "u1", "flags": ["commander", "elite"],
                                   "name": "Кешиг"}) == roster.units[0]
    # The copy's lines are numbered anew from l1; its figures, troops and weapons are kept.
    assert [(x.id, x.troop, x.figures) for x in second.lines] == [
        ("l1", "light_horse", 8), ("l2", "medium_horse", 4)]
    assert second.mercenary and second.name == "Лучники 2"


EDITS_ON_U2 = [{"op": "set_unit", "unit": "u2", "name": "Цель"},
               {"op": "add_line", "unit": "u2"},
               {"op": "set_line", "unit": "u2", "line": "l1", "figures": 3},
               {"op": "step_figures", "unit": "u2", "line": "l1", "by": 1}]
REORDERINGS = {"moved": {"op": "move_unit", "unit": "u2", "by": -2},
               "another moved": {"op": "move_unit", "unit": "u1", "by": 2},
               "another duplicated": {"op": "duplicate_unit", "unit": "u1"},
               "another removed": {"op": "remove_unit", "unit": "u5"},
               "its neighbour removed": {"op": "remove_unit", "unit": "u1"}}


@pytest.mark.parametrize("before", list(REORDERINGS))
def test_an_edit_by_id_reaches_its_unit_whatever_moved_before_it(before: str) -> None:
    roster = army()
    reordered = edited(roster, REORDERINGS[before])
    done = edited(roster, REORDERINGS[before], *EDITS_ON_U2)
    target = by_id(done)["u2"]
    assert target.name == "Цель"
    assert [(x.id, x.troop, x.figures) for x in target.lines] == [
        ("l1", "light_foot", 4), ("l2", "light_foot", 5)]
    # Every other unit is as the reordering left it.
    assert {k: v for k, v in by_id(done).items() if k != "u2"} == {
        k: v for k, v in by_id(reordered).items() if k != "u2"}
    assert ids(done) == ids(reordered)


def test_the_input_roster_is_never_changed() -> None:
    roster = army()
    before = roster.model_dump()
    edited(roster, {"op": "remove_unit", "unit": "u1"}, *EDITS_ON_U2,
           {"op": "remove_engine", "engine": "e1"})
    assert roster.model_dump() == before


# ---------------------------------------------------------------- Chainmail's own

def test_add_unit_takes_a_preset_in_the_pages_language_or_its_own_lines() -> None:
    roster = army()
    preset = {"op": "add_unit", "preset": "steppe_horse_archers"}
    english, russian = edited(roster, preset).units[-1], edited(roster, preset, lang="ru").units[-1]
    assert (english.id, english.name) == ("u6", "Horse archers (light horse with bows)")
    assert russian.name == "Конные лучники (лёгкая конница с луками)"
    assert [(x.id, x.troop, x.figures, x.weapon) for x in russian.lines] == [
        ("l1", "light_horse", 10, "bow")]
    named = edited(roster, {**preset, "name": "Свои", "mercenary": True}).units[-1]
    assert (named.name, named.mercenary) == ("Свои", True)
    own = edited(roster, {"op": "add_unit", "name": "Стрелки", "flags": ["elite"],
                          "lines": [line("light_foot", 7, "bow"), line("peasant", 3)]})
    unit = own.units[-1]
    assert (unit.id, unit.name, unit.flags) == ("u6", "Стрелки", ["elite"])
    assert [(x.id, x.troop, x.figures) for x in unit.lines] == [
        ("l1", "light_foot", 7), ("l2", "peasant", 3)]
    bare = edited(chainmail(), {"op": "add_unit"}).units[0]
    assert (bare.id, [(x.troop, x.figures, x.weapon) for x in bare.lines]) == (
        "u1", [("light_foot", 10, "none")])


def test_set_unit_sets_what_it_is_sent_and_leaves_the_rest() -> None:
    roster = army()
    changed = by_id(edited(roster, {"op": "set_unit", "unit": "u5", "flags": ["elite"],
                                    "note": "резерв"}))["u5"]
    assert changed == by_id(roster)["u5"].model_copy(update={"flags": ["elite"],
                                                             "note": "резерв"})
    hired = by_id(edited(roster, {"op": "set_unit", "unit": "u1", "mercenary": True,
                                  "name": ""}))["u1"]
    assert hired == roster.units[0].model_copy(update={"mercenary": True, "name": ""})


def test_add_line_follows_light_medium_heavy_horse_and_back_to_medium() -> None:
    roster = chainmail({"lines": [line("light_horse", 6)]}, {"lines": []},
                       {"lines": [line("light_foot", 6)]})
    grown = edited(roster, *[{"op": "add_line", "unit": "u1"}] * 4)
    assert [(x.id, x.troop, x.figures, x.weapon) for x in grown.units[0].lines] == [
        ("l1", "light_horse", 6, "none"), ("l2", "medium_horse", 5, "none"),
        ("l3", "heavy_horse", 5, "none"), ("l4", "medium_horse", 5, "none"),
        ("l5", "heavy_horse", 5, "none")]
    # A unit of no lines starts after light horse; other troops repeat the last line's.
    others = edited(roster, {"op": "add_line", "unit": "u2"}, {"op": "add_line", "unit": "u3"})
    assert [x.troop for x in others.units[1].lines] == ["medium_horse"]
    assert [x.troop for x in others.units[2].lines] == ["light_foot", "light_foot"]
    given = edited(roster, {"op": "add_line", "unit": "u1", "troop": "peasant", "figures": 9,
                            "weapon": "bow"})
    assert given.units[0].lines[-1].model_dump() == line("peasant", 9, "bow", id="l2")


def test_a_new_line_takes_the_id_after_its_units_highest() -> None:
    added = by_id(edited(army(), {"op": "add_line", "unit": "u5"}))["u5"]
    assert [x.id for x in added.lines] == ["l2", "l7", "l8"]


def test_set_line_sets_what_it_is_sent_and_leaves_the_rest() -> None:
    roster = army()
    changed = edited(roster, {"op": "set_line", "unit": "u5", "line": "l7", "weapon": "lance"})
    lines = by_id(changed)["u5"].lines
    assert lines == [by_id(roster)["u5"].lines[0],
                     by_id(roster)["u5"].lines[1].model_copy(update={"weapon": "lance"})]
    both = edited(roster, {"op": "set_line", "unit": "u5", "line": "l2", "figures": 2,
                           "troop": "medium_horse"})
    assert by_id(both)["u5"].lines[0].model_dump() == line("medium_horse", 2, "bow", id="l2")


def test_step_figures_steps_one_and_never_goes_under_one() -> None:
    roster = chainmail({"lines": [line(figures=2)]})
    step = {"op": "step_figures", "unit": "u1", "line": "l1"}
    assert edited(roster, {**step, "by": 1}).units[0].lines[0].figures == 3
    assert edited(roster, {**step, "by": -1}).units[0].lines[0].figures == 1
    assert edited(roster, *[{**step, "by": -1}] * 3).units[0].lines[0].figures == 1
    with pytest.raises(ValidationError):  # only a step of one either way
        edited(roster, {**step, "by": 2})


def test_remove_line_removes_that_line_and_may_leave_a_unit_of_none() -> None:
    roster = army()
    one = by_id(edited(roster, {"op": "remove_line", "unit": "u5", "line": "l2"}))["u5"]
    assert one.lines == [by_id(roster)["u5"].lines[1]]
    empty = edited(roster, {"op": "remove_line", "unit": "u1", "line": "l1"})
    assert by_id(empty)["u1"].lines == []


def test_engines_are_added_after_the_highest_id_set_and_removed_by_id() -> None:
    roster = army()
    added = edited(roster, {"op": "add_engine", "kind": "heavy_cannon", "count": 3})
    assert [(e.id, e.kind, e.count, e.mercenary) for e in added.engines[2:]] == [
        ("e4", "heavy_cannon", 3, False)]
    changed = edited(roster, {"op": "set_engine", "engine": "e1", "mercenary": True})
    assert changed.engines == [roster.engines[0],
                               roster.engines[1].model_copy(update={"mercenary": True})]
    removed = edited(roster, {"op": "remove_engine", "engine": "e3"})
    assert removed.engines == [roster.engines[1]]


# ---------------------------------------------------------------- refusals

RU = {"unit": "нет отряда u9", "line": "в отряде u5 нет строки l9", "engine": "нет машины e9"}
MISSING = [
    ({"op": "set_unit", "unit": "u9", "name": "x"}, "unit", "there is no unit u9"),
    ({"op": "duplicate_unit", "unit": "u9"}, "unit", "there is no unit u9"),
    ({"op": "move_unit", "unit": "u9", "by": 1}, "unit", "there is no unit u9"),
    ({"op": "remove_unit", "unit": "u9"}, "unit", "there is no unit u9"),
    ({"op": "add_line", "unit": "u9"}, "unit", "there is no unit u9"),
    ({"op": "set_line", "unit": "u9", "line": "l1", "figures": 2}, "unit",
     "there is no unit u9"),
    ({"op": "set_line", "unit": "u5", "line": "l9", "figures": 2}, "line",
     "unit u5 has no line l9"),
    ({"op": "step_figures", "unit": "u5", "line": "l9", "by": 1}, "line",
     "unit u5 has no line l9"),
    ({"op": "remove_line", "unit": "u5", "line": "l9"}, "line", "unit u5 has no line l9"),
    ({"op": "set_engine", "engine": "e9", "count": 2}, "engine", "there is no engine e9"),
    ({"op": "remove_engine", "engine": "e9"}, "engine", "there is no engine e9"),
]


@pytest.mark.parametrize(("edit", "field", "english"), MISSING,
                         ids=[f"{e['op']} {f}" for e, f, _ in MISSING])
def test_an_edit_naming_no_such_unit_line_or_engine_is_refused_naming_its_field(
        edit: Doc, field: str, english: str) -> None:
    # The second edit of the list: the error says which, and the first is not made either.
    error = refused(army(), {"op": "set_roster", "name": "Другая"}, edit)
    assert (error.edit, error.field, error.text("en"), error.text("ru")) == (
        1, field, english, RU[field])


def test_a_line_of_another_unit_is_no_line_of_this_one() -> None:
    # l7 is a line of u5; u1 has only l1.
    error = refused(army(), {"op": "remove_line", "unit": "u1", "line": "l7"})
    assert (error.field, error.text("en")) == ("line", "unit u1 has no line l7")


def _units(n: int) -> ChainmailRoster:
    return chainmail(*[{"lines": [line(figures=1)]}] * n)


@pytest.mark.parametrize("edit", [{"op": "add_unit"}, {"op": "duplicate_unit", "unit": "u1"}])
def test_the_five_hundredth_unit_is_the_last(edit: Doc) -> None:
    assert len(edited(_units(limits.MAX_UNITS - 1), edit).units) == limits.MAX_UNITS
    error = refused(_units(limits.MAX_UNITS), edit)
    assert (error.field, error.text("en"), error.text("ru")) == (
        "unit", "at most 500 units", "не больше 500 отрядов")


def test_the_twentieth_line_is_the_last() -> None:
    def unit_of(n: int) -> ChainmailRoster:
        return chainmail({"lines": [line(figures=1)] * n})

    edit = {"op": "add_line", "unit": "u1"}
    assert len(edited(unit_of(limits.MAX_LINES - 1), edit).units[0].lines) == limits.MAX_LINES
    error = refused(unit_of(limits.MAX_LINES), edit)
    assert (error.field, error.text("en"), error.text("ru")) == (
        "line", "at most 20 lines", "не больше 20 строк")


def test_the_hundredth_engine_is_the_last() -> None:
    def engines(n: int) -> ChainmailRoster:
        return chainmail(engines=[{"kind": "bombard", "count": 1}] * n)

    edit = {"op": "add_engine", "kind": "bombard", "count": 1}
    assert len(edited(engines(limits.MAX_ENGINES - 1), edit).engines) == limits.MAX_ENGINES
    error = refused(engines(limits.MAX_ENGINES), edit)
    assert (error.field, error.text("en"), error.text("ru")) == (
        "engine", "at most 100 engines", "не больше 100 машин")


def test_a_flag_given_twice_is_refused_naming_the_flags() -> None:
    error = refused(army(), {"op": "set_unit", "unit": "u2", "flags": ["elite", "elite"]})
    assert (error.field, error.text("en"), error.text("ru")) == (
        "flags", "each flag may appear only once",
        "каждое особое правило можно указать только один раз")
    assert by_id(edited(army(), {"op": "set_unit", "unit": "u2", "flags": ["elite", "stakes"]}
                        ))["u2"].flags == ["elite", "stakes"]


# ---------------------------------------------------------------- "Make it legal"

MENDABLE = [c for c in BREAKS if "." in c.code and c.code.split(".")[0] in SYSTEMS[
    "chainmail"].entries["nations"]]


@pytest.mark.parametrize("case", MENDABLE, ids=lambda c: f"{c.code}: {c.id}")
def test_make_legal_is_its_suggested_edits_made(case: Any) -> None:
    roster = ChainmailRoster.model_validate(case.roster)
    found, made = suggested(roster, "en")
    # A warning alone asks for no change of figures: then neither changes anything.
    assert found.possible and bool(made) == bool(found.changes)
    at_once = apply_edits(roster, [MakeLegal()], "en")
    assert at_once == apply_edits(roster, made, "en")
    assert len({u.id for u in at_once.units}) == len(at_once.units)


def test_make_legal_refuses_in_words_when_no_change_of_figures_can_do_it() -> None:
    roster = chainmail(nation="mongols")
    error = refused(roster, {"op": "make_legal"})
    assert error.field == "op"
    assert error.text("ru") == error.text("en") == suggested(roster, "en")[0].reason
    assert "add a unit with figures" in error.text("en")


def test_a_new_unit_with_a_flag_given_twice_is_refused_naming_the_flags() -> None:
    error = refused(army(), {"op": "add_unit", "flags": ["elite", "elite"]})
    assert (error.field, error.text("en")) == ("flags", "each flag may appear only once")
