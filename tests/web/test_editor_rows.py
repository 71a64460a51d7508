"""The compact editor through a test client: Make it legal through the normal edit path, the
special rules offered where they apply, the choices' standing, problems first."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.web.test_pages import create_army, document, edit, unit_form, version_of


def add(client: TestClient, roster_id: str, preset: str) -> None:
    assert edit(client, roster_id, op="add_unit", preset=preset).status_code == 303  # type: ignore[attr-defined]


def test_make_it_legal_is_one_new_version_that_undo_takes_back(client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols", limit="300")
    for preset in ("steppe_horse_archers", "steppe_medium_lancers", "steppe_light_lancers"):
        add(client, roster_id, preset)
    edit(client, roster_id, op="update_unit", **unit_form(
        client, roster_id, 0, unit_name="", figures_0="40",
        troop_0="light_horse", weapon_0="bow"))
    page = client.get(f"/r/{roster_id}/edit").text
    # Offered, and found only when asked for: the search is not run for every change.
    assert 'id="suggest-button"' in page and "Make these changes" not in page
    page = client.get(f"/r/{roster_id}/edit?suggest=1").text
    assert 'id="make-legal"' in page and "Make these changes" in page
    before = version_of(client, roster_id)
    answer = edit(client, roster_id, htmx=True, op="make_legal")
    assert answer.status_code == 200  # type: ignore[attr-defined]
    assert version_of(client, roster_id) == before + 1
    assert re.search(r'class="verdict ok"', answer.text)  # type: ignore[attr-defined]
    assert 'id="make-legal"' not in answer.text  # type: ignore[attr-defined]  # nothing left to do
    undone = edit(client, roster_id, htmx=True, op="undo")
    assert undone.status_code == 200  # type: ignore[attr-defined]
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 40


def test_make_it_legal_says_it_removes_what_it_removes(client: TestClient) -> None:
    # Nine heavy foot in an all-horse army: the suggestion removes them and says so.
    roster_id = create_army(client, nation="mongols", limit="300")
    for preset in ("steppe_horse_archers", "steppe_medium_lancers", "steppe_light_lancers",
                   "heavy_foot_polearms"):
        add(client, roster_id, preset)
    edit(client, roster_id, op="update_unit", **unit_form(
        client, roster_id, 3, unit_name="", figures_0="9",
        troop_0="heavy_foot", weapon_0="polearm"))
    for lang, said in (("en", "9 figures removed; the army then costs "),
                       ("ru", "Убрано 9 фигур; армия тогда стоит ")):
        page = client.get(f"/r/{roster_id}/edit?suggest=1&lang={lang}").text
        outcome = re.search(r'<p class="meta" id="make-legal-outcome">([^<]*)</p>', page)
        assert outcome and outcome.group(1).startswith(said), lang
        assert " moved" not in outcome.group(1) and "Изменено" not in outcome.group(1)


def test_make_it_legal_says_why_when_no_change_of_figures_can(client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols", limit="1")
    add(client, roster_id, "steppe_horse_archers")
    page = client.get(f"/r/{roster_id}/edit?suggest=1").text
    assert "No change of figures makes this list legal" in page
    answer = edit(client, roster_id, htmx=True, op="make_legal")
    assert answer.status_code == 422  # type: ignore[attr-defined]
    assert "Make it legal:" in answer.text  # type: ignore[attr-defined]


def test_special_rules_are_offered_where_they_apply(client: TestClient) -> None:
    roster_id = create_army(client, nation="poles")
    add(client, roster_id, "medium_lancers")
    page = client.get(f"/r/{roster_id}/edit").text
    offered, _, more = page.partition('class="more-rules"')
    assert 'id="u1-flag-knights"' in offered  # knights on horse
    assert 'id="u1-flag-samurai"' in more and 'id="u1-flag-flemish"' in more


def test_a_japanese_choice_says_its_table_18_standing(client: TestClient) -> None:
    roster_id = create_army(client, nation="japan")
    add(client, roster_id, "japanese_samurai")
    page = client.get(f"/r/{roster_id}/edit").text
    select = re.search(r'<select id="u1-l1-troop".*?</select>', page, re.S)
    assert select and "Table 18: yes" in select.group(0) and "Table 18: no" in select.group(0)
    assert 'id="u1-flag-samurai"' in page.partition('class="more-rules"')[0]


def test_broken_rules_come_first_and_kept_ones_fold(client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols")
    add(client, roster_id, "heavy_foot_polearms")
    page = client.get(f"/r/{roster_id}/edit").text
    panel = page[page.index('id="rules-panel"'):]
    first = re.search(r'<li class="check-(\w+)"', panel)
    assert first and first.group(1) == "broken"
    assert re.search(r'<details class="kept">\s*<summary>✓ Rules kept: \d+', panel)
    assert 'href="#rules-panel" id="first-problem"' in page


def test_my_rosters_show_the_rule_system_and_verdict_and_sort_by_them(
        client: TestClient) -> None:
    # The nation's three presets keep every Mongol band; no unit is the commander's, a warning.
    warned = create_army(client, name="Preset horde", nation="mongols")
    for preset in ("steppe_horse_archers", "steppe_medium_lancers", "steppe_light_lancers"):
        add(client, warned, preset)
    broken = create_army(client, name="Broken horde", nation="mongols")
    add(client, broken, "heavy_foot_polearms")
    home = client.get("/?sort=verdict&dir=asc").text
    rows = re.findall(r'<td class="verdict (ok|warn|bad)">', home)
    assert rows == ["bad", "warn"]  # not legal first, ascending
    assert home.index("Broken horde") < home.index("Preset horde")
    assert "<td>Chainmail" in home or ">Chainmail<" in home
    descending = client.get("/?sort=verdict&dir=desc").text
    assert descending.index("Preset horde") < descending.index("Broken horde")


def test_htmx_asking_for_the_suggestion_gets_its_part_of_the_page_alone(
        client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols", limit="300")
    add(client, roster_id, "steppe_horse_archers")
    edit(client, roster_id, op="update_unit", **unit_form(
        client, roster_id, 0, unit_name="", figures_0="80",
        troop_0="light_horse", weapon_0="bow"))
    answer = client.get(f"/r/{roster_id}/edit?suggest=1&lang=ru", headers={"HX-Request": "true"})
    assert answer.status_code == 200
    assert answer.text.lstrip().startswith('<div class="make-legal" id="make-legal">')
    assert "Внести эти изменения" in answer.text and "<html" not in answer.text
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_legal_list_is_offered_nothing_to_make_legal(client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols", limit="300")
    add(client, roster_id, "steppe_horse_archers")
    assert edit(client, roster_id, op="make_legal").status_code == 303  # type: ignore[attr-defined]
    page = client.get(f"/r/{roster_id}/edit?suggest=1").text
    assert 'id="make-legal"' not in page and 'class="verdict bad"' not in page


def test_the_share_view_neither_offers_nor_searches_for_a_suggestion(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    roster_id = create_army(client, nation="mongols", limit="300")
    add(client, roster_id, "steppe_horse_archers")
    edit(client, roster_id, op="update_unit", **unit_form(
        client, roster_id, 0, unit_name="", figures_0="80",
        troop_0="light_horse", weapon_0="bow"))

    def searched(*_args: object) -> None:
        raise AssertionError("the share view ran the search")

    monkeypatch.setattr("app.systems.chainmail.make_legal.make_legal", searched)
    page = client.get(f"/r/{roster_id}")
    assert page.status_code == 200 and "check-broken" in page.text
    assert 'id="make-legal"' not in page.text


@pytest.mark.parametrize("nation", ["mongols", "spanish"])
def test_a_changed_unit_names_its_no_weapon_choice_as_the_whole_page_does(
        client: TestClient, nation: str) -> None:
    # The htmx answer draws the row alone: the "no weapon" choice must read as on the page,
    # never as an empty option (or " — not in this army" with no name before it).
    roster_id = create_army(client, nation=nation)
    add(client, roster_id, "horse_archers")
    answer = edit(client, roster_id, htmx=True, op="update_unit", **unit_form(
        client, roster_id, 0, unit_name="", figures_0="12", troop_0="light_horse",
        weapon_0="none"))
    assert answer.status_code == 200  # type: ignore[attr-defined]
    page = client.get(f"/r/{roster_id}/edit").text
    for drawn in (answer.text, page):  # type: ignore[attr-defined]
        option = re.search(r'<option value="none"[^>]*>([^<]*)</option>', drawn)
        assert option and option.group(1).startswith("no weapon"), option
