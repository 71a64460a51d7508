"""The figure-size calculator's page and API, in both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import HX, RU, text_of


def test_the_page_shows_the_seed_table_and_a_typed_scale(client: TestClient) -> None:
    page = client.get("/calc/figure-sizes", params={"scale": "54"}).text
    assert '<form method="get" action="/calc/figure-sizes"' in page
    words = text_of(page)
    assert "Balrogs, ogres, trolls 40 mm 54 mm" in words
    assert "Beside 54 mm humans" in words and "73 mm" in words
    assert "the builder's own extension" in words and "halves up" in words


def test_htmx_gets_only_the_result(client: TestClient) -> None:
    response = client.get("/calc/figure-sizes", params={"scale": "40"}, headers=HX)
    assert "<html" not in response.text and "<form" not in response.text
    assert response.text.lstrip().startswith('<div id="sizes-result"')
    assert "as the table gives" in text_of(response.text)


@pytest.mark.parametrize("raw", ["0", "500", "big", "2.5"])
def test_a_bad_scale_is_named(client: TestClient, raw: str) -> None:
    response = client.get("/calc/figure-sizes", params={"scale": raw})
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith("Human scale, mm:")
    ru = client.get("/calc/figure-sizes", params={"scale": raw}, headers=RU)
    assert "Масштаб человека, мм:" in text_of(ru.text)


def test_the_api(client: TestClient) -> None:
    answer = client.get("/api/v1/rulesets/chainmail/figure-sizes", params={"scale": 28}).json()
    assert [r["mm"] for r in answer["sizes"]] == [9, 19, 23, 37, 50]
    assert answer["from_the_table"] is False
    refused = client.get("/api/v1/rulesets/chainmail/figure-sizes", params={"scale": 1})
    assert refused.status_code == 422 and "scale" in refused.json()["message"]


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/figure-sizes", headers=RU).text)
    for term in ("Таблица 27: Размеры фэнтезийных фигур", "Хоббиты, спрайты", "Человек, 30 мм",
                 "Джинны, драконы, ифриты, элементали, энты, великаны, рух", "назгулов",
                 "расширение конструктора"):
        assert term in words, term
    about = client.get("/about").text
    assert 'href="/calc/figure-sizes"' in about and 'id="about-figure-sizes"' in about
