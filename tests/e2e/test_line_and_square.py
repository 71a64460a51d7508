"""A player builds a legal "Line and Square" force in a real browser, by clicking and typing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import htmx_settled
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e


def posting(page):  # type: ignore[no-untyped-def]
    return page.expect_response(lambda r: r.request.method == "POST")


def add_unit(page, name: str, unit_class: str, figures: str, speed: str, accuracy: str,  # type: ignore[no-untyped-def]
             discipline: str, points: str, officer: bool = False) -> None:
    units = page.locator("li.unit").count()
    page.locator("#add-name").fill(name)
    page.locator("#add-class").select_option(unit_class)
    page.locator("#add-figures").fill(figures)
    page.locator("#add-speed").fill(speed)
    page.locator("#add-accuracy").fill(accuracy)
    page.locator("#add-discipline").select_option(discipline)
    page.locator("#add-points").fill(points)
    if officer:
        page.locator("#add-officer").check()
    with posting(page):
        page.get_by_role("button", name="Add unit").click()
    htmx_settled(page)
    page.locator("li.unit").nth(units).wait_for()


def type_into(page, selector: str, value: str) -> None:  # type: ignore[no-untyped-def]
    htmx_settled(page)
    with posting(page):
        page.locator(selector).fill(value)
        page.locator(selector).press("Tab")
    htmx_settled(page)
    page.locator(f"{selector}[value='{value}']").wait_for()


def rule(page, code: str) -> str:  # type: ignore[no-untyped-def]
    return page.locator(f'#rules-panel li[data-code="{code}"]').get_attribute("class") or ""


def test_a_legal_line_and_square_force_is_built_by_clicking_and_typing(
        context, live_server: Server, output_dir: Path) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Rule system").select_option("line_and_square")
    page.get_by_label("Name", exact=True).fill("Старая гвардия")
    page.get_by_label("Points limit", exact=True).fill("")  # the usual 30
    page.get_by_role("button", name="Create army").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))

    add_unit(page, "1-й батальон", "line_infantry", "16", "6", "4", "1", "12.5", officer=True)
    add_unit(page, "Гусары", "light_cavalry", "8", "12", "3", "0", "9")
    # Light cavalry never shoots: the accuracy typed in is a warning until cleared.
    assert "check-warning" in rule(page, "unit.cannot_shoot")
    type_into(page, "#u2-accuracy", "")
    # Kept, it is folded with the other kept rules.
    page.locator("#rules-panel li.check-kept[data-code='unit.cannot_shoot']").wait_for(
        state="attached")

    # The cavalry's formation select has no square; the line infantry's has.
    cavalry = page.locator("#u2-formation option").all_inner_texts()
    assert cavalry == ["Loose order", "Close order", "March column"]
    htmx_settled(page)
    with posting(page):
        page.locator("#u1-formation").select_option("square")
    htmx_settled(page)
    page.locator("#u1-formation option[value='square'][selected]").wait_for(state="attached")
    # Discipline +1, square +1, and its own officer's +1 (the officer's unit is always within
    # 12" of him): needs 3, by 0, 1 and 2 disorder markers.
    chances = page.locator("#unit-u1 .ls-order-test .fraction").all_inner_texts()
    assert chances == ["35/36", "33/36", "30/36"]
    assert "Move" not in page.locator("#u1-actions").inner_text()

    # Too many points for the usual 30, then fixed by typing.
    type_into(page, "#u2-points", "18.5")
    assert "check-broken" in rule(page, "roster.over_limit")
    assert page.locator("#summary .verdict .verdict-word").inner_text() == "Not legal"
    type_into(page, "#u2-points", "17.5")
    assert "check-kept" in rule(page, "roster.over_limit")
    assert page.locator("#summary .verdict").inner_text() == "Legal"
    assert page.locator("#summary .big").first.inner_text() == "30 / 30"
    # Strictly below half and a quarter of 30, exactly («падает ниже»): 15 and 7.5.
    assert page.locator("#ls-break-half").inner_text() == "15 pts"
    assert page.locator("#ls-break-flight").inner_text() == "7.5 pts"
    page.screenshot(path=str(output_dir / "line-and-square-editor.png"), full_page=True)

    # The calculator, reached from the editor, answers as the player changes the situation.
    page.locator("#order-test-link").click()
    page.wait_for_url(re.compile(r"/calc/order-test"))
    assert page.locator("#chance-fraction").inner_text() == "26/36"
    with page.expect_response(lambda r: "/calc/order-test?" in r.url):
        page.get_by_label("Discipline").select_option("-3")
    page.locator("#chance-fraction:text('10/36')").wait_for()
    with page.expect_response(lambda r: "/calc/order-test?" in r.url):
        page.get_by_label("Officer within 12″").check()
    page.locator("#chance-fraction:text('15/36')").wait_for()
    assert page.locator("#chance-reduced").inner_text() == "5/12"
    assert "officer=on" in page.url  # the address keeps the situation


def test_the_calculator_works_with_javascript_disabled(browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    try:
        page = context.new_page()
        page.goto(live_server.url + "/calc/order-test")
        page.get_by_label("Formation").select_option("close_order")
        page.get_by_label("Disorder markers").fill("2")
        page.get_by_role("button", name="Show the chance").click()
        page.wait_for_load_state()
        # 0 + 1 − 2 = −1: needs 7, 21 of 36.
        assert page.locator("#chance-fraction").inner_text() == "21/36"
        assert page.locator("#chance-percent").inner_text() == "58.3 %"
    finally:
        context.close()


def test_back_after_using_the_calculator_restores_the_whole_page(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(live_server.url + "/calc/order-test")
    for field, value in (("#calc-discipline", "2"), ("#calc-formation", "close_order")):
        with page.expect_response(lambda r: "/calc/order-test" in r.url):
            page.locator(field).select_option(value)
        htmx_settled(page)
    page.go_back()
    # The page from history is the page, not the fragment htmx swapped into it.
    expect(page.locator("#calc-discipline")).to_be_visible()
    expect(page.locator("header, .site-header").first).to_be_visible()
    expect(page.locator("#calc-discipline")).to_have_value("2")


def test_on_a_phone_the_sticky_totals_leave_the_screen_to_the_units(
        browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="en-US", viewport={"width": 375, "height": 667})
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.get_by_label("Rule system").select_option("line_and_square")
        page.get_by_label("Name", exact=True).fill("Phone")
        page.get_by_role("button", name="Create army").click()
        page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))
        add_unit(page, "1-й батальон", "line_infantry", "16", "6", "4", "1", "12.5",
                 officer=True)
        # One line of totals: the break points and the square's rules wait in the share view.
        box = page.locator("#summary").bounding_box()
        assert box is not None and box["height"] <= 70, box
        assert not page.locator(".ls-square summary").is_visible()
    finally:
        context.close()
