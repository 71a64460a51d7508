"""The shooting calculator's API and page, in both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import HX, RU, text_of

API = "/api/v1/rulesets/formation_density/shooting"
BODY = {"hits": 6, "shooter_density": 4,
        "target": {"density": 3, "shield": True, "armour": True}}


def test_the_api(client: TestClient) -> None:
    answer = client.post(API, json=BODY).json()
    assert answer["lost"]["expectation"] == {"numerator": 61, "denominator": 18}
    assert answer["retreat"] == {"shooter_density_higher": True,
                                 "probability": {"numerator": 1, "denominator": 1}}
    cavalry = client.post(API, json={**BODY, "hits": 7, "target": {
        "density": 2, "cavalry": True, "cavalry_armour": True}}).json()
    assert cavalry["hits"] == {"riders": 3, "horses": 4}
    assert set(cavalry["parts"]) == {"riders", "horses"}


@pytest.mark.parametrize(("body", "field"), [
    ({**BODY, "hits": -1}, "hits"), ({**BODY, "hits": 201}, "hits"),
    ({**BODY, "shooter_density": 7}, "shooter_density"),
    ({**BODY, "target": {"density": 0}}, "target.density"),
    ({**BODY, "target": {"density": 3, "shield": "yes"}}, "target.shield"),
    ({"hits": 3, "shooter_density": 2}, "target"),
])
def test_the_api_refuses_bad_input_by_name(client: TestClient, body: dict[str, object],
                                           field: str) -> None:
    response = client.post(API, json=body)
    assert response.status_code == 422
    assert field in response.json()["message"], response.json()["message"]


def test_the_page_is_a_plain_get_form(client: TestClient) -> None:
    page = client.get("/calc/shooting", params={
        "hits": "6", "shooter_density": "4", "density": "3", "warriors": "40",
        "shield": "on", "armour": "on"}).text
    assert '<form method="get" action="/calc/shooting"' in page
    words = text_of(page)
    assert "3.39 = 61/18" in words and "the target retreats if it has losses — 1" in words
    cavalry = text_of(client.get("/calc/shooting", params={
        "hits": "7", "shooter_density": "2", "density": "3", "cavalry": "on"}).text)
    assert "Hits at the riders: 3, at the horses: 4." in cavalry and "no retreat" in cavalry
    assert "Riders and horses apart" in cavalry


def test_htmx_gets_only_the_result(client: TestClient) -> None:
    response = client.get("/calc/shooting", params={"hits": "2"}, headers=HX)
    assert "<html" not in response.text and "<form" not in response.text
    assert response.text.lstrip().startswith('<section id="shooting-result"')


@pytest.mark.parametrize(("params", "field"), [
    ({"hits": "x"}, "Hits landed"), ({"hits": "1", "density": "9"}, "Target's density"),
    ({"hits": "1", "shooter_density": "0"}, "Shooters' density"),
    ({"hits": "1", "warriors": "0"}, "Warriors in the target"),
])
def test_the_page_refuses_a_bad_field_by_name(client: TestClient, params: dict[str, str],
                                              field: str) -> None:
    response = client.get("/calc/shooting", params=params)
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith(f"{field}:")


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/shooting", params={"hits": "3", "cavalry": "on"},
                               headers=RU).text)
    for term in ("Результаты стрельбы", "Стена Щитов", "Доспехи", "Кавалерийские доспехи",
                 "Плотность строя", "всадникам", "лошадям"):
        assert term in words, term
    assert "3,39 = 61/18" in text_of(client.get("/calc/shooting", params={
        "hits": "6", "shield": "on", "armour": "on"}, headers=RU).text)
    about = client.get("/about").text
    assert 'href="/calc/shooting"' in about and 'id="about-shooting"' in about
