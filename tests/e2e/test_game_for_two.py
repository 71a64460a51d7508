"""Game day for two on phones (390×844), in English and in Russian: one player starts the
game and gives the join link, the other joins with an army of their own, a third watches.
A casualty on one side shows on the other player's page and the watcher's within 5 s; a
morale roll answers in the row of the unit tapped, in view; a tap made offline is marked not
saved and its Retry sends it."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled
from tests.helpers.games import chainmail_army
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e
PHONE = {"width": 390, "height": 844}


def phone(browser, locale: str):  # type: ignore[no-untyped-def]
    return browser.new_context(locale=locale, viewport=PHONE, has_touch=True, is_mobile=True)


def stored(server: Server, document: dict) -> str:  # type: ignore[type-arg]
    created = httpx.post(f"{server.url}/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    return str(created.json()["id"])


@pytest.mark.parametrize("locale", ["en-US", "ru-RU"])
def test_two_players_and_a_watcher_play_one_game(
        browser, live_server: Server, locale: str,
        output_dir: Path) -> None:  # type: ignore[no-untyped-def]
    contexts = [phone(browser, locale) for _ in range(3)]
    first, second, watcher = (context.new_page() for context in contexts)
    try:
        first.goto(f"{live_server.url}/r/{stored(live_server, chainmail_army())}")
        first.locator("form.start-game button[type=submit]").click()
        first.wait_for_url(re.compile(r"/g/[^/]+/play(#.*)?$"))
        join = first.locator("#join-link").input_value()
        watch = first.locator("#watch-link").input_value()
        assert "/join?key=" in join and first.locator(".links svg").count() == 2
        opponent = stored(live_server, {**chainmail_army(), "name": "Орда"})
        second.goto(join)
        second.locator("input[name=link]").fill(f"{live_server.url}/r/{opponent}")
        second.locator(".join-form button[type=submit]").click()
        second.wait_for_url(re.compile(r"/g/[^/]+/play(#.*)?$"))
        watcher.goto(watch)
        expect(second.locator("#side-0")).to_be_visible()
        # The first side loses a figure: the opponent's page and the watcher's follow.
        peasants = first.locator("#unit-0-2")
        peasants.locator("button.tap", has_text="+").click()
        htmx_settled(first)
        expect(peasants.locator(".lost")).to_contain_text("1")
        for other in (second, watcher):
            expect(other.locator("#unit-0-2 .lost")).to_contain_text("1", timeout=5000)
        expect(second.locator("#unit-0-2 button.tap")).to_have_count(0)  # not theirs to change
        # The second side rolls morale for its knights: the answer is in their row, in view.
        knights = second.locator("#unit-1-0")
        knights.locator("details.tests summary").first.click()  # Morale, before the siege's
        knights.locator("input[name=needed]").fill("8")
        knights.locator(".test-form button[type=submit]").first.click()  # Roll morale
        htmx_settled(second)
        roll = second.locator("#unit-1-0 [data-testid=unit-roll]")
        expect(roll).to_be_visible()
        expect(roll).to_be_in_viewport()
        roll.click(trial=True, timeout=2000)  # on top: not under the sticky bar
        expect(roll).to_contain_text("8")
        second.screenshot(path=str(output_dir / f"game-for-two-{locale}.png"))
        expect(first.locator("#unit-1-0 [data-testid=unit-roll]")).to_be_visible(timeout=5000)
        # Offline, a tap is marked not saved; back online, its Retry sends it.
        contexts[0].set_offline(True)
        first.get_by_test_id("next-turn").click()
        failed = first.locator(".next-turn .save-failed")
        expect(failed).to_be_visible()
        contexts[0].set_offline(False)
        # Back online, the tap is sent again by itself (the pages' script retries on `online`).
        expect(first.locator(".turn-number")).to_have_text("1", timeout=5000)
        expect(failed).to_have_count(0)
        expect(second.locator(".turn-number")).to_have_text("1", timeout=5000)
        wide = "document.documentElement.scrollWidth"
        assert all(page.evaluate(wide) <= PHONE["width"] for page in (first, second, watcher))
    finally:
        for context in contexts:
            context.close()
