"""Line and Square rosters as text exports and as a printed army sheet."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient
from markdown_it import MarkdownIt

GUARD: dict[str, Any] = {
    "name": "Гвардия [b]*x*[/b]", "ruleset": "line_and_square", "units": [
        {"name": "1-й батальон", "class": "grenadiers", "figures": 16, "speed": 6,
         "accuracy": 4, "discipline": 2, "points": 12.5, "officer": True, "formation": "square"},
        {"name": "[url=x]Казаки[/url]", "class": "irregular_cavalry", "figures": 8, "speed": 12,
         "discipline": -1, "points": 9, "note": "| ломает | таблицу"}]}


def stored(client: TestClient, document: dict[str, Any] = GUARD) -> str:
    response = client.post("/api/v1/rosters", json=document)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def text_of(page: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_plain_text_export_lists_units_chances_and_break_points(client: TestClient,
                                                                     lang: str) -> None:
    roster_id = stored(client)
    response = client.get(f"/api/v1/rosters/{roster_id}/export.txt?lang={lang}")
    assert response.status_code == 200
    text = response.text
    # 21.5 points: half is 10.75, a quarter 5.375, exactly; "below" is strict.
    if lang == "en":
        assert "21.5 of 30 points (8.5 left, the usual limit)" in text
        assert "Morale test once strength is below 10.75 points (more than 10.75 lost)" in text
        assert "Flight once strength is below 5.375 points (more than 16.125 lost)" in text
        assert "1. 1-й батальон — Grenadiers, 16 figures, 12.5 points, officer" in text
        assert "Actions: Shoot, March column, Rally" in text
    else:
        assert "21,5 из 30 очков (осталось 8,5, обычный лимит)" in text
        assert "ниже 10,75 очков (потеряно больше 10,75)" in text
        assert "Гренадеры, 16 фигур, 12,5 очка, офицер" in text
        assert "Действия: Движение, Атака, Перестрелка, Сбор" in text
    # Discipline −1 in loose order: needs 7 (21 of 36), 8 with a marker, 9 with two.
    assert "21/36 · 15/36 · 10/36" in text


def test_markdown_and_bbcode_keep_player_text_inert(client: TestClient) -> None:
    roster_id = stored(client)
    markdown = client.get(f"/api/v1/rosters/{roster_id}/export.md").text
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<strong>x</strong>" not in html and "<em>x</em>" not in html
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    assert len(rows) == 3  # header and two units: the note's pipes opened no cell
    assert all(len(re.findall(r"<t[dh]", row)) == 6 for row in rows)
    bbcode = client.get(f"/api/v1/rosters/{roster_id}/export.bbcode").text
    assert "[url=" not in bbcode and "[b]Гвардия ［b］*x*［/b］[/b]" in bbcode
    assert "Order test: 35/36 · 35/36 · 33/36 (0/1/2 disorder markers; the officer's own unit)" \
        in bbcode


def test_the_print_sheet_shows_profiles_chances_break_points_and_the_square(
        client: TestClient) -> None:
    roster_id = stored(client)
    response = client.get(f"/r/{roster_id}/print?lang=ru")
    assert response.status_code == 200
    words = text_of(response.text)
    assert "Линия и каре" in words and "По правилам" in words
    assert "когда сила падает ниже 10,75 очков (потеряно больше 10,75)" in words
    assert "без офицера: 35/36" not in words  # the officer's own unit: always in reach
    assert "отряд офицера: 35/36 · 35/36 · 33/36" in words
    assert "офицер рядом: 26/36 · 21/36 · 15/36" in words
    # The unit's name stands in a <bdi> of its own: its direction cannot turn the brackets.
    assert re.search(r"Каре \(\s*1-й батальон\s*\)", words) and "только на 6 кубах»" in words
    assert "Тест на приказ" in words
    assert response.text.count('class="box"') == 16 + 8


def test_a_sheet_without_square_forming_units_prints_no_square_rules(
        client: TestClient) -> None:
    roster_id = stored(client, {"name": "Разъезд", "ruleset": "line_and_square", "units": [
        {"class": "light_cavalry", "figures": 6, "speed": 12, "points": 5}]})
    page = client.get(f"/r/{roster_id}/print").text
    assert 'id="square"' not in page and 'id="order_test"' in page


def test_the_print_sheet_refuses_sections_it_does_not_have(client: TestClient) -> None:
    roster_id = stored(client)
    response = client.get(f"/r/{roster_id}/print?sections=baggage")
    assert response.status_code == 422
    assert "sections" in response.json()["message"]
