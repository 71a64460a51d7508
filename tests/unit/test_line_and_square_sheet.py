"""Line and Square: the army sheet's data (what a printed sheet or a text export shows)."""

from __future__ import annotations

from typing import Any

from app.systems.line_and_square import LineAndSquareRoster
from app.systems.line_and_square.sheet import army_sheet


def roster(*units: dict[str, Any], **fields: Any) -> LineAndSquareRoster:
    return LineAndSquareRoster.model_validate(
        {"name": "Старая гвардия", "ruleset": "line_and_square", "units": list(units), **fields})


GUARD = roster(
    {"name": "1-й батальон", "class": "grenadiers", "figures": 16, "speed": 6, "accuracy": 4,
     "discipline": 2, "points": 12.5, "officer": True, "formation": "square"},
    {"class": "irregular_cavalry", "figures": 8, "speed": 12, "discipline": -1, "points": 9,
     "note": "казаки"},
)


def test_each_unit_carries_its_profile_actions_and_chances() -> None:
    sheet = army_sheet(GUARD)
    first, second = sheet.units
    assert (first.name, first.class_name, first.formation_name) == (
        "1-й батальон", "Grenadiers", "Square")
    assert (first.accuracy, first.discipline, first.points, first.officer) == (
        "4", "+2", "12.5", True)
    assert first.actions == ("Shoot", "March column", "Rally")
    # Discipline 2 in square (+1), and its own officer (+1, always: "ближе 12″ от
    # подразделения с офицером" holds at 0″): needs 2, all but 1-1 — 35/36, then 35, 33.
    assert [c.fraction for c in first.chances] == ["35/36", "35/36", "33/36"]
    assert all(c.officer_in_reach for c in first.chances)
    assert first.casualty_boxes == 16
    assert (second.name, second.accuracy, second.discipline, second.note) == (
        "Unit 2", "—", "−1", "казаки")
    # Discipline −1, loose, no officer: needs 7, 21 of 36.
    assert second.chances[0].fraction == "21/36" and second.chances[0].percent == "58.3 %"


def test_the_sheet_gives_totals_break_points_and_legality() -> None:
    sheet = army_sheet(GUARD)
    assert (sheet.total, sheet.points_limit, sheet.default_limit, sheet.remaining) == (
        "21.5", 30, True, "8.5")
    assert (sheet.morale_below, sheet.flight_below) == (10.75, 5.375)  # exact shares of 21.5
    assert "below 10.75 points (more than 10.75 lost)" in sheet.break_points[0]
    assert "below 5.375 points (more than 16.125 lost)" in sheet.break_points[1]
    assert sheet.valid and sheet.legality == "Legal" and sheet.issues == ()


def test_the_square_reference_is_printed_only_for_armies_that_can_form_one() -> None:
    sheet = army_sheet(GUARD, "ru")
    square = sheet.section("square")
    assert square is not None and square.units == ("1-й батальон",)
    assert any("только на 6" in p for p in square.paragraphs)
    assert sheet.section("order_test") is not None
    cavalry_only = army_sheet(roster({"class": "light_cavalry", "figures": 6, "speed": 12,
                                      "points": 5}))
    assert cavalry_only.section("square") is None


def test_the_sheet_speaks_russian_and_lists_broken_rules() -> None:
    broken = roster({"class": "light_cavalry", "figures": 6, "speed": 12, "points": 35,
                     "accuracy": 3, "formation": "square"})
    sheet = army_sheet(broken, "ru")
    assert sheet.ruleset_name == "Линия и каре"
    assert sheet.units[0].class_name == "Лёгкая кавалерия"
    assert sheet.units[0].chances[0].percent == "83,3 %"
    assert not sheet.valid and sheet.over_limit
    assert sheet.legality == "Не по правилам: 2 ошибки, 2 предупреждения"
    assert any("Лимит очков" in issue for issue in sheet.issues)
