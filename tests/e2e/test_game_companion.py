"""Game day on a phone: a Chainmail army with a mercenary unit and peasants, and a Line and
Square force, each played five turns in real Chromium at 390×844, watched by a spectator whose
page follows without a reload; the same buttons work with JavaScript off."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled
from tests.helpers.games import chainmail_army, line_and_square_force
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


def stored(server: Server, document: dict) -> str:  # type: ignore[type-arg]
    created = httpx.post(f"{server.url}/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


def phone(browser, **options):  # type: ignore[no-untyped-def]
    return browser.new_context(locale="en-US", viewport=PHONE, has_touch=True, is_mobile=True,
                               **options)


def start_from_share_view(page, server: Server, roster_id: str):  # type: ignore[no-untyped-def]
    page.goto(f"{server.url}/r/{roster_id}")
    page.get_by_role("button", name="Start a game").click()
    page.wait_for_url(re.compile(r"/g/[^/]+/play(#.*)?$"))
    return page.url


def next_turn(page, turn: int) -> None:  # type: ignore[no-untyped-def]
    page.get_by_test_id("next-turn").click()
    htmx_settled(page)
    expect(page.locator(".turn-number")).to_have_text(str(turn))


def assert_thumb_sized(page) -> None:  # type: ignore[no-untyped-def]
    """Every button on the page is at least 44 px tall, and nothing scrolls sideways."""
    for box in [b.bounding_box() for b in page.locator("#game button:visible").all()]:
        assert box is not None and box["height"] >= 44, box
    wide = page.evaluate("[...document.querySelectorAll('*')]"
                         ".filter(e => e.getBoundingClientRect().right > 391)"
                         ".map(e => e.tagName + '.' + e.className).slice(0, 12)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], wide


def test_a_chainmail_army_plays_five_turns_on_a_phone_and_the_opponent_watches(
        browser, live_server: Server, output_dir: Path) -> None:  # type: ignore[no-untyped-def]
    player_context, watcher_context = phone(browser), phone(browser)
    try:
        page = player_context.new_page()
        start_from_share_view(page, live_server, stored(live_server, chainmail_army()))
        view_link = page.locator(".links a.watch").get_attribute("href")
        watcher = watcher_context.new_page()
        watcher.goto(f"{live_server.url}{view_link}")
        expect(watcher.get_by_test_id("next-turn")).to_have_count(0)  # read-only
        game_id = page.url.split("/g/")[1].split("/")[0]
        for turn in range(1, 6):
            next_turn(page, turn)
            # Table 16 before every turn for the mercenary unit (until it marches home or is
            # bought), on top: this turn's events, as the server logged them.
            log = httpx.get(f"{live_server.url}/api/v1/games/{game_id}").json()["log"]
            table16 = [e for e in log if e["turn"] == turn and e.get("table") == "16"]
            # The mercenaries' latest answer: once they march home or are bribed, none is rolled.
            merc = [e["result"] for e in log if e.get("table") == "16"][-1]
            assert len(table16) == 1 or (not table16 and merc in ("march_home", "bribed"))
            now = page.locator(".now .entry-roll")
            expect(now.filter(has_text="Table 16")).to_have_count(len(table16))
            expect(now.filter(has_text="Table 20")).to_have_count(1 if turn % 2 == 0 else 0)
        peasants = page.locator("#unit-0-2")
        for lost in range(1, 14):
            peasants.get_by_role("button", name="A figure of Мужики lost").click()
            htmx_settled(page)
            expect(peasants.locator(".lost")).to_have_text(f"{lost} lost")
        expect(page.locator(".army-state")).to_contain_text("morale check")
        peasants.locator("summary", has_text="Table 17").click()
        peasants.locator("select[name=enemy]").select_option("heavy_horse")
        peasants.get_by_role("button", name="Defend").click()
        htmx_settled(page)
        expect(page.locator(".now .entry-what").first).to_contain_text("Peasants defend (11+)")
        page.get_by_role("button", name="Undo last casualty change").click()
        htmx_settled(page)
        expect(page.locator(".army-state")).to_have_text("Steady")
        assert_thumb_sized(page)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(output_dir / "game-phone.png"))
        page.screenshot(path=str(output_dir / "game-phone-full.png"), full_page=True)
        # The spectator's page follows by itself (htmx every 4 s), no reload.
        expect(watcher.locator(".turn-number")).to_have_text("5", timeout=6000)
        expect(watcher.locator(".army-state")).to_have_text("Steady", timeout=6000)
        expect(watcher.locator(".log .entry-threshold")).to_have_count(2, timeout=6000)
    finally:
        player_context.close()
        watcher_context.close()


def test_a_line_and_square_force_plays_five_turns_with_order_tests(
        browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = phone(browser)
    try:
        page = context.new_page()
        start_from_share_view(page, live_server, stored(live_server, line_and_square_force()))
        expect(page.locator(".thresholds")).to_contain_text("below 15 points")
        for turn in range(1, 6):
            next_turn(page, turn)
            line = page.locator("#unit-0-0")
            line.locator("summary", has_text="Order test").click()
            line.get_by_role("button", name="Roll the order test").click()
            htmx_settled(page)
            expect(page.locator(".now .entry-what").first).to_contain_text("Order test (modifier 3")
        hussars = page.locator("#unit-0-1")
        for _ in range(5):
            hussars.get_by_role("button", name=re.compile("A figure of .* lost")).click()
            htmx_settled(page)
        expect(page.locator(".army-state")).to_contain_text("every unit tests morale")
        assert_thumb_sized(page)
    finally:
        context.close()


def test_without_javascript_the_buttons_are_plain_forms(
        browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = phone(browser, java_script_enabled=False)
    try:
        page = context.new_page()
        play = start_from_share_view(page, live_server, stored(live_server, chainmail_army()))
        for turn in range(1, 3):
            page.get_by_test_id("next-turn").click()
            page.wait_for_load_state()
            expect(page.locator(".turn-number")).to_have_text(str(turn))
        assert page.url.startswith(play.split("#")[0])
        view = page.locator(".links a.watch").get_attribute("href")
        page.goto(f"{live_server.url}{view}")
        expect(page.locator(".turn-number")).to_have_text("2")
        expect(page.locator(".log .entry-roll").filter(has_text="Table 16")).not_to_have_count(0)
    finally:
        context.close()
