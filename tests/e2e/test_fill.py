"""From the home page to a legal army filled to its limit, in a real browser on a phone and
a desktop, in English and Russian, counting every tap: a Mongol army of 190–200 points of 200
in at most six."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import htmx_settled
from tests.e2e.test_editor import no_sideways_scroll, screen  # noqa: F401  (a fixture)
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e


class Taps:
    """The player's taps, counted: a button is one, a select two (open it, pick)."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page, self.count = page, 0

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.count += 1

    def pick(self, selector: str, value: str) -> None:
        self.page.locator(selector).select_option(value)
        self.count += 2


def test_a_legal_mongol_army_of_200_from_the_home_page_in_six_taps(
        screen, live_server: Server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    context, lang = screen
    page = context.new_page()
    page.goto(f"{live_server.url}/lang/{lang}?next=/")
    taps = Taps(page)
    taps.pick("#new-nation", "mongols")
    taps.tap("#limit-200")
    taps.tap("form[action='/rosters/new'] button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))
    roster_id = page.url.split("/r/", 1)[1].split("/", 1)[0]
    # The card is on the first screen, above the list.
    button = page.locator("#fill-button")
    expect(button).to_be_in_viewport()
    expect(button).to_have_text("Заполнить до лимита" if lang == "ru" else "Fill to the limit")
    width = page.viewport_size["width"] if page.viewport_size else 0
    with page.expect_response(lambda r: "fill=1" in r.url):
        taps.tap("#fill-button")
    expect(page.locator("#fill-card .changes li")).to_have_count(3)
    page.screenshot(path=str(tmp_path / f"fill-view-{lang}-{width}.png"))
    expect(page.locator("#fill-make-button")).to_be_in_viewport()
    page.screenshot(path=str(tmp_path / f"fill-card-{lang}-{width}.png"), full_page=True)
    if width < 500:
        no_sideways_scroll(page, "the fill card")
    with page.expect_response(lambda r: r.request.method == "POST"):
        taps.tap("#fill-make-button")
    htmx_settled(page)
    expect(page.locator("#summary .verdict")).to_have_class(re.compile(r"\bok\b"))
    page.screenshot(path=str(tmp_path / f"filled-{lang}-{width}.png"), full_page=True)
    read = httpx.get(f"{live_server.url}/api/v1/rosters/{roster_id}").json()
    assert read["result"]["valid"] and 190 <= read["result"]["total"] <= 200
    assert read["document"]["nation"] == "mongols"
    names = [unit["name"] for unit in read["document"]["units"]]
    assert len(set(names)) == len(names) == 3
    assert taps.count <= 6, taps.count
    # One new version, which Undo takes back.
    expect(page.locator("#undo-button")).to_be_enabled()
    print(f"{lang} {width}: {taps.count} taps, {read['result']['total']} of 200; "
          f"screenshots in {tmp_path}")
