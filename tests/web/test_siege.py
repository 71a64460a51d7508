"""The siege calculator's API and page, in both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import HX, RU, text_of

API = "/api/v1/rulesets/chainmail/siege"


def test_the_api_answers_hits_turns_and_rams(client: TestClient) -> None:
    answer = client.post(API, json={
        "structures": [{"kind": "bastion", "points": 40}, {"kind": "palisade", "points": 10}],
        "weapons": [{"kind": "bombard", "count": 1}, {"kind": "light_catapult", "count": 2}],
        "rams": 1}).json()
    bastion, palisade = answer["structures"]
    assert bastion["hits_to_destroy"]["bombard"] == 7
    assert palisade["hits_to_destroy"]["light_catapult"] == 5
    assert answer["battery_damage_per_turn"] == 10 and bastion["battery"]["turns"] == 4
    assert answer["disable_chance"] == {"numerator": 5, "denominator": 18}
    assert palisade["rams"]["damage"][0] == {"damage": 0, "probability": {
        "numerator": 5, "denominator": 18}}
    total = sum(t["probability"]["numerator"] / t["probability"]["denominator"]
                for t in palisade["turns"])
    assert abs(total - 1) < 1e-12 and palisade["never"]["numerator"] == 0


@pytest.mark.parametrize(("body", "field"), [
    ({"structures": [{"kind": "palisade", "points": 20}]}, "structures[0].points"),
    ({"structures": [{"kind": "bastion", "points": 39}]}, "structures[0].points"),
    ({"structures": [{"kind": "keep", "points": 40}]}, "structures[0]: kind"),
    ({"structures": []}, "structures"),
    ({"structures": [{"kind": "bastion", "points": 40}], "rams": 11}, "rams"),
    ({"structures": [{"kind": "bastion", "points": 40}],
      "weapons": [{"kind": "trebuchet", "count": 1}]}, "weapons[0].kind"),
    ({"structures": [{"kind": "bastion", "points": 40}],
      "weapons": [{"kind": "bombard", "count": -1}]}, "weapons[0].count"),
])
def test_the_api_refuses_bad_input_by_name(client: TestClient, body: dict[str, object],
                                           field: str) -> None:
    response = client.post(API, json=body)
    assert response.status_code == 422
    assert field in response.json()["message"], response.json()["message"]


def test_the_page_is_a_plain_get_form(client: TestClient) -> None:
    page = client.get("/calc/siege", params={"s0": "palisade", "p0": "10",
                                             "light_catapult": "1", "rams": "0"}).text
    assert '<form method="get" action="/calc/siege"' in page and 'hx-get="/calc/siege"' in page
    words = text_of(page)
    assert "Light catapult (−2) 5" in words
    assert "The battery removes 2 points a turn; turns if every engine hits: 5." in words
    assert "Ladders" in words and "Boiling oil" in words and "Mines and countermines" in words
    assert "before its blow" in words  # the ram reading


def test_the_default_page_and_htmx(client: TestClient) -> None:
    words = text_of(client.get("/calc/siege").text)
    assert "Bombard (−6) 7" in words and "The rams' damage before they are disabled" in words
    response = client.get("/calc/siege", params={"s0": "bastion", "p0": "40"}, headers=HX)
    assert "<html" not in response.text and "<form" not in response.text
    assert response.text.lstrip().startswith('<section id="siege-result"')


@pytest.mark.parametrize(("params", "field"), [
    ({"s0": "palisade", "p0": "20"}, "Structure points 1"),
    ({"s0": "keep"}, "Structure 1"), ({"s0": ""}, "Structure 1"),
    ({"s0": "bastion", "p0": "40", "rams": "x"}, "Covered rams"),
    ({"s0": "bastion", "p0": "40", "bombard": "-2"}, "Bombard"),
])
def test_the_page_refuses_a_bad_field_by_name(client: TestClient, params: dict[str, str],
                                              field: str) -> None:
    response = client.get("/calc/siege", params=params)
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith(f"{field}:")


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/siege", headers=RU).text)
    for term in ("Бастионы и круглые башни", "Бомбарда", "Лёгкая Катапульта", "Лестницы",
                 "Кипящее Масло", "Камни", "Мины и Разминирование", "Брешь",
                 "Передвижные Мантелеты", "Калькулятор осады", "захватчиков тарана"):
        assert term in words, term
    about = client.get("/about").text
    assert about.count('href="/calc/siege"') >= 2 and 'id="about-siege"' in about
