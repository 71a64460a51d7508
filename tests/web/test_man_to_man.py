"""The man-to-man calculator's API and page, in both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import HX, RU, text_of

API = "/api/v1/rulesets/chainmail/man-to-man"


def test_the_api(client: TestClient) -> None:
    answer = client.post(API, json={"attacker": {"weapon_class": 10, "mounted": True},
                                    "defender": {"weapon_class": 1, "foot_weight": "heavy"}})
    body = answer.json()
    assert body["first"]["1"] == {"side": "defender", "rule": "4d"}
    assert body["sides"]["defender"]["blows"] == 3
    assert body["sides"]["attacker"]["horse_blow"] == {"blows": 2, "as": "flail"}
    assert body["dismount"]["3"] == {"numerator": 1, "denominator": 6}


@pytest.mark.parametrize(("body", "field"), [
    ({"attacker": {"weapon_class": 0}, "defender": {"weapon_class": 1}}, "attacker.weapon_class"),
    ({"attacker": {"weapon_class": 2}, "defender": {"weapon_class": 1, "foot_weight": "x"}},
     "defender.foot_weight"),
    ({"attacker": {"weapon_class": 2}, "defender": {"weapon_class": 1},
      "attacked_from": "above"}, "attacked_from"),
    ({"attacker": {"weapon_class": 2}}, "defender"),
])
def test_the_api_refuses_bad_input_by_name(client: TestClient, body: dict[str, object],
                                           field: str) -> None:
    response = client.post(API, json=body)
    assert response.status_code == 422
    assert field in response.json()["message"], response.json()["message"]


def test_the_page_is_a_plain_get_form(client: TestClient) -> None:
    page = client.get("/calc/man-to-man", params={"a_class": "5", "d_class": "9",
                                                  "from": "rear"}).text
    assert '<form method="get" action="/calc/man-to-man"' in page
    words = text_of(page)
    assert "Round 1: first blow: Attacker — attacked from the rear" in words
    assert "Strikes in round 1 yes no" in words
    mounted = text_of(client.get("/calc/man-to-man", params={
        "a_class": "4", "a_mounted": "on", "d_class": "4", "d_weight": "light"}).text)
    assert "as 1 mace(s)" in mounted and "Table 23: Dismounting" in mounted


def test_htmx_gets_only_the_result(client: TestClient) -> None:
    response = client.get("/calc/man-to-man", params={"a_class": "3"}, headers=HX)
    assert "<html" not in response.text and "<form" not in response.text
    assert response.text.lstrip().startswith('<section id="m2m-result"')


@pytest.mark.parametrize(("params", "field"), [
    ({"a_class": "0"}, "Attacker: weapon class"), ({"d_class": "x"}, "Defender: weapon class"),
    ({"from": "above"}, "Attacked from"), ({"d_weight": "huge"}, "Defender: foot"),
])
def test_the_page_refuses_a_bad_field_by_name(client: TestClient, params: dict[str, str],
                                              field: str) -> None:
    response = client.get("/calc/man-to-man", params=params)
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith(f"{field}:")


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/man-to-man", params={"a_mounted": "on"},
                               headers=RU).text)
    for term in ("Бой «Один на один»", "Таблица 23: Спешивание", "Оглушён на 1 Ход",
                 "Атакующий", "Защитник", "Берсерк"):
        assert term in words, term
    about = client.get("/about").text
    assert 'href="/calc/man-to-man"' in about and 'id="about-man-to-man"' in about
