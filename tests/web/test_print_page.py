"""The printable army sheet as HTML: language, chosen sections, tick boxes, no script."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.web.sheet import MAX_BOXES


def army(*units: dict[str, Any], name: str = "Sheet test", nation: str = "generic",
         engines: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"name": name, "ruleset": "chainmail", "nation": nation, "points_limit": 500,
            "units": list(units), "engines": engines or []}


def unit(name: str, troop: str = "heavy_foot", figures: int = 10, weapon: str = "polearm",
         mercenary: bool = False, flags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"name": name, "mercenary": mercenary, "flags": list(flags),
            "lines": [{"troop": troop, "figures": figures, "weapon": weapon}]}


def stored(client: TestClient, document: dict[str, Any]) -> str:
    answer = client.post("/api/v1/rosters", json=document)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def sheet(client: TestClient, roster_id: str, query: str = "", **kwargs: Any) -> str:
    answer = client.get(f"/r/{roster_id}/print{query}", **kwargs)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    return answer.text


def section_ids(html: str) -> set[str]:
    return set(re.findall(r'<article class="rule" id="([a-z0-9_]+)"', html))


def test_the_sheet_is_a_standalone_page_without_script(client: TestClient) -> None:
    html = sheet(client, stored(client, army(unit("Levy"))))
    assert html.startswith("<!doctype html>")
    assert "<script" not in html.lower()
    assert not re.search(r"\son[a-z]+\s*=", html, flags=re.IGNORECASE)  # no inline handlers
    assert re.search(r'<link rel="stylesheet" href="/static/css/print.css\?v=[0-9a-f]{12}">', html)
    assert "style=" not in html  # everything visual lives in the style sheet


def test_the_print_style_sheet_is_served_and_made_for_paper(client: TestClient) -> None:
    answer = client.get("/static/css/print.css")
    assert answer.status_code == 200
    css = answer.text
    assert re.search(r"@page\s*\{[^}]*size:\s*A4", css)
    assert re.search(r"@page letter\s*\{[^}]*size:\s*letter", css)
    assert "break-inside: avoid" in css
    print_rules = css[css.index("@media print"):]
    assert "display: none" in print_rules and "form" in print_rules
    assert "background: transparent" in print_rules


def test_the_sheet_shows_units_costs_and_totals(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Longbowmen", "light_foot", 20, "longbow"),
                                    unit("Riders", "heavy_horse", 4, "lance", mercenary=True)))
    html = sheet(client, roster_id, "?lang=en")
    assert "<h1 dir=\"auto\">Sheet test</h1>" in html
    assert "20 × Light Foot, Longbow" in html
    assert "4 × Heavy Horse, Lance" in html
    # 20 × (1 + 4) + 4 × 5 / 2 = 110 of 500
    assert "110 of 500 (390 left)" in html
    assert "24 (foot 20, horse 4)" in html
    assert "once 8 of 24 figures are lost (a third)" in html


def test_each_unit_gets_one_casualty_box_per_figure(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Seven", figures=7), unit("Horde", "peasant",
                                                                    MAX_BOXES + 40, "none")))
    html = sheet(client, roster_id)
    rows = re.findall(r'<tr class="unit">(.*?)</tr>', html, flags=re.DOTALL)
    assert len(rows) == 2
    assert rows[0].count('class="box"') == 7
    # a huge unit gets a bounded row of boxes and a place to tally the rest
    assert rows[1].count('class="box"') == MAX_BOXES
    assert "+40 more figures" in rows[1]


def test_only_the_sections_the_roster_uses_are_printed(client: TestClient) -> None:
    hired = stored(client, army(unit("Genoese", "light_foot", 12, "crossbow", mercenary=True)))
    loyal = stored(client, army(unit("Militia", "militia", 20, "pike", flags=("flemish",))))
    assert section_ids(sheet(client, hired)) == {"table16_mercenaries"}
    assert section_ids(sheet(client, loyal)) == {"flemish"}


def test_optional_sections_are_printed_when_ticked(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Levy")))
    assert section_ids(sheet(client, roster_id)) == set()
    assert section_ids(sheet(client, roster_id, "?sections=baggage,weather")) == {
        "baggage", "weather"}
    # the page's own form sends one parameter per ticked box
    assert section_ids(sheet(client, roster_id, "?sections=weather&sections=baggage")) == {
        "baggage", "weather"}


def test_the_options_form_works_without_javascript(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Levy")))
    html = sheet(client, roster_id, "?sections=weather")
    form = re.search(r"<form[^>]*>", html)
    assert form is not None
    assert 'method="get"' in form.group(0)
    assert f'action="/r/{roster_id}/print"' in form.group(0)
    assert 'name="sections" value="weather" checked' in html
    assert 'name="sections" value="baggage">' in html


@pytest.mark.parametrize("query", ["?sections=sieges", "?lang=de", "?paper=a3"])
def test_unknown_options_are_refused_by_name(client: TestClient, query: str) -> None:
    roster_id = stored(client, army(unit("Levy")))
    answer = client.get(f"/r/{roster_id}/print{query}")
    assert answer.status_code == 422
    field = query[1:].split("=")[0]
    assert field in answer.json()["message"]


def test_an_unknown_roster_has_no_sheet(client: TestClient) -> None:
    assert client.get("/r/nothing-here/print").status_code == 404


def test_the_sheet_carries_a_qr_code_of_the_absolute_share_link(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Levy")))
    html = sheet(client, roster_id)
    qr = re.search(r'<figure class="qr"[^>]*>\s*(<svg[^>]*>.*?</svg>)\s*<figcaption>(.*?)<',
                   html, flags=re.DOTALL)
    assert qr is not None
    assert 'viewBox="0 0 ' in qr.group(1) and "<path" in qr.group(1)
    assert qr.group(2) == f"http://testserver/r/{roster_id}"


@pytest.mark.parametrize(("kwargs", "query", "expected"), [
    ({}, "", "en"),
    ({}, "?lang=ru", "ru"),
    ({"cookies": {"lang": "ru"}}, "", "ru"),
    ({"headers": {"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}}, "", "ru"),
    ({"headers": {"Accept-Language": "de-DE,de;q=0.9"}}, "", "en"),
    ({"cookies": {"lang": "ru"}}, "?lang=en", "en"),
    ({"cookies": {"lang": "en"}, "headers": {"Accept-Language": "ru"}}, "", "en"),
])
def test_the_sheets_language_follows_the_query_then_cookie_then_browser(
        client: TestClient, kwargs: dict[str, Any], query: str, expected: str) -> None:
    roster_id = stored(client, army(unit("Genoese", mercenary=True)))
    for name, value in kwargs.get("cookies", {}).items():
        client.cookies.set(name, value)
    answer = client.get(f"/r/{roster_id}/print{query}", headers=kwargs.get("headers", {}))
    client.cookies.clear()
    assert f'<html lang="{expected}">' in answer.text
    assert answer.headers["content-language"] == expected
    russian = "Таблица 16: Дисциплина Наёмников" in answer.text
    assert russian == (expected == "ru")


def test_the_russian_sheet_uses_russian_for_every_fixed_word(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Genoese", mercenary=True)))
    html = sheet(client, roster_id, "?lang=ru")
    for words in ("Отряды", "Потери", "За фигуру", "Стоимость", "Тяжёлый пехотинец",
                  "Проверка морали из-за потерь", "наёмники", "Также напечатать"):
        assert words in html, words
    for english in ("Units", "Casualties", "Per figure", "Heavy Foot", "mercenary"):
        assert english not in html, english


def test_far_east_units_show_their_table_19_rating(client: TestClient) -> None:
    roster_id = stored(client, army(unit("Samurai", "armored_foot", 10, "none"),
                                    nation="japan"))
    html = sheet(client, roster_id, "?lang=en")
    assert "Morale (T. 19)" in html
    assert "9 <small>Samurai</small>" in html
    assert section_ids(html) == {"table19_morale"}


def test_hostile_names_are_escaped_on_the_sheet(client: TestClient) -> None:
    roster_id = stored(client, army(unit('<img src=x onerror="alert(1)">'),
                                    name="<script>alert(1)</script>"))
    html = sheet(client, roster_id)
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize(("lang", "said"), [("en", "This roster was deleted by its owner."),
                                            ("ru", "Эта армия удалена её владельцем.")])
def test_a_deleted_rosters_sheet_is_a_page_saying_so_for_a_browser(
        client: TestClient, lang: str, said: str) -> None:
    created = client.post("/api/v1/rosters", json=army(unit("Levy"))).json()
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    assert client.delete(f"/api/v1/rosters/{created['id']}", headers=key).status_code == 204
    browser = client.get(f"/r/{created['id']}/print?lang={lang}",
                         headers={"Accept": "text/html,application/xhtml+xml"})
    assert browser.status_code == 410
    assert browser.headers["content-type"].startswith("text/html")
    assert re.findall(r'<p role="alert">(.*?)</p>', browser.text) == [said]
    # A client that asks for no page keeps the refusal the API gives (410, JSON).
    script = client.get(f"/r/{created['id']}/print?lang={lang}")
    assert script.status_code == 410 and "message" in script.json()
