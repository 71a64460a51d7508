"""The table calculators in Chromium: each page at phone width (390 × 844) without sideways
scrolling, in both languages, with screenshots in test-output/; htmx swaps and plain forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import htmx_settled
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e

PAGES = {
    "weather": "/calc/weather?start=clear&checks=6",
    "figure-sizes": "/calc/figure-sizes?scale=54",
    "shooting": ("/calc/shooting?hits=7&shooter_density=4&density=3&warriors=30&shield=on"
                 "&armour=on&cavalry=on"),
    "tournament": ("/calc/tournament?t0=Lions&t1=Eagles&k0=Ivanhoe&k1=Bois-Guilbert&k1t=1"
                   "&j0a=0&j0b=1&j0p1a=broken_lance&j0p1b=helm"),
    "man-to-man": "/calc/man-to-man?a_class=10&a_mounted=on&d_class=1&d_weight=heavy",
    "siege": "/calc/siege?s0=bastion&p0=40&s1=palisade&p1=10&bombard=1&light_catapult=2&rams=2",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(PAGES))
def test_the_page_fits_a_phone(browser, live_server: Server, output_dir: Path,  # type: ignore[no-untyped-def]
                               name: str, lang: str) -> None:
    context = browser.new_context(locale="ru-RU" if lang == "ru" else "en-US",
                                  viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(live_server.url + PAGES[name])
        page.screenshot(path=str(output_dir / f"calc-{name}-{lang}-phone.png"), full_page=True)
        width = page.evaluate("document.documentElement.scrollWidth")
        client = page.evaluate("document.documentElement.clientWidth")
        assert width <= client, f"{name} scrolls sideways on a phone ({width} > {client})"
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=str(output_dir / f"calc-{name}-{lang}-desktop.png"), full_page=True)
    finally:
        context.close()


def test_the_weather_roll_and_forecast_swap_in_place(context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    page.goto(live_server.url + "/calc/weather")
    with page.expect_response(lambda r: "/calc/weather?" in r.url):
        page.get_by_label("Starting weather").select_option("rain")
    htmx_settled(page)
    assert "start=rain" in page.url
    assert page.locator("#weather-table tbody tr").first.locator(
        "[data-weather=rain]").inner_text().startswith("2/3")
    with page.expect_response(lambda r: "roll=1" in r.url):
        page.get_by_role("button", name="Roll a die").click()
    htmx_settled(page)
    assert page.locator("#roll-die").inner_text().startswith("Die: ")


def test_the_weather_page_works_without_javascript(browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    try:
        page = context.new_page()
        page.goto(live_server.url + "/calc/weather")
        page.get_by_label("Starting weather").select_option("clear")
        page.get_by_label("Checks").fill("2")
        page.get_by_role("button", name="Show the chances").click()
        page.wait_for_load_state()
        rows = page.locator("#weather-table tbody tr")
        assert rows.count() == 2
        assert rows.nth(1).locator("[data-weather=clear]").inner_text().startswith("13/18")
    finally:
        context.close()


def test_a_tournament_pass_entered_opens_the_next(context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    page.goto(live_server.url + "/calc/tournament?k0=Ivanhoe&k1=Bois-Guilbert&k1t=1")
    page.locator("#joust-0-a").select_option(label="Ivanhoe")
    page.locator("#joust-0-b").select_option(label="Bois-Guilbert")
    page.locator("#joust-0-pass-1-a").select_option("unhorsed")
    with page.expect_response(lambda r: "/calc/tournament?" in r.url):
        page.get_by_role("button", name="Update the score").click()
    htmx_settled(page)
    assert "j0p1a=unhorsed" in page.url
    first = page.locator("#knight-scores tbody tr").first.inner_text().split()
    assert first[0] == "Ivanhoe" and first[-1] == "20"
    assert page.locator("#joust-0-pass-2-a").count() == 0  # ended at the unhorsing


def test_the_siege_page_works_without_javascript(browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    try:
        page = context.new_page()
        page.goto(live_server.url + "/calc/siege")
        page.locator("#siege-s0").select_option("palisade")
        page.locator("#siege-p0").fill("10")
        page.locator("#siege-light_catapult").fill("1")
        page.get_by_role("button", name="Compute").click()
        page.wait_for_load_state()
        assert "Light catapult (−2)\t5" in page.locator(".siege-hits").first.inner_text()
    finally:
        context.close()
