"""A player builds a Formation Density roster in a real browser and opens the melee calculator."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e
# Elements htmx marks while a request or a swap is under way.
BUSY = ".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added"


def settled(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until htmx has finished swapping, so the new forms listen for changes."""
    expect(page.locator(BUSY)).to_have_count(0)


def new_roster(page, server: Server, name: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(server.url + "/")
    page.get_by_label("Rule system").select_option("formation_density")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Points limit", exact=True).fill("")
    page.get_by_role("button", name="Create army").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))


def add_unit(page, name: str, density: str, files: str, count: str,  # type: ignore[no-untyped-def]
             kind: str, weapon: str, *protection: str) -> None:
    units = page.locator("li.unit").count()
    page.locator("#add-name").fill(name)
    page.locator("#add-density").select_option(density)
    page.locator("#add-files").fill(files)
    page.locator("#add-count").fill(count)
    # One select of the class and weapon pairs the weapon table allows.
    page.locator("#add-kit").select_option(f"{kind}:{weapon}")
    for flag in protection:
        page.locator(f"#add-{flag}").check()
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.get_by_role("button", name="Add unit").click()
    page.locator("li.unit").nth(units).wait_for()
    settled(page)


def options(page, ident: str) -> list[str]:  # type: ignore[no-untyped-def]
    return page.locator(f"#{ident} option").evaluate_all("os => os.map(o => o.value)")


def weapons_follow_the_class(page) -> None:  # type: ignore[no-untyped-def]
    """The second unit (swordsmen with shields) becomes shock troops: the weapon select offers
    the shock troops' weapons and keeps the sword, marked; a halberd then turns the shield into
    the problem, and a spear mends both."""
    assert options(page, "u2-l1-weapon") == ["short_spear", "axe", "heavy_throwing", "sword",
                                            "improvised"]
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u2-l1-class").select_option("shock_troops")
    settled(page)
    assert options(page, "u2-l1-weapon") == ["pike", "spear", "halberd", "short_spear", "sword"]
    expect(page.locator("#u2-l1-weapon")).to_have_value("sword")
    expect(page.locator("#u2-l1-weapon")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#u2-l1-weapon-problem")).to_contain_text("Weapon: Sword is not")
    expect(page.locator("#u2-row")).to_have_attribute("open", "")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u2-l1-weapon").select_option("halberd")
    settled(page)
    assert options(page, "u2-l1-weapon") == ["pike", "spear", "halberd", "short_spear"]
    expect(page.locator("#u2-l1-shield")).to_be_checked()
    expect(page.locator("#u2-l1-shield-problem")).to_contain_text("Shield: Halberd is two-handed")
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u2-l1-weapon").select_option("spear")
    settled(page)
    expect(page.locator("#u2-l1-shield-problem")).to_have_count(0)
    expect(page.locator("#u2-l1-shield")).to_be_enabled()
    assert "check-kept" in page.locator(
        '#rules-panel li[data-code="unit.weapon_class"]').get_attribute("class")
    # The new unit's form: a two-handed pair turns the shield box off, a one-handed one on.
    page.locator("#add-kit").select_option("melee_specialists:axe")
    expect(page.locator("#add-shield")).to_be_disabled()
    page.locator("#add-kit").select_option("melee_specialists:sword")
    expect(page.locator("#add-shield")).to_be_enabled()
    # Back to the swordsmen the calculator below expects.
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u2-l1-class").select_option("melee_specialists")
    settled(page)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u2-l1-weapon").select_option("sword")
    settled(page)


def test_a_roster_is_built_by_clicking_and_typing_and_its_units_meet_in_the_calculator(
        context, live_server: Server, output_dir: Path) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    new_roster(page, live_server, "Македонцы")
    add_unit(page, "Фаланга", "4", "10", "30", "shock_troops", "pike", "armour")
    # 30 pikes in 10 files: 3 full ranks, 4 extra hits; below density 4 hits half the time.
    assert page.locator("#u1-extra").inner_text() == "4"
    assert "1/2 (50 %)" in page.locator("#u1-figures").inner_text()
    add_unit(page, "Гипасписты", "3", "10", "10", "melee_specialists", "sword",
             "shield", "armour")
    # Denser ranks change who hits: the figures follow at once.
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u1-density").select_option("6")
    page.locator("#u1-density option[value='6'][selected]").wait_for(state="attached")
    assert "5/6 (83.3 %)" in page.locator("#u1-figures").inner_text()
    assert "check-kept" in page.locator(
        '#rules-panel li[data-code="unit.weapon_class"]').get_attribute("class")

    weapons_follow_the_class(page)

    page.locator("#melee-link").click()
    page.wait_for_url(re.compile(r"/calc/melee\?roster="))
    assert page.locator("h1").inner_text() == "Melee calculator"
    assert "Фаланга" in page.locator("#side-a-heading").inner_text()
    assert "Гипасписты" in page.locator("#side-b-heading").inner_text()
    assert page.locator("#side-a-result svg.fd-chart").count() >= 3
    # Pikes at density 6 hit on 1–5: 10 × 5/6 + 4 = 12.333… hits scored.
    assert page.locator("#a-hits-mean").inner_text() == "12.333"
    # Choosing another unit swaps the result in place (htmx) and keeps it addressable.
    with page.expect_response(lambda r: "/calc/melee" in r.url):
        page.locator("#side-a").select_option(index=1)
    expect(page.locator("#side-a-heading")).to_contain_text("Гипасписты")
    assert "a=" in page.url
    page.screenshot(path=str(output_dir / "melee-calculator.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, width


def test_the_calculator_works_with_javascript_disabled(browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    try:
        page = context.new_page()
        new_roster(page, live_server, "Без скриптов")
        add_unit(page, "Топорщики", "2", "5", "5", "melee_specialists", "axe", "armour")
        add_unit(page, "Копейщики", "4", "5", "10", "shock_troops", "spear", "shield")
        # A class changed and saved: the server draws the new class's weapons, the axe kept
        # and marked (the row opens by hand: without a script nothing opens it).
        page.locator("#u1-summary").click()
        page.locator("#u1-l1-class").select_option("shock_troops")
        page.locator("#unit-u1 button.save").click()
        page.wait_for_load_state()
        page.locator("#u1-summary").click()
        assert options(page, "u1-l1-weapon") == ["pike", "spear", "halberd", "short_spear", "axe"]
        expect(page.locator("#u1-l1-weapon")).to_have_value("axe")
        expect(page.locator("#u1-l1-weapon-problem")).to_contain_text("Weapon: Axe is not")
        page.locator("#u1-l1-class").select_option("melee_specialists")
        page.locator("#unit-u1 button.save").click()
        page.wait_for_load_state()
        expect(page.locator("#u1-l1-weapon-problem")).to_have_count(0)
        page.locator("#melee-link").click()
        page.wait_for_load_state()
        page.locator("#side-b").select_option(index=0)
        page.get_by_role("button", name="Compute").click()
        page.wait_for_load_state()
        assert "Топорщики" in page.locator("#side-b-heading").inner_text()
        assert page.locator("#side-a-result .fd-first").count() == 1  # axes strike first
    finally:
        context.close()
