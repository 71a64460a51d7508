"""The tournament scorer's page: state in the address, both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import HX, RU, text_of

JOUST = {"t0": "Lions", "t1": "Eagles", "k0": "Ivanhoe", "k0t": "0", "k1": "Bois-Guilbert",
         "k1t": "1", "k2": "Wilfred", "k2t": "0", "j0a": "0", "j0b": "1",
         "j0p1a": "broken_lance", "j0p1b": "helm", "j0p2a": "unhorsed", "j0p2b": "wounded"}


def scores(html: str, table: str) -> dict[str, str]:
    body = re.search(rf'<table id="{table}">.*?</table>', html, re.S).group(0)  # type: ignore[union-attr]
    return {unescape(name): points for name, points in re.findall(
        r'<th scope="row">(.*?)</th>.*?<td class="num">(-?\d+)</td>', body, re.S)}


def test_the_score_is_read_from_the_address(client: TestClient) -> None:
    page = client.get("/calc/tournament", params=JOUST).text
    assert '<form method="get" action="/calc/tournament"' in page
    assert scores(page, "team-scores") == {"Lions": "9", "Eagles": "3"}
    assert scores(page, "knight-scores") == {"Ivanhoe": "9", "Bois-Guilbert": "3",
                                             "Wilfred": "0"}
    # The joust ended at the unhorsing: no third pass is offered, a second joust is.
    assert 'name="j0p3a"' not in page and 'name="j1a"' in page


def test_an_unfinished_joust_offers_its_next_pass(client: TestClient) -> None:
    params = {**JOUST, "j0p2a": "none", "j0p2b": "none"}
    page = client.get("/calc/tournament", params=params).text
    assert 'name="j0p3a"' in page and "not over" in text_of(page)


def test_htmx_swaps_the_form_and_score_together(client: TestClient) -> None:
    response = client.get("/calc/tournament", params=JOUST, headers=HX)
    body = response.text
    assert "<html" not in body
    assert body.lstrip().startswith('<div class="tc-calc tc-even" id="tournament"')
    assert "<form" in body and 'id="team-scores"' in body


@pytest.mark.parametrize(("extra", "message"), [
    ({"j0p3a": "helm"}, "Joust 1, pass 3: the joust ended at an unhorsing"),
    ({"j0b": "0"}, "Joust 1: a knight cannot joust against himself"),
    ({"j0b": "7"}, "Joust 1: pick two knights"),
    ({"j0p1a": "lance"}, "Joust 1, pass 1: not one of the results"),
    ({"j0p2a": "none", "j0p2b": "none", "j0p3a": "none", "j0p4a": "helm"},
     "Joust 1, pass 4: a joust has at most three passes"),
])
def test_an_impossible_joust_is_named(client: TestClient, extra: dict[str, str],
                                      message: str) -> None:
    response = client.get("/calc/tournament", params={**JOUST, **extra})
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)) == message


def test_names_are_escaped_and_bounded(client: TestClient) -> None:
    page = client.get("/calc/tournament", params={**JOUST, "k0": "<b>Sir</b>" + "x" * 80}).text
    assert "<b>Sir" not in page and "&lt;b&gt;Sir" in page
    value = re.search(r'id="knight-0" maxlength="40" value="(.*?)"', page).group(1)  # type: ignore[union-attr]
    assert len(unescape(value)) == 40


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/tournament", params=JOUST, headers=RU).text)
    for term in ("Таблица 24: Турнирные очки", "Сломанное копьё", "Сбитый шлем", "Ранение",
                 "Выбивание из седла", "Атакующий", "Защитник", "Турнир"):
        assert term in words, term
    about = client.get("/about").text
    assert 'href="/calc/tournament"' in about and 'id="about-tournament"' in about
