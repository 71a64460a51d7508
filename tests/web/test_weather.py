"""The weather calculator's API and page, in both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

API = "/api/v1/rulesets/chainmail/weather"
HX = {"HX-Request": "true"}
RU = {"Accept-Language": "ru"}


def text_of(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_api_forecasts_exactly(client: TestClient) -> None:
    answer = client.post(API, json={"start": "clear", "checks": 2}).json()
    one, two = answer["checks"]
    assert one["check"] == 1 and one["distribution"]["clear"] == {"numerator": 5,
                                                                   "denominator": 6}
    assert one["events"]["heat_wave"] == {"numerator": 1, "denominator": 6}
    assert two["distribution"]["rain"] == {"numerator": 1, "denominator": 36}
    rain = client.post(API, json={"start": "rain", "checks": 1}).json()["checks"][0]
    assert rain["distribution"]["rain"] == {"numerator": 2, "denominator": 3}
    unset = client.post(API, json={"start": None, "checks": 1}).json()
    assert unset["start_distribution"]["clear"] == {"numerator": 1, "denominator": 2}


@pytest.mark.parametrize(("body", "field"), [
    ({"start": "clear", "checks": 0}, "checks"), ({"start": "clear", "checks": 51}, "checks"),
    ({"start": "clear", "checks": "3"}, "checks"), ({"start": "snow", "checks": 1}, "start"),
    ({"start": "clear"}, "checks"), ({"checks": 2, "wind": 1}, "wind"),
])
def test_the_api_refuses_bad_input_by_name(client: TestClient, body: dict[str, object],
                                           field: str) -> None:
    response = client.post(API, json=body)
    assert response.status_code == 422
    assert field in response.json()["message"]


def test_the_page_is_a_plain_get_form(client: TestClient) -> None:
    page = client.get("/calc/weather", params={"start": "clear", "checks": "2"}).text
    assert '<form method="get" action="/calc/weather"' in page
    assert 'hx-get="/calc/weather"' in page and "<script>" not in page
    words = text_of(page)
    assert "5/6" in words and "13/18" in words and "1/36" in words
    assert "mud forms at the second downpour check in a row" in words


def test_htmx_gets_only_the_result(client: TestClient) -> None:
    response = client.get("/calc/weather", params={"start": "rain", "checks": "1"}, headers=HX)
    body = response.text
    assert response.status_code == 200 and "<html" not in body and "<form" not in body
    assert body.lstrip().startswith('<section id="weather-result"')
    assert "2/3" in text_of(body)


def test_the_roll_button_rolls_on_the_server(client: TestClient) -> None:
    response = client.get("/calc/weather", params={"roll": "1", "current": "cloudy"},
                          headers=HX)
    assert response.headers["cache-control"] == "no-store"
    words = text_of(response.text)
    die = int(re.search(r"Die: (\d)", words).group(1))  # type: ignore[union-attr]
    assert 1 <= die <= 6 and f"Column Cloudy, row {die}:" in words
    start = text_of(client.get("/calc/weather", params={"roll": "1"}).text)
    assert "Starting weather:" in start


@pytest.mark.parametrize(("params", "field"), [
    ({"checks": "0"}, "Checks"), ({"checks": "many"}, "Checks"), ({"start": "snow"},
                                                                  "Starting weather"),
    ({"roll": "1", "current": "fog"}, "Weather now"),
])
def test_the_page_refuses_a_bad_field_by_name(client: TestClient, params: dict[str, str],
                                              field: str) -> None:
    response = client.get("/calc/weather", params=params)
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith(f"{field}:")


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/weather", params={"start": "clear"}, headers=RU).text)
    for term in ("Таблица 20: Погода", "Ясно", "Облачно", "Дождливо", "Аномальная жара",
                 "Изморось", "Ливень", "Грязь", "Становится Облачно", "Начинается Дождь"):
        assert term in words, term
    assert "Калькулятор погоды" in words
    rolled = text_of(client.get("/calc/weather", params={"roll": "1", "current": "rain"},
                                headers=RU).text)
    assert "Выпало:" in rolled and "Столбец «Дождливо»" in rolled


def test_the_about_page_links_the_calculator_and_states_the_reading(client: TestClient) -> None:
    page = client.get("/about").text
    assert 'href="/calc/weather"' in page and 'id="about-weather-mud"' in page
    ru = text_of(client.get("/about", headers=RU).text)
    assert "две проверки с ливнем подряд" in ru
