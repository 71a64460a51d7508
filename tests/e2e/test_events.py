"""Handing in a list in Chromium on a phone (390×844), in both languages: from the hand-in
link a player hands in one of My rosters in at most five taps and sees its verdict; the
organiser's page shows the list with it."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from tests.e2e.test_editor import PHONE, created, no_sideways_scroll
from tests.helpers.events import event, mongols, poles_with_engine
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e

VERDICT = {"en": ("✗ Breaks the rules", "Hand in", "Your name"),
           "ru": ("✗ Нарушает правила", "Подать", "Ваше имя")}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_player_hands_in_from_my_rosters_in_five_taps_and_the_organiser_sees_it(  # type: ignore[no-untyped-def]
        browser, live_server: Server, lang: str, output_dir: Path) -> None:
    made = httpx.post(live_server.url + "/api/v1/events", json=event())
    assert made.status_code == 201, made.text
    made_event = made.json()
    player = browser.new_context(viewport=PHONE, locale=lang, has_touch=True, is_mobile=True)
    organiser = browser.new_context(viewport=PHONE, locale=lang)
    try:
        page = player.new_page()
        mine = created(live_server, poles_with_engine())
        page.goto(live_server.url + mine["edit_url"])  # now one of My rosters
        page.goto(live_server.url + created(live_server, mongols())["edit_url"])
        page.goto(f"{live_server.url}/lang/{lang}?next=/")
        page.goto(live_server.url + made_event["hand_in_url"])
        no_sideways_scroll(page, "the hand-in page")
        verdict, hand_in, your_name = VERDICT[lang]
        taps = 1  # the hand-in link, opened from the organiser's message
        page.locator(f"label[for='roster-{mine['id']}']").tap()
        taps += 1
        page.get_by_label(your_name).tap()
        taps += 1
        page.keyboard.type("Болеслав")
        page.get_by_role("button", name=hand_in, exact=True).tap()
        taps += 1
        assert taps <= 5
        page.wait_for_url(re.compile(r"#verdict$"))
        shown = page.locator("#verdict")
        assert verdict in shown.inner_text()
        assert ("no engines" if lang == "en" else "осадных машин") in shown.inner_text()
        no_sideways_scroll(page, "the verdict")
        page.screenshot(path=output_dir / f"event-hand-in-{lang}.png", full_page=True)
        board = organiser.new_page()
        board.goto(f"{live_server.url}/lang/{lang}?next=/")
        board.goto(live_server.url + made_event["organiser_url"])
        row = board.locator("table.event-lists tbody tr", has_text="Болеслав")
        assert verdict in row.inner_text()
        no_sideways_scroll(board, "the organiser's page")
        board.screenshot(path=output_dir / f"event-organiser-{lang}.png", full_page=True)
    finally:
        player.close()
        organiser.close()
