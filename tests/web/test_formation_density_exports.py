"""Formation Density rosters printed and exported as text through the web app."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.test_formation_density_api import LEGION, store


def test_the_printed_sheet_shows_each_units_formation_and_chances(client: TestClient) -> None:
    roster_id = store(client)["id"]
    page = client.get(f"/r/{roster_id}/print?lang=ru")
    assert page.status_code == 200 and page.headers["Content-Language"] == "ru"
    text = page.text
    assert "Лист армии" in text and "Плотность строя" in text
    assert "плотность 3, в шеренге 20" in text and "стена щитов 1/3 (33,3 %)" in text
    assert "попадает: 1/2 (50 %)" in text
    assert text.count('class="box"') == 40 + 10  # a box for every warrior
    assert "<svg" in text  # the share link's QR code
    assert " style=" not in text


def test_reference_sections_are_printed_when_ticked_and_unknown_ones_refused(
        client: TestClient) -> None:
    roster_id = store(client)["id"]
    plain = client.get(f"/r/{roster_id}/print").text
    assert 'id="melee"' not in plain and 'value="melee"' in plain
    ticked = client.get(f"/r/{roster_id}/print?sections=melee&sections=protection").text
    assert 'id="melee"' in ticked and 'id="protection"' in ticked
    refused = client.get(f"/r/{roster_id}/print?sections=weather")
    assert refused.status_code == 422 and "weather" in refused.text


@pytest.mark.parametrize(("ext", "words"), [
    ("txt", "1. Гастаты — 40 warriors, 12.5 points"),
    ("md", "| 1 | Гастаты"),
    ("bbcode", "[*][b]Гастаты[/b]"),
])
def test_text_exports_download_under_the_rosters_name(client: TestClient, ext: str,
                                                      words: str) -> None:
    roster_id = store(client)["id"]
    answer = client.get(f"/api/v1/rosters/{roster_id}/export.{ext}")
    assert answer.status_code == 200
    assert words in answer.text
    assert 'filename="Legion.' in answer.headers["Content-Disposition"]


def test_the_editors_print_and_copy_links_work_for_this_system(client: TestClient) -> None:
    created = store(client)
    client.get(created["edit_url"])
    page = client.get(f"/r/{created['id']}/edit").text
    assert f'href="/r/{created["id"]}/print"' in page
    assert f"/api/v1/rosters/{created['id']}/export.txt" in page
    assert client.get(f"/api/v1/rosters/{created['id']}/export.txt?lang=ru").text.startswith(
        LEGION["name"])
