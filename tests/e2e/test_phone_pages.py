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
    page.locator("#u1-summary").click()
    for k in range(12):
        change_figures(page, "#u1-l1-figures", 8 + k)
    for button in ("#add-steppe_horse_archers", "#undo-button", "#add-steppe_light_lancers",
                   "#u2-l1-more", "#u2-l1-fewer"):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator(button).first.click()
        htmx_settled(page)
    page.locator("#settings-box > summary").click()
    for limit in (150, 200):
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


def test_a_legal_200_point_mongol_army_in_ten_taps_from_the_home_page(
        phone, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    """Nation (open the menu, pick), a usual limit, Create, three presets, then the
    commander (open the row, tick): nine taps, nothing typed."""
    from playwright.sync_api import expect

    page, lang, errors = phone
    page.goto(f"{live_server.url}/lang/{lang}?next=/")
    taps = 0

    def tap(selector: str, post: bool = False) -> None:
        nonlocal taps
        taps += 1
        if not post:
            page.locator(selector).tap()
            return
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator(selector).tap()
        htmx_settled(page)

    tap("#new-nation")
    page.locator("#new-nation").select_option("mongols")  # the menu's choice: one tap
    taps += 1
    tap("#limit-200")
    tap("form[action='/rosters/new'] button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))
    # The first screen: the totals in words, the edit link with Copy, and the first way to
    # add figures (Fill to the limit, above the presets).
    for part in ("#summary .in-words", "#edit-link", "#edit-link-card button.copy",
                 "#fill-button, .preset-buttons button"):
        expect(page.locator(part).first).to_be_in_viewport()
    expect(page.locator("#settings-box")).not_to_have_attribute("open", "")
    for preset in ("steppe_horse_archers", "steppe_medium_lancers", "steppe_light_lancers"):
        tap(f"#add-{preset}", post=True)
        expect(page.locator(f"#add-{preset}")).to_be_in_viewport()
    tap("#u1-summary")
    tap("#u1-flag-commander", post=True)
    words = page.locator("#summary .in-words")
    expect(words).to_contain_text("По правилам" if lang == "ru" else "Legal")
    expect(words).to_contain_text("95 из 200" if lang == "ru" else "Points 95 of 200")
    print(f"{lang}: a legal 200-point Mongol army in {taps} taps")
    assert taps <= 10, taps
    assert errors == [], errors


def test_ten_folded_units_fit_three_phone_screens_with_totals_add_and_verdict_first(
        phone, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    from tests.e2e.test_editor import ten_units

    page, lang, _ = phone
    made = created(live_server, {"ruleset": "chainmail", "name": "Ten", "nation": "mongols",
                                 "points_limit": 300, "units": ten_units(), "engines": []})
    open_editor(page, live_server, made, lang)
    expect(page.locator("li.unit details[open]")).to_have_count(0)
    for part in ("#summary .in-words", "#summary .in-words a", "#add-heading",
                 ".preset-buttons button"):
        expect(page.locator(part).first).to_be_in_viewport()
    editor = page.locator("#editor").bounding_box()
    height = page.evaluate("document.documentElement.scrollHeight")
    print(f"{lang}: the 10-unit editor ends at {editor and editor['y'] + editor['height']:.0f}"
          f" px; the whole page is {height} px")
    assert editor and editor["y"] + editor["height"] <= 3 * PHONE["height"], editor


def test_a_folded_rows_figures_step_without_opening_it(
        phone, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page, lang, errors = phone
    made = created(live_server, ARMY)
    open_editor(page, live_server, made, lang)
    for button, figures in (("#u2-l1-more", "11"), ("#u2-l1-more", "12"), ("#u2-l1-fewer", "11")):
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.locator(button).tap()
        htmx_settled(page)
        expect(page.locator("#u2-l1-count")).to_have_value(figures)
    # Still folded, and the totals follow: 10 × 6 + 11 × 4 = 104, plus a light catapult.
    expect(page.locator("#u2-row")).not_to_have_attribute("open", "")
    expect(page.locator("#u2-cost")).to_contain_text("44")
    change_figures(page, "#u2-l1-count", 20)
    expect(page.locator("#u2-cost")).to_contain_text("80")
    assert errors == [], errors


def test_the_steppers_work_without_javascript(browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        made = created(live_server, ARMY)
        page.goto(live_server.url + made["edit_url"])
        page.locator("#u1-l1-more").click()
        page.wait_for_load_state()
        assert page.locator("#u1-l1-count").input_value() == "11"
    finally:
        context.close()


def test_every_calculator_is_two_taps_from_the_editor_and_answers_in_view(
        phone, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page, lang, errors = phone
    made = created(live_server, ARMY)
    open_editor(page, live_server, made, lang)
    editor = page.url
    # The army's own: one tap from its list (weather, man-to-man, the siege for its engine).
    for link in ("#weather-link", "#man-to-man-link", "#siege-link"):
        expect(page.locator(link)).to_be_visible()
    names = page.evaluate("() => ['weather', 'siege', 'man-to-man', 'tournament', "
                          "'figure-sizes', 'order-test', 'melee', 'shooting']")
    for name in names:
        page.goto(editor)
        page.locator("header nav a[href='/calc']").tap()                  # tap 1
        page.locator(f"#calc-{name}").tap()                                # tap 2
        page.wait_for_url(re.compile(f"/calc/{name}"))
        form = page.locator("main form[hx-target]").first
        target = form.get_attribute("hx-target")
        # Compute; a form that answers each change has no button (with a script): a choice.
        button = form.locator("button[type=submit]:visible")
        with page.expect_response(lambda r: "/calc/" in r.url and r.request.method == "GET"):
            if button.count():
                button.first.tap()
            else:
                choice = form.locator("select").first
                choice.select_option(index=1)
        htmx_settled(page)
        expect(page.locator(str(target))).to_be_in_viewport()
        assert page.url.startswith(f"{live_server.url}/calc/{name}"), page.url
    assert errors == [], errors


SMALL_TARGETS = """() => [...document.querySelectorAll('a, button, input, select, summary')]
    .filter(e => e.type !== 'hidden' && !e.classList.contains('skip-link') && e.checkVisibility())
    .map(e => [e.id || e.getAttribute('href') || e.name || e.textContent.trim().slice(0, 20),
               e.getBoundingClientRect()])
    .map(([name, box]) => [name, Math.round(box.width), Math.round(box.height)])
    .filter(([, w, h]) => w < 24 || h < 24)"""


@pytest.mark.parametrize("size", [PHONE, {"width": 1366, "height": 900}], ids=["phone", "desktop"])
def test_no_tap_target_is_under_24_px(browser, live_server: Server, size) -> None:  # type: ignore[no-untyped-def]
    for lang in ("en", "ru"):
        context = browser.new_context(viewport=size, locale=lang)
        try:
            page = context.new_page()
            made = created(live_server, ARMY)
            open_editor(page, live_server, made, lang)
            pages = {"the editor": page.url}  # with a row open: its fields too
            page.locator(".start-game button[type=submit]").click()
            page.wait_for_url(re.compile(r"/g/"))
            pages["the game"] = page.url
            pages |= {"the share view": f"{live_server.url}/r/{made['id']}",
                      "the sheet": f"{live_server.url}/r/{made['id']}/print"}
            pages |= {f"/calc/{name}": f"{live_server.url}/calc/{name}"
                      for name in (*CALCULATORS, "")}
            for where, address in pages.items():
                page.goto(address)
                if where == "the editor":
                    page.locator("#u1-summary").click()
                page.wait_for_load_state("networkidle")
                small = page.evaluate(SMALL_TARGETS)
                assert small == [], (lang, where, small)
        finally:
            context.close()


def test_a_change_not_saved_is_sent_again_when_the_browser_is_back_online(
        phone, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page, lang, _ = phone
    made = created(live_server, ARMY)
    open_editor(page, live_server, made, lang)
    page.context.set_offline(True)
    page.locator("#u2-l1-more").tap()
    expect(page.locator("#unit-u2 .save-failed")).to_be_visible()
    # No Retry pressed: the connection's return sends the change.
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.context.set_offline(False)
    htmx_settled(page)
    expect(page.locator("#unit-u2 .save-failed")).to_have_count(0)
    expect(page.locator("#u2-l1-count")).to_have_value("11")
