""""My rosters" in Chromium: on a phone each list's verdict is in view without scrolling the
list sideways, in both languages, and the order by verdict is broken, warnings, legal."""

from __future__ import annotations

import pytest

from tests.e2e.test_editor import DESKTOP, PHONE, created, no_sideways_scroll
from tests.helpers.servers import Server
from tests.web.test_my_rosters import generic

pytestmark = pytest.mark.e2e

WORDS = {"en": ["✗ Not legal", "! Legal, with warnings", "✓ Legal"],
         "ru": ["✗ Не по правилам", "! По правилам, с предупреждениями", "✓ По правилам"]}


@pytest.mark.parametrize("screen", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_verdict_is_in_view_and_sorted(browser, live_server: Server, lang: str,  # type: ignore[no-untyped-def]
                                             screen: str) -> None:
    viewport = PHONE if screen == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, locale=lang)
    try:
        page = context.new_page()
        for document in (generic("Warned", commander=False), generic("Legal"),
                         generic("Broken, and named at length " * 3, figures=100)):
            page.goto(live_server.url + created(live_server, document)["edit_url"])
        page.goto(f"{live_server.url}/lang/{lang}?next=/%3Fsort%3Dverdict%26dir%3Dasc")
        page.wait_for_load_state()
        no_sideways_scroll(page, "the home page")
        listed = page.locator("#my-rosters .table-scroll")
        width, client = listed.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert width <= client, f"the list scrolls sideways ({width} > {client})"
        cells = page.locator("table.rosters td.verdict")
        assert cells.all_inner_texts() == WORDS[lang]
        for cell in cells.all():
            box = cell.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    finally:
        context.close()
