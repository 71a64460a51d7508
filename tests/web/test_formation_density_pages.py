"""Formation Density in the HTML builder: creating a roster, the unit form, derived figures,
the share view, the melee calculator page and the rules page."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

HX = {"HX-Request": "true"}


def csrf_of(client: TestClient) -> str:
    client.get("/")
    token = client.cookies.get("muster_csrf")
    assert token
    return token


def create(client: TestClient, name: str = "Фаланга", limit: str = "") -> str:
    response = client.post("/rosters/new", data={
        "csrf": csrf_of(client), "name": name, "ruleset": "formation_density",
        "points_limit": limit}, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = re.fullmatch(r"/r/([A-Za-z0-9_-]+)/edit\?created=1", response.headers["location"])
    assert found
    return found.group(1)


def document(client: TestClient, roster_id: str) -> dict[str, Any]:
    return client.get(f"/api/v1/rosters/{roster_id}").json()["document"]


def edit(client: TestClient, roster_id: str, htmx: bool = False, **fields: Any) -> Any:
    read = client.get(f"/api/v1/rosters/{roster_id}").json()
    data = {"csrf": client.cookies.get("muster_csrf"), "version": str(read["version"]),
            "system": read["document"]["ruleset"], **fields}
    return client.post(f"/r/{roster_id}/edit", data=data, headers=HX if htmx else {},
                       follow_redirects=False)


PIKES = {"unit_name": "Пикинёры", "density": "4", "files": "10", "points": "12,5",
         "count": "30", "class": "shock_troops", "weapon": "pike", "armour": "on"}


def add(client: TestClient, roster_id: str, **fields: str) -> Any:
    return edit(client, roster_id, op="add_unit", **{**PIKES, **fields})


def unit_form(doc: dict[str, Any], i: int, **changes: str) -> dict[str, Any]:
    """The fields a player's browser sends for unit `i` as it stands (the unit and its lines
    named by their ids: `count_l2`), with `changes` (a line's field as `<name>_<j>`, j the
    line's place)."""
    unit = doc["units"][i]
    lines = [line["id"] for line in unit["lines"]]
    fields: dict[str, Any] = {
        "op": "update_unit", "unit": unit["id"], "line": lines, "unit_name": unit["name"],
        "density": str(unit["density"]), "files": str(unit["files"]),
        "points": "" if unit["points"] is None else str(unit["points"]),
        "unit_note": unit["note"]}
    for line in unit["lines"]:
        at = line["id"]
        fields |= {f"count_{at}": str(line["count"]), f"class_{at}": line["class"],
                   f"weapon_{at}": line["weapon"]}
        fields |= {f"{flag}_{at}": "on" for flag in ("shield", "armour", "mounted",
                                                     "cavalry_armour", "moved_straight")
                   if line[flag]}
    for key, value in changes.items():
        name, _, j = key.rpartition("_")
        fields[f"{name}_{lines[int(j)]}" if name and j.isdigit() else key] = value
    return fields


def test_a_formation_density_roster_is_created_from_the_home_page(client: TestClient) -> None:
    assert "Formation Density" in client.get("/").text
    roster_id = create(client, limit="100")
    doc = document(client, roster_id)
    assert (doc["ruleset"], doc["points_limit"], doc["units"]) == ("formation_density", 100, [])
    page = client.get(f"/r/{roster_id}/edit").text
    assert 'id="add-unit"' in page and f'href="/calc/melee?roster={roster_id}"' in page


def test_adding_a_unit_stores_it_and_shows_its_derived_figures(client: TestClient) -> None:
    roster_id = create(client)
    assert add(client, roster_id).status_code == 303
    unit = document(client, roster_id)["units"][0]
    assert unit["points"] == 12.5 and unit["density"] == 4
    assert unit["lines"] == [{"id": "l1", "class": "shock_troops", "weapon": "pike", "count": 30,
                              "shield": False, "armour": True, "mounted": False,
                              "cavalry_armour": False, "moved_straight": False}]
    page = client.get(f"/r/{roster_id}/edit").text
    # 30 pikes in 10 files: 3 ranks, all full, 2 × 2 extra hits; shock troops below 4: 1/2.
    assert re.search(r'id="u1-ranks">3<', page) and re.search(r'id="u1-full-ranks">3<', page)
    assert re.search(r'id="u1-front">10<', page) and re.search(r'id="u1-extra">4<', page)
    assert "1/2 (50 %)" in page


def test_the_unit_form_changes_density_lines_and_protection(client: TestClient) -> None:
    roster_id = create(client)
    add(client, roster_id)
    doc = document(client, roster_id)
    answer = edit(client, roster_id, htmx=True, **unit_form(doc, 0, density="2",
                                                             shield_0="on", weapon_0="spear"))
    assert answer.status_code == 200
    line = document(client, roster_id)["units"][0]["lines"][0]
    assert (line["weapon"], line["shield"], line["armour"]) == ("spear", True, True)
    assert 'id="u1-shield-wall">1/6 (16.7 %)' in answer.text
    # A second line, then its removal.
    edit(client, roster_id, **unit_form(document(client, roster_id), 0, action="add_line"))
    assert len(document(client, roster_id)["units"][0]["lines"]) == 2
    edit(client, roster_id, **unit_form(document(client, roster_id), 0, weapon_1="sword",
                                        class_1="melee_specialists"))
    assert document(client, roster_id)["units"][0]["lines"][1]["weapon"] == "sword"
    edit(client, roster_id, **unit_form(document(client, roster_id), 0,
                                        action="remove_line:l1"))
    assert [ln["weapon"] for ln in document(client, roster_id)["units"][0]["lines"]] == [
        "sword"]


def test_a_units_points_may_be_left_empty(client: TestClient) -> None:
    roster_id = create(client, limit="10")
    add(client, roster_id, points="")
    assert document(client, roster_id)["units"][0]["points"] is None
    assert "no points" in client.get(f"/r/{roster_id}/edit").text


@pytest.mark.parametrize(("fields", "field"), [
    ({"count": "501"}, "Unit 1, line 1, Warriors: must be at most 500"),
    ({"density": "7"}, "Unit 1, Density: must be at most 6"),
    ({"files": "many"}, "Files: “many” is not a whole number"),
    ({"points": "1.3"}, "Unit 1, Points:"),
    ({"points": "lots"}, "Points:"),
    ({"weapon": "trident"}, "Unit 1, line 1, Weapon: not one of the choices"),
])
def test_bad_unit_fields_are_refused_naming_the_field_and_nothing_is_stored(
        client: TestClient, fields: dict[str, str], field: str) -> None:
    roster_id = create(client)
    answer = add(client, roster_id, **fields)
    assert answer.status_code == 422
    assert field in unescape(answer.text)
    assert document(client, roster_id)["units"] == []


def test_the_last_line_of_a_unit_cannot_be_removed(client: TestClient) -> None:
    roster_id = create(client)
    add(client, roster_id)
    answer = edit(client, roster_id, **unit_form(document(client, roster_id), 0,
                                                 action="remove_line:l1"))
    assert answer.status_code == 422 and "at least one line" in answer.text
    assert len(document(client, roster_id)["units"][0]["lines"]) == 1
    client.get("/lang/ru")
    answer = edit(client, roster_id, **unit_form(document(client, roster_id), 0,
                                                 action="remove_line:l1"))
    assert "хотя бы одна строка" in answer.text


def test_broken_rules_show_in_the_rules_panel(client: TestClient) -> None:
    roster_id = create(client)
    add(client, roster_id, shield="on")  # a shield with pikes
    page = client.get(f"/r/{roster_id}/edit").text
    assert re.search(r'class="check-broken" data-code="unit.two_handed_shield"', page)
    assert re.search(r'class="check-kept" data-code="unit.weapon_class"', page)


def test_the_share_view_shows_figures_without_controls(client: TestClient) -> None:
    roster_id = create(client)
    add(client, roster_id)
    page = client.get(f"/r/{roster_id}").text
    assert "Пикинёры" in page and "Formation Density" in page
    assert re.search(r'id="u1-extra">4<', page)
    assert 'name="density"' not in page and 'action="/r/' + roster_id + '/edit"' not in page
    assert f"/calc/melee?roster={roster_id}&amp;a={roster_id}:0" in page


def test_the_editor_speaks_russian_with_the_source_texts_terms(client: TestClient) -> None:
    roster_id = create(client)
    add(client, roster_id)
    client.get(f"/lang/ru?next=/r/{roster_id}/edit")
    page = client.get(f"/r/{roster_id}/edit").text
    for term in ("Ударные войска", "Пики", "Плотность строя", "Доспехи", "Полных шеренг"):
        assert term in page, term


# ---------------------------------------------------------------- the melee calculator page

def two_units(client: TestClient) -> str:
    roster_id = create(client)
    add(client, roster_id)
    add(client, roster_id, unit_name="Мечники", density="3", files="5", count="10",
        **{"class": "melee_specialists"}, weapon="sword", armour="", shield="on")
    return roster_id


def test_the_calculator_page_works_without_javascript(client: TestClient) -> None:
    roster_id = two_units(client)
    page = client.get(f"/calc/melee?roster={roster_id}&a={roster_id}:0&b={roster_id}:1")
    assert page.status_code == 200
    assert '<form method="get" action="/calc/melee"' in page.text
    assert 'id="side-a-result"' in page.text and 'id="side-b-result"' in page.text
    assert "<svg" in page.text and 'class="fd-bar"' in page.text
    assert "Sword hits as parries" in page.text  # the swordsmen strike in the front rank
    assert "larger half strikes the horses" in page.text  # the reading is written down
    assert " style=" not in page.text  # the CSP forbids inline styles


def test_the_calculator_defaults_to_the_first_two_units_of_the_roster(
        client: TestClient) -> None:
    roster_id = two_units(client)
    page = client.get(f"/calc/melee?roster={roster_id}").text
    assert re.search(rf'<option value="{roster_id}:0" selected>', page)
    assert re.search(rf'<option value="{roster_id}:1" selected>', page)


def test_htmx_gets_only_the_result_block(client: TestClient) -> None:
    roster_id = two_units(client)
    answer = client.get(f"/calc/melee?roster={roster_id}&a={roster_id}:1&b={roster_id}:0",
                        headers=HX)
    assert answer.status_code == 200
    assert answer.text.lstrip().startswith('<section id="melee-result"')
    assert "<html" not in answer.text and 'id="melee-pickers"' not in answer.text


def test_a_roster_is_added_by_its_share_link_and_its_units_offered(client: TestClient) -> None:
    mine = two_units(client)
    other = create(client, name="Конница")
    add(client, other, unit_name="Катафракты", density="2", count="10",
        **{"class": "shock_cavalry"}, weapon="cavalry_lance", mounted="on",
        moved_straight="on")
    link = f"http://testserver/r/{other}"
    answer = client.get("/calc/melee", params={"roster": mine, "add": link,
                                               "a": f"{mine}:0", "b": f"{other}:0"},
                        headers=HX)
    assert 'id="melee-pickers"' in answer.text and 'hx-swap-oob="true"' in answer.text
    assert f'<input type="hidden" name="roster" value="{other}">' in answer.text
    assert "Катафракты" in answer.text and "at the horses" not in answer.text.split(
        'id="side-a-result"')[1].split('id="side-b-result"')[0]


@pytest.mark.parametrize(("query", "words"), [
    ("add=nonsense%20here", "is not a roster link or id"),
    ("add=nosuchroster", "There is no roster nosuchroster"),
    ("a=nosuchroster:0", "There is no roster nosuchroster"),
])
def test_unreadable_rosters_are_explained_not_crashed(client: TestClient, query: str,
                                                      words: str) -> None:
    answer = client.get(f"/calc/melee?{query}")
    assert answer.status_code == 422 and words in answer.text


def test_a_deleted_roster_is_said_to_be_deleted_not_unknown(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Фаланга", "ruleset": "formation_density", "units": []}).json()
    roster_id = created["id"]
    gone = client.delete(f"/api/v1/rosters/{roster_id}",
                         headers={"Authorization": f"Bearer {created['edit_key']}"})
    assert gone.status_code == 204
    until = client.get(f"/api/v1/rosters/{roster_id}").json()["message"].rpartition(" ")[2]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", until)
    for query in (f"roster={roster_id}", f"add={roster_id}", f"a={roster_id}:0"):
        answer = client.get(f"/calc/melee?{query}")
        assert answer.status_code == 422
        text = unescape(answer.text)
        assert f"Roster {roster_id} was deleted. Its owner can restore it until {until}." \
            in text and "There is no roster" not in text, query
        russian = unescape(client.get(f"/calc/melee?{query}&lang=ru").text)
        assert f"Армия {roster_id} удалена. Владелец может восстановить её до {until}." \
            in russian and "Армии " not in russian, query


def test_a_roster_link_that_cannot_be_added_stays_in_its_field(client: TestClient) -> None:
    # Typed, then Compute clicked: the field's change and the submit both ask. Were the field
    # cleared by the first answer, the second would replace its problem with "nothing to add".
    roster_id = two_units(client)
    for bad, words in (("nonsense here", "is not a roster link or id"),
                       ("nosuchroster", "There is no roster nosuchroster")):
        answer = client.get("/calc/melee", params={"roster": roster_id, "add": bad}, headers=HX)
        assert words in answer.text  # beside the result of the units already there
        assert f'id="melee-add" name="add" maxlength="300" autocomplete="off" ' \
               f'placeholder="https://…/r/…" value="{bad}"' in answer.text
    other = two_units(client)
    added = client.get("/calc/melee", params={"roster": roster_id, "add": other}, headers=HX)
    assert added.status_code == 200 and 'placeholder="https://…/r/…" value=""' in added.text


def test_a_roster_of_another_rule_system_is_not_offered(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Орда", "ruleset": "chainmail", "nation": "mongols", "units": []}).json()
    answer = client.get(f"/calc/melee?roster={created['id']}")
    assert answer.status_code == 422
    assert "is not a Formation Density roster" in answer.text


def test_the_calculator_page_speaks_russian(client: TestClient) -> None:
    roster_id = two_units(client)
    page = client.get(f"/calc/melee?roster={roster_id}&lang=ru").text
    assert "Калькулятор рукопашной" in page and "Потери" in page


def test_the_rules_page_lists_weapons_and_links_the_calculator(client: TestClient) -> None:
    page = client.get("/rules/formation_density").text
    assert 'href="/calc/melee"' in page
    assert 'data-weapon="heavy_throwing"' in page and "unit.two_handed_shield" in page
    russian = client.get("/rules/formation_density?lang=ru").text
    assert "Тяжёлое метательное" in russian and "Бронебойное" in russian


def test_the_about_page_links_the_rules_page_and_the_calculator(client: TestClient) -> None:
    page = client.get("/about").text
    assert 'href="/rules/formation_density"' in page and 'href="/calc/melee"' in page
    empty = client.get("/calc/melee")
    assert empty.status_code == 200 and "paste the share link" in empty.text


def test_a_chance_of_never_or_always_is_shown_as_a_percentage_alone() -> None:
    from app.systems.formation_density.editor import chance_text

    assert chance_text({"exact": "0/1", "float": 0.0}, "en") == "0 %"
    assert chance_text({"exact": "1/1", "float": 1.0}, "en") == "100 %"
    assert chance_text({"exact": "5/6", "float": 5 / 6}, "en") == "5/6 (83.3 %)"
    assert chance_text({"exact": "5/6", "float": 5 / 6}, "ru") == "5/6 (83,3 %)"
    assert chance_text(None, "en") is None


def test_a_whole_number_of_blocks_is_shown_whole() -> None:
    from app.systems.formation_density.editor import exact_text

    assert exact_text("0/1") == "0" and exact_text("2/1") == "2" and exact_text("5/3") == "5/3"
