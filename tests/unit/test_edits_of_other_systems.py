"""Line and Square's and Formation Density's edits (their own and the shared ones), without a
database: each does what it says to the unit or line it names by id; new ids come after the
highest; a copy carries no officer; a new line is the last one a rank deep; a unit keeps its
last line; every refusal names its field at its exact edge, in both languages."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain import limits
from app.systems.formation_density.roster import FormationDensityRoster
from app.systems.line_and_square.roster import LineAndSquareRoster
from tests.unit.test_edits import by_id, edited, ids, refused

Doc = dict[str, Any]


def battalion(name: str = "", **more: Any) -> Doc:
    return {"name": name, "class": "line_infantry", "figures": 12, "speed": 6, "points": 10,
            **more}


def brigade(*units: Doc, **more: Any) -> LineAndSquareRoster:
    return LineAndSquareRoster.model_validate({"name": "Бригада", "ruleset": "line_and_square",
                                               "units": list(units), **more})


def force() -> LineAndSquareRoster:
    return brigade(battalion("1-й", id="u3", officer=True, accuracy=4, discipline=2),
                   battalion("2-й", id="u1"), battalion("Егеря", id="u4", speed=8),
                   points_limit=60)


def warriors(kind: str = "melee_specialists", weapon: str = "sword", count: int = 5,
             **more: Any) -> Doc:
    return {"class": kind, "weapon": weapon, "count": count, **more}


def legion(*units: Doc, **more: Any) -> FormationDensityRoster:
    return FormationDensityRoster.model_validate({"name": "Легион",
                                                  "ruleset": "formation_density",
                                                  "units": list(units), **more})


def cohort(name: str = "", *lines: Doc, **more: Any) -> Doc:
    return {"name": name, "density": 3, "files": 8, "lines": list(lines) or [warriors()],
            **more}


def maniples() -> FormationDensityRoster:
    return legion(cohort("Гастаты", warriors(count=8, shield=True, id="l2"),
                         warriors("shooters", "heavy_throwing", 6, id="l5"), id="u2", points=12.5),
                  cohort("Всадники", warriors("shock_cavalry", "cavalry_lance", 4,
                                              mounted=True), id="u1"))


# ---------------------------------------------------------------- Line and Square

def test_a_line_and_square_unit_is_added_after_the_highest_id_in_loose_order() -> None:
    added = edited(force(), {"op": "add_unit", **battalion("Гусары", speed=12),
                             "class": "light_cavalry"})
    unit = added.units[-1]
    assert (unit.id, unit.name, unit.unit_class, unit.speed) == ("u5", "Гусары",
                                                                   "light_cavalry", 12)
    assert (unit.formation, unit.accuracy, unit.discipline, unit.officer) == (
        "loose", None, 0, False)


def test_set_unit_sets_what_it_is_sent_and_a_null_accuracy_cannot_shoot() -> None:
    roster = force()
    changed = by_id(edited(roster, {"op": "set_unit", "unit": "u3", "accuracy": None,
                                    "formation": "close_order", "points": 12.5}))["u3"]
    assert changed == by_id(roster)["u3"].model_copy(update={
        "accuracy": None, "formation": "close_order", "points": 12.5})
    recast = by_id(edited(roster, {"op": "set_unit", "unit": "u1", "class": "light_infantry",
                                   "note": "в резерве"}))["u1"]
    assert recast == by_id(roster)["u1"].model_copy(update={"unit_class": "light_infantry",
                                                            "note": "в резерве"})


def test_a_copied_line_and_square_unit_carries_no_officer() -> None:
    roster = force()
    copied = edited(roster, {"op": "duplicate_unit", "unit": "u3"})
    assert ids(copied) == ["u3", "u5", "u1", "u4"]
    twin = copied.units[1]
    assert not twin.officer and copied.units[0].officer
    assert twin.name == f"{roster.units[0].name} 2"  # told apart from the original
    assert twin.model_copy(update={"id": "u3", "officer": True, "name": roster.units[0].name}) \
        == roster.units[0]


@pytest.mark.parametrize("before", [{"op": "move_unit", "unit": "u1", "by": 5},
                                    {"op": "duplicate_unit", "unit": "u3"},
                                    {"op": "remove_unit", "unit": "u3"}])
def test_a_line_and_square_edit_by_id_reaches_its_unit_whatever_moved_before(
        before: Doc) -> None:
    roster = force()
    reordered = edited(roster, before)
    done = edited(roster, before, {"op": "set_unit", "unit": "u4", "figures": 7})
    assert by_id(done)["u4"] == by_id(roster)["u4"].model_copy(update={"figures": 7})
    assert {k: v for k, v in by_id(done).items() if k != "u4"} == {
        k: v for k, v in by_id(reordered).items() if k != "u4"}


def test_line_and_square_shares_the_roster_and_list_edits() -> None:
    roster = force()
    assert edited(roster, {"op": "set_roster", "points_limit": None}) == roster.model_copy(
        update={"points_limit": None})
    assert ids(edited(roster, {"op": "move_unit", "unit": "u4", "by": -1},
                      {"op": "remove_unit", "unit": "u3"})) == ["u4", "u1"]
    error = refused(roster, {"op": "set_unit", "unit": "u2", "speed": 3})
    assert (error.field, error.text("ru")) == ("unit", "нет отряда u2")


# ---------------------------------------------------------------- Formation Density

def test_a_formation_density_unit_is_added_with_its_lines_numbered() -> None:
    added = edited(maniples(), {"op": "add_unit", "name": "Триарии", "density": 2, "files": 6,
                                "lines": [warriors("shock_troops", "spear", 6, armour=True),
                                          warriors(count=6)]})
    unit = added.units[-1]
    assert (unit.id, unit.name, unit.points) == ("u3", "Триарии", None)
    assert [(x.id, x.line_class, x.weapon, x.count, x.armour) for x in unit.lines] == [
        ("l1", "shock_troops", "spear", 6, True), ("l2", "melee_specialists", "sword", 6, False)]


def test_set_unit_sets_what_it_is_sent_and_a_null_points_is_no_points() -> None:
    roster = maniples()
    changed = by_id(edited(roster, {"op": "set_unit", "unit": "u2", "points": None,
                                    "files": 10}))["u2"]
    assert changed == by_id(roster)["u2"].model_copy(update={"points": None, "files": 10})
    kept = by_id(edited(roster, {"op": "set_unit", "unit": "u2", "density": 4}))["u2"]
    assert (kept.points, kept.density) == (12.5, 4)


def test_add_line_copies_the_last_line_one_rank_deep() -> None:
    roster = maniples()
    grown = by_id(edited(roster, {"op": "add_line", "unit": "u2"}))["u2"]
    last = by_id(roster)["u2"].lines[-1]
    assert grown.lines[:2] == by_id(roster)["u2"].lines
    # As many warriors as the unit has files; the class, weapon and protection of the last.
    assert grown.lines[2] == last.model_copy(update={"id": "l6", "count": 8})
    riders = by_id(edited(roster, {"op": "add_line", "unit": "u1"}))["u1"]
    assert riders.lines[1] == riders.lines[0].model_copy(update={"id": "l2", "count": 8})


def test_set_line_sets_what_it_is_sent_and_leaves_the_rest() -> None:
    roster = maniples()
    changed = by_id(edited(roster, {"op": "set_line", "unit": "u2", "line": "l5",
                                    "class": "melee_specialists", "shield": True}))["u2"]
    assert changed.lines == [by_id(roster)["u2"].lines[0], by_id(roster)["u2"].lines[1]
                             .model_copy(update={"line_class": "melee_specialists",
                                                 "shield": True})]


def test_remove_line_removes_that_line_but_never_the_last() -> None:
    roster = maniples()
    left = by_id(edited(roster, {"op": "remove_line", "unit": "u2", "line": "l2"}))["u2"]
    assert left.lines == [by_id(roster)["u2"].lines[1]]
    error = refused(roster, {"op": "remove_line", "unit": "u1", "line": "l1"})
    assert (error.field, error.text("en"), error.text("ru")) == (
        "line", "a unit keeps at least one line; remove the unit instead",
        "в отряде должна остаться хотя бы одна строка; удалите отряд целиком")
    missing = refused(roster, {"op": "remove_line", "unit": "u1", "line": "l2"})
    assert (missing.field, missing.text("en")) == ("line", "unit u1 has no line l2")


def test_a_copied_formation_density_unit_has_new_ids() -> None:
    roster = maniples()
    copied = edited(roster, {"op": "duplicate_unit", "unit": "u2"})
    assert ids(copied) == ["u2", "u3", "u1"]
    assert [x.id for x in copied.units[1].lines] == ["l1", "l2"]
    assert copied.units[1].name == f"{roster.units[0].name} 2"
    assert copied.units[1].model_copy(update={"id": "u2", "lines": roster.units[0].lines,
                                              "name": roster.units[0].name}) == roster.units[0]


@pytest.mark.parametrize("before", [{"op": "move_unit", "unit": "u1", "by": -1},
                                    {"op": "duplicate_unit", "unit": "u1"},
                                    {"op": "remove_unit", "unit": "u1"}])
def test_a_formation_density_edit_by_id_reaches_its_line_whatever_moved_before(
        before: Doc) -> None:
    roster = maniples()
    done = edited(roster, before, {"op": "set_line", "unit": "u2", "line": "l5", "count": 3},
                  {"op": "add_line", "unit": "u2"})
    assert [(x.id, x.count) for x in by_id(done)["u2"].lines] == [
        ("l2", 8), ("l5", 3), ("l6", 8)]


def test_the_twentieth_formation_density_line_is_the_last() -> None:
    def unit_of(n: int) -> FormationDensityRoster:
        return legion(cohort("", *[warriors()] * n))

    edit = {"op": "add_line", "unit": "u1"}
    assert len(edited(unit_of(limits.MAX_LINES - 1), edit).units[0].lines) == limits.MAX_LINES
    error = refused(unit_of(limits.MAX_LINES), edit)
    assert (error.field, error.text("ru")) == ("line", "не больше 20 строк")


ADD_UNIT = {"line_and_square": (lambda n: brigade(*[battalion()] * n),
                                {"op": "add_unit", **battalion()}),
            "formation_density": (lambda n: legion(*[cohort()] * n),
                                  {"op": "add_unit", **cohort()})}


@pytest.mark.parametrize("system", list(ADD_UNIT))
def test_the_five_hundredth_unit_is_the_last_in_every_system(system: str) -> None:
    roster_of, edit = ADD_UNIT[system]
    for copy in (edit, {"op": "duplicate_unit", "unit": "u1"}):
        assert len(edited(roster_of(limits.MAX_UNITS - 1), copy).units) == limits.MAX_UNITS
        error = refused(roster_of(limits.MAX_UNITS), copy)
        assert (error.field, error.text("en"), error.text("ru")) == (
            "unit", "at most 500 units", "не больше 500 отрядов")
