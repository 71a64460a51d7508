"""Line and Square in the HTML builder: creating, editing by form and htmx, the share view,
the order-test calculator and the rules page."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.systems import SYSTEMS
from tests.web.test_pages import create_army

HX = {"HX-Request": "true"}
RU = {"Accept-Language": "ru"}


def csrf_of(client: TestClient) -> str:
    client.get("/")
    token = client.cookies.get("muster_csrf")
    assert token
    return token


def create(client: TestClient, name: str = "Старая гвардия", limit: str = "") -> str:
    response = client.post("/rosters/new", data={
        "csrf": csrf_of(client), "ruleset": "line_and_square", "name": name,
        "points_limit": limit, "nation": "generic", "historical": "on"},
        follow_redirects=False)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/r/([A-Za-z0-9_-]+)/edit\?created=1", response.headers["location"])
    assert match
    return match.group(1)


def stored(client: TestClient, roster_id: str) -> dict[str, Any]:
    return client.get(f"/api/v1/rosters/{roster_id}").json()


def edit(client: TestClient, roster_id: str, htmx: bool = False, **fields: str) -> Any:
    read = stored(client, roster_id)
    data = {"csrf": client.cookies.get("muster_csrf"), "version": str(read["version"]),
            "system": read["document"]["ruleset"], **fields}
    return client.post(f"/r/{roster_id}/edit", data=data, headers=HX if htmx else {},
                       follow_redirects=False)


NEW_UNIT = {"op": "add_unit", "unit_name": "1-й батальон", "class": "line_infantry",
            "figures": "12", "speed": "6", "accuracy": "4", "discipline": "0", "points": "7.5"}


def unit_form(**changes: str) -> dict[str, str]:
    """Every field of the first unit's form (its id u1, the first given), as the browser
    sends it."""
    return {"op": "update_unit", "unit": "u1", "unit_name": "1-й батальон",
            "class": "line_infantry", "formation": "loose", "figures": "12", "speed": "6",
            "accuracy": "4", "discipline": "0", "points": "7.5", "unit_note": "", **changes}


def select_options(page: str, element_id: str) -> list[str]:
    match = re.search(rf'<select id="{element_id}"[^>]*>(.*?)</select>', page, re.S)
    assert match, element_id
    return re.findall(r'<option value="([^"]+)"', match.group(1))


def text_of(page: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_the_home_page_offers_every_rule_system_of_the_editor(client: TestClient) -> None:
    page = client.get("/").text
    assert set(select_options(page, "new-ruleset")) == set(SYSTEMS)
    assert "Line and Square" in page
    assert "Линия и каре" in client.get("/", headers=RU).text


def test_a_new_army_without_a_limit_opens_the_editor_with_the_usual_30(
        client: TestClient) -> None:
    roster_id = create(client)
    read = stored(client, roster_id)
    assert read["document"]["ruleset"] == "line_and_square"
    assert read["document"]["points_limit"] is None
    assert read["result"]["points_limit"] == 30
    page = client.get(f"/r/{roster_id}/edit").text
    assert "the usual 30 points (none set)" in text_of(page)
    assert 'id="add-class"' in page and 'id="troop' not in page
    assert 'href="/calc/order-test"' in page


def test_a_new_army_with_a_limit_that_is_no_number_is_refused_by_name(
        client: TestClient) -> None:
    response = client.post("/rosters/new", data={
        "csrf": csrf_of(client), "ruleset": "line_and_square", "name": "x",
        "points_limit": "thirty"}, follow_redirects=False)
    assert response.status_code == 422
    assert "Points limit: “thirty” is not a whole number" in unescape(response.text)


def test_adding_a_unit_without_javascript_posts_redirects_and_stores_it(
        client: TestClient) -> None:
    roster_id = create(client)
    response = edit(client, roster_id, **NEW_UNIT, officer="on")
    assert response.status_code == 303
    assert response.headers["location"] == f"/r/{roster_id}/edit"
    [unit] = stored(client, roster_id)["document"]["units"]
    assert unit == {"id": "u1", "name": "1-й батальон", "class": "line_infantry", "figures": 12,
                    "speed": 6, "accuracy": 4, "discipline": 0, "points": 7.5,
                    "officer": True, "formation": "loose", "note": ""}
    page = client.get(f"/r/{roster_id}/edit").text
    assert 'id="u1-class"' in page and "7.5 pts" in text_of(page)


def test_adding_a_unit_by_htmx_returns_the_editor_with_totals_and_rules(
        client: TestClient) -> None:
    roster_id = create(client)
    response = edit(client, roster_id, htmx=True, **NEW_UNIT)
    assert response.status_code == 200
    body = response.text
    assert "<html" not in body and 'id="editor"' in body
    assert body.count('hx-swap-oob="true"') == 3  # totals, rules, the page's version
    for code in ("roster.over_limit", "unit.formation_not_allowed", "unit.square_too_small",
                 "unit.cannot_shoot", "army.no_officer"):
        assert f'data-code="{code}"' in body
    assert "check-warning" in re.search(r'<li class="([^"]+)" data-code="army.no_officer"',
                                        body).group(1)


def test_changing_a_unit_by_htmx_updates_the_document_and_the_chances(
        client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    body = edit(client, roster_id, htmx=True, **unit_form(
        formation="close_order", discipline="1", points="2,5", accuracy="", officer="on")).text
    unit = stored(client, roster_id)["document"]["units"][0]
    assert (unit["formation"], unit["discipline"], unit["points"], unit["accuracy"],
            unit["officer"]) == ("close_order", 1, 2.5, None, True)
    # Only this unit is redrawn; totals, rules and the version come out of band.
    assert body.lstrip().startswith('<li class="unit card" id="unit-u1">')
    assert 'id="editor"' not in body and 'id="add-class"' not in body
    assert 'id="summary"' in body and 'id="rules-panel"' in body
    # Discipline 1 + close order 1 = +2 needs 4 (33/36); with the officer +3 needs 3 (35/36).
    # The officer's own unit has only the officer's row (it is always within 12″ of him).
    table = re.search(r'<table class="ls-order-test">.*?</table>', body, re.S).group(0)
    cells = re.findall(r'data-officer="(\d)" data-disorder="(\d)"><span class="fraction">'
                       r'(\d+)/36', table)
    assert cells == [("1", "0", "35"), ("1", "1", "33"), ("1", "2", "30")]
    assert "the officer's own unit" in table
    actions = re.search(r'id="u1-actions">(.*?)</p>', body, re.S).group(1)
    # Close order, but no accuracy: it cannot shoot, so it has no volley either (§2).
    assert "Volley" not in actions and "Move" in actions and "Form square" in actions


def test_the_formation_select_offers_only_what_the_class_allows(client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    page = client.get(f"/r/{roster_id}/edit").text
    assert select_options(page, "u1-formation") == ["loose", "close_order", "square",
                                                    "march_column"]
    body = edit(client, roster_id, htmx=True, **unit_form(**{"class": "light_infantry"})).text
    assert select_options(body, "u1-formation") == ["loose", "close_order"]
    body = edit(client, roster_id, htmx=True, **unit_form(**{"class": "skirmishers"})).text
    assert select_options(body, "u1-formation") == ["loose"]
    body = edit(client, roster_id, htmx=True, **unit_form(**{"class": "grenadiers"})).text
    assert select_options(body, "u1-formation") == ["loose", "square", "march_column"]


def test_a_class_change_that_leaves_a_formation_not_allowed_is_shown_and_flagged(
        client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    edit(client, roster_id, **unit_form(formation="square"))
    body = edit(client, roster_id, htmx=True, **unit_form(
        **{"class": "light_cavalry"}, formation="square", accuracy="")).text
    # The stored formation is not silently changed: it is shown as not allowed, and the
    # rule names the fix.
    assert stored(client, roster_id)["document"]["units"][0]["formation"] == "square"
    assert select_options(body, "u1-formation") == ["loose", "close_order", "march_column",
                                                    "square"]
    assert "not allowed for this class" in body
    broken = re.search(r'<li class="check-broken" data-code="unit.formation_not_allowed">'
                       r'(.*?)</li>', body, re.S)
    assert broken and "Light cavalry may not deploy in square" in text_of(broken.group(1))


@pytest.mark.parametrize(("changes", "field"), [
    # Named as the form shows them, whether the form's reading or the document's model
    # refused the value.
    ({"figures": "0"}, "Unit 1, Figures"),
    ({"speed": "25"}, "Unit 1, Speed (″)"),
    ({"accuracy": "13"}, "Unit 1, Accuracy"),
    ({"discipline": "6"}, "Unit 1, Discipline"),
    ({"points": "0.3"}, "Unit 1, Points"),
    ({"points": "lots"}, "Unit 1, Points"),
    ({"points": ""}, "Unit 1, Points"),
    ({"figures": "twelve"}, "Unit 1, Figures"),
    ({"class": "hussars"}, "Unit 1, Class"),
    ({"formation": "wedge"}, "Unit 1, Formation"),
])
def test_a_bad_field_is_refused_by_name_and_nothing_is_stored(
        client: TestClient, changes: dict[str, str], field: str) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    before = stored(client, roster_id)
    response = edit(client, roster_id, htmx=True, **unit_form(**changes))
    assert response.status_code == 422
    assert f"{field}:" in unescape(response.text)
    assert stored(client, roster_id) == before


def test_common_actions_work_on_these_units(client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT, officer="on")
    edit(client, roster_id, **{**NEW_UNIT, "unit_name": "Гусары", "class": "light_cavalry",
                               "accuracy": ""})
    edit(client, roster_id, **unit_form(), officer="on", action="duplicate")
    units = stored(client, roster_id)["document"]["units"]
    # The copy's name is told apart from every other unit's.
    assert [u["name"] for u in units] == ["1-й батальон", "1-й батальон 2", "Гусары"]
    assert [u["officer"] for u in units] == [True, False, False]  # the copy has no officer
    copy = stored(client, roster_id)["document"]["units"][1]["id"]
    assert copy == "u3"  # the next id after the two already in use
    edit(client, roster_id, op="update_unit", unit="u2", action="move_up")  # Гусары
    edit(client, roster_id, op="update_unit", unit="u1", action="remove_unit")
    assert [(u["id"], u["name"]) for u in stored(client, roster_id)["document"]["units"]] == [
        ("u2", "Гусары"), ("u3", "1-й батальон 2")]


def test_the_share_view_shows_stats_chances_actions_and_break_points_without_forms(
        client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT, officer="on")
    edit(client, roster_id, **unit_form(formation="square", points="30"), officer="on")
    page = client.get(f"/r/{roster_id}").text
    assert "<select" not in page and 'name="figures"' not in page
    words = text_of(page)
    assert "Line infantry" in words and "Square" in words
    # Discipline 0 in square (+1): needs 5, 30 of 36; with the officer needs 4, 33.
    assert "30/36 83.3 %" in words and "33/36 91.7 %" in words
    # 30 points: a test below 15 left, flight below 7.5 (strictly: "падает ниже").
    assert "Morale test once strength is below 15 pts" in words
    assert "Army flees once strength is below 7.5 pts" in words
    assert "Cavalry hit a square only on a 6 (the seed: «Кавалерия атакуют Каре только на 6 " \
           "кубах»)." in words
    actions = re.search(r'<p class="ls-actions">(.*?)</p>', page, re.S).group(1)
    assert "Move" not in actions and "Shoot" in actions


def test_the_editor_speaks_russian_with_the_seeds_terms(client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    words = text_of(client.get(f"/r/{roster_id}/edit", headers=RU).text)
    for term in ("Линейная пехота", "Свободное построение", "Дисциплина", "Меткость",
                 "Тест на приказ", "маркер расстройства", "Офицер", "Сбор", "Движение",
                 "Калькулятор теста на приказ"):
        assert term in words, term
    assert "подразделений с офицером — 0" in words


# ------------------------------------------------------------------ the calculator page


def test_the_calculator_works_as_a_plain_get_form(client: TestClient) -> None:
    page = client.get("/calc/order-test").text
    assert '<form method="get" action="/calc/order-test"' in page
    assert 'hx-get="/calc/order-test"' in page
    assert "26/36 = 72.2 %" in text_of(page)
    page = client.get("/calc/order-test", params={
        "discipline": "-1", "formation": "close_order", "officer": "on",
        "disorder": "2"}).text
    # −1 + 1 + 1 − 2 = −1: needs 7, 21 of 36 = 7/12.
    words = text_of(page)
    assert "21/36 = 58.3 %" in words and "7/12" in words
    assert select_options(page, "calc-formation")[1] == "close_order"
    assert re.search(r'<option value="-1" selected>', page)
    assert re.search(r'id="calc-officer" type="checkbox" name="officer" checked', page)
    assert page.count('rx="1" class="pass"') == 21 and page.count('rx="1" class="fail"') == 15


def test_the_calculator_answers_htmx_with_only_the_result(client: TestClient) -> None:
    response = client.get("/calc/order-test", params={"discipline": "5", "formation": "square",
                                                       "officer": "on"}, headers=HX)
    assert response.status_code == 200 and "HX-Request" in response.headers["vary"]
    body = response.text
    assert "<html" not in body and "<form" not in body
    assert body.lstrip().startswith('<section id="order-test-result"')
    assert "35/36" in text_of(body)


@pytest.mark.parametrize(("params", "field"), [
    ({"discipline": "9"}, "Discipline"), ({"formation": "wedge"}, "Formation"),
    ({"disorder": "-1"}, "Disorder markers"), ({"disorder": "many"}, "Disorder markers"),
    ({"officer": "perhaps"}, "Officer within 12″"),
])
def test_the_calculator_refuses_a_bad_value_by_name(client: TestClient, params: dict[str, str],
                                                    field: str) -> None:
    response = client.get("/calc/order-test", params=params)
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith(f"{field}:")
    assert "/36 =" not in response.text


def test_the_calculator_and_rules_page_speak_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/order-test", headers=RU).text)
    assert "Калькулятор теста на приказ" in words and "Маркеры расстройства" in words
    assert "Сомкнутый строй" in words
    rules = text_of(client.get("/rules/line_and_square", headers=RU).text)
    assert "Иррегулярная кавалерия" in rules
    assert "«Кавалерия атакуют Каре только на 6 кубах»: кавалерия попадает по каре только на 6." \
        in rules


def test_the_rules_page_tabulates_the_classes_and_links_the_calculator(
        client: TestClient) -> None:
    page = client.get("/rules/line_and_square").text
    assert 'href="/calc/order-test"' in page
    row = re.search(r'<tr data-class="grenadiers">(.*?)</tr>', page, re.S).group(1)
    # shoot, skirmish, close order, square, march column, attack, volley
    cells = [text_of(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
    assert cells == ["with accuracy", "—", "—", "yes", "yes", "yes", "—"]
    # Each rule the builder checks, by its name (its code only in an attribute).
    for code, title in (("roster.over_limit", "Points limit"),
                        ("unit.formation_not_allowed", "Formations suit the classes"),
                        ("unit.square_too_small", "Squares have at least 10 figures"),
                        ("unit.cannot_shoot", "Only shooting classes have accuracy"),
                        ("army.no_officer", "An officer leads")):
        assert f'<li data-code="{code}"><strong>{title}</strong> — ' in page


def test_the_about_page_leads_to_the_rules_page_and_the_calculator(client: TestClient) -> None:
    page = client.get("/about").text
    assert 'href="/rules/line_and_square"' in page and 'href="/calc/order-test"' in page


def refusal_of(client: TestClient, roster_id: str, headers: dict[str, str],
               **fields: str) -> str:
    """The problem the editor draws for a change of unit 0 that it refuses."""
    read = stored(client, roster_id)
    data = {"csrf": client.cookies.get("muster_csrf"), "version": str(read["version"]),
            "system": read["document"]["ruleset"], **fields}
    response = client.post(f"/r/{roster_id}/edit", data=data, headers={**HX, **headers})
    assert response.status_code == 422
    match = re.search(r'role="alert" tabindex="-1" autofocus>\s*<p>(.*?)</p>', response.text,
                      re.S)
    assert match, response.text
    return unescape(match.group(1))


def test_a_refusal_speaks_the_pages_language(client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    # A unit of Line and Square is «подразделение» in Russian, as its seed and its form say
    # (the others say «отряд»): refused by the editor's reading of the form ...
    assert refusal_of(client, roster_id, RU, **unit_form(points="lots")) == \
        "Подразделение 1, Очки: 'lots' — не число очков"
    # ... and by the document's model
    assert refusal_of(client, roster_id, RU, **unit_form(figures="0")) == \
        "Подразделение 1, Фигуры: должно быть не меньше 1"
    assert refusal_of(client, roster_id, {}, **unit_form(points="lots")) == \
        "Unit 1, Points: 'lots' is not a number of points"


def test_an_imported_line_and_square_file_names_its_units_in_its_own_word(
        client: TestClient) -> None:
    roster_id = create(client)
    edit(client, roster_id, **NEW_UNIT)
    document = stored(client, roster_id)["document"]
    document["units"][0]["figures"] = 0
    answer = client.post("/rosters/import", data={"csrf": csrf_of(client)}, headers=RU,
                         files={"file": ("army.json", json.dumps(document).encode(),
                                         "application/json")})
    assert answer.status_code == 422
    assert "Подразделение 1, Фигуры: должно быть не меньше 1" in unescape(answer.text)


def test_the_other_systems_refusals_still_say_otryad(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    chainmail = {"op": "update_unit", "unit": "u1", "line": "l1", "troop_l1": "light_horse",
                 "weapon_l1": "composite_bow"}
    assert refusal_of(client, roster_id, RU, **chainmail, figures_l1="десять") == \
        "Отряд 1, строка 1, Фигуры: «десять» — не целое число"
    assert refusal_of(client, roster_id, RU, **chainmail, figures_l1="0") == \
        "Отряд 1, строка 1, Фигуры: должно быть не меньше 1"


@pytest.mark.parametrize("system", ["line_and_square", "formation_density"])
def test_each_rule_systems_rules_page_is_served_by_its_contract(client: TestClient,
                                                                system: str) -> None:
    page = client.get(f"/rules/{system}", headers=RU)
    assert page.status_code == 200 and SYSTEMS[system].name("ru") in page.text


@pytest.mark.parametrize("system", ["chainmail", "no_such_system", "..%2Fetc"])
def test_a_rules_page_no_system_has_is_not_found(client: TestClient, system: str) -> None:
    # Chainmail's rules are the About page; an unknown id is no template's name.
    assert client.get(f"/rules/{system}").status_code == 404
