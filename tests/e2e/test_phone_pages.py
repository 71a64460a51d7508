"""The editor and the pages around it on a phone, in English and Russian: a console with no
error through a session of changes, tap targets a thumb can hit, and the calculators one tap
from the editor."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import htmx_settled
from tests.e2e.test_editor import CALCULATORS, PHONE, created, open_editor
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e

ARMY = {"ruleset": "chainmail", "name": "Horde", "nation": "mongols", "points_limit": 200,
        "engines": [{"kind": "light_catapult", "count": 1}], "units": [
            {"name": name, "flags": [], "lines": [{"troop": troop, "figures": 10,
                                                   "weapon": weapon}]}
            for name, troop, weapon in (("Archers", "light_horse", "bow"),
                                        ("Lancers", "medium_horse", "lance"))]}


@pytest.fixture(params=["en", "ru"])
def phone(request, browser):  # type: ignore[no-untyped-def]
    """A touch phone in each language, with every console error and page error it logs."""
    context = browser.new_context(viewport=PHONE, locale=request.param, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    yield page, request.param, errors
    context.close()


def change_figures(page, field: str, value: int) -> None:  # type: ignore[no-untyped-def]
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator(field).fill(str(value))
        page.locator(field).press("Tab")
    htmx_settled(page)


def twenty_changes(page) -> None:  # type: ignore[no-untyped-def]
    """Twenty changes of the kinds a player makes: figures typed and stepped, a unit added,
    a setting, Make it legal's search, Undo."""
    page.locator("#u0-summary").click()
    for k in range(12):
        change_figures(page, "#u0-figures-0", 8 + k)
    for button in ("#add-unit", "#undo-button", "#add-unit"):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator(button).first.click()
        htmx_settled(page)
    page.locator("#settings-box > summary").click()
    for limit in (150, 250, 200):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator("#roster-limit").fill(str(limit))
            page.locator("#roster-limit").press("Tab")
        htmx_settled(page)
    if page.locator("#suggest-button").count():
        with page.expect_response(lambda r: "suggest=1" in r.url):
            page.locator("#suggest-button").click()
        htmx_settled(page)


def test_no_console_error_on_the_editor_and_the_pages_around_it(
        phone, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    page, lang, errors = phone
    made = created(live_server, ARMY)
    open_editor(page, live_server, made, lang)
    twenty_changes(page)
    assert errors == [], errors
    for address in (f"/r/{made['id']}", f"/r/{made['id']}/print"):
        page.goto(live_server.url + address)
        page.wait_for_load_state("networkidle")
    page.goto(f"{live_server.url}/r/{made['id']}/edit")
    page.locator(".start-game button[type=submit]").click()
    page.wait_for_url(re.compile(r"/g/"))
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("[data-testid=next-turn]").click()
    htmx_settled(page)
    for name in CALCULATORS:
        page.goto(f"{live_server.url}/calc/{name}")
        page.wait_for_load_state("networkidle")
        button = page.locator("main form button[type=submit].primary").first
        if button.count():
            button.click()
            page.wait_for_load_state("networkidle")
            htmx_settled(page)
    assert errors == [], errors
