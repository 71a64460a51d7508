"""The Formation Density army sheet and its text exports: figures, words, escaping."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt

from app.exports import export_bbcode, export_markdown, export_text
from app.systems import SYSTEMS
from app.systems.formation_density import FormationDensityRoster
from app.systems.formation_density.sheet import army_sheet


def line(kind: str, weapon: str, count: int, **flags: bool) -> dict[str, Any]:
    return {"class": kind, "weapon": weapon, "count": count, **flags}


def roster(*units: dict[str, Any], limit: int | None = 50,
           name: str = "Легион") -> FormationDensityRoster:
    return FormationDensityRoster.model_validate(
        {"name": name, "ruleset": "formation_density", "points_limit": limit,
         "units": list(units)})


HASTATI = {"name": "Гастаты", "density": 3, "files": 20, "points": 12.5, "lines": [
    line("melee_specialists", "heavy_throwing", 20, shield=True, armour=True),
    line("melee_specialists", "sword", 20, shield=True, armour=True)]}
RIDERS = {"name": "Всадники", "density": 2, "files": 10, "lines": [
    line("shock_cavalry", "cavalry_lance", 10, mounted=True, moved_straight=True)]}
EXPORTS = SYSTEMS["formation_density"].writers


def test_the_sheet_gives_each_units_figures_in_the_players_language() -> None:
    sheet = army_sheet(roster(HASTATI, RIDERS), "ru")
    hastati, riders = sheet.units
    assert (sheet.total, sheet.remaining, sheet.warriors) == ("12,5", "37,5", 50)
    assert sheet.ruleset_name == "Плотность строя"
    assert (hastati.ranks, hastati.full_ranks, hastati.front_rank) == (2, 2, 20)
    # Density 3: the shield wall blocks on a roll of 1 or 2, (1 + 2) / 6 on average.
    assert hastati.shield_wall == "1/3 (33,3 %), в среднем отбито 0,5"
    assert hastati.lines[0].hits == "попадает: 1/2 (50 %)"
    assert hastati.lines[0].kit == "щит, доспехи"
    assert riders.lines[0].hits == "попадает, если выпало больше плотности противника"
    assert riders.points is None and riders.features == ("Бронебойное", "Удар коня")


def test_the_sheet_lists_broken_rules_and_a_verdict() -> None:
    pikes_with_shields = {"density": 1, "files": 5, "lines": [
        line("shock_troops", "pike", 10, shield=True)]}
    sheet = army_sheet(roster(pikes_with_shields), "en")
    assert sheet.legality == "Not legal: 1 error, 1 warning"
    assert any("shield with a two-handed weapon" in issue for issue in sheet.issues)
    assert army_sheet(roster(HASTATI), "en").legality == "Legal"


def test_reference_sections_are_added_only_when_asked_and_unknown_ones_refused() -> None:
    assert army_sheet(roster(HASTATI), "en").sections == ()
    sheet = army_sheet(roster(HASTATI), "en", optional=["protection"])
    assert [s.id for s in sheet.sections] == ["protection"]
    with pytest.raises(ValueError, match="unknown section"):
        army_sheet(roster(HASTATI), "en", optional=["weather"])


def test_the_text_export_reads_like_the_sheet() -> None:
    text = export_text(roster(HASTATI, RIDERS), "en")
    assert text.splitlines()[:4] == ["Легион", "Formation Density",
                                     "Points: 12.5 of 50 points (37.5 left)", "Warriors: 50"]
    assert "1. Гастаты — 40 warriors, 12.5 points" in text
    assert "20 × Melee specialists, Sword; shield, armour — hits 1/2 (50 %)" in text
    assert text.rstrip().endswith("Legal")


def test_a_roster_without_points_says_they_are_not_counted() -> None:
    text = export_text(roster(RIDERS, limit=None), "ru")
    assert "Очки: не считаются" in text and "10 воинов" in text


HOSTILE = "[url=x]*Злой*[/url] | <b>\nnext"


def test_player_text_cannot_open_markup_in_any_format() -> None:
    # Written past validation, which refuses a line break in a name now: the writers must
    # stay inert whatever a document holds.
    valid = roster({**RIDERS, "note": "# heading\n- item"})
    doc = valid.model_copy(update={"name": HOSTILE, "units": [
        valid.units[0].model_copy(update={"name": HOSTILE})]})
    markdown = export_markdown(doc, "en")
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<a " not in html and "<b>" not in html and "<em>" not in html
    assert "<h1>" in html and html.count("<h1>") == 1  # only the sheet's own heading
    bbcode = export_bbcode(doc, "en")
    assert "[url" not in bbcode and "［url=x］" in bbcode
    plain = export_text(doc, "en")
    assert "\nnext" not in plain and "<b> next" in plain
