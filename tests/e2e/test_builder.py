"""A player builds armies in a real browser, by clicking and typing only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import htmx_settled
from tests.helpers.servers import Server

pytestmark = pytest.mark.e2e


def new_army(page, server: Server, name: str, nation: str, limit: str = "300") -> None:  # type: ignore[no-untyped-def]
    page.goto(server.url + "/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Nation", exact=True).select_option(nation)
    page.get_by_label("Points limit", exact=True).fill(limit)
    page.get_by_role("button", name="Create army").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))


def more_choices(page) -> None:  # type: ignore[no-untyped-def]
    """Open the add card's fold: the other presets and a unit from scratch."""
    more = page.locator("#add-more")
    if more.get_attribute("open") is None:
        more.locator("summary").click()


def add_preset(page, preset: str) -> None:  # type: ignore[no-untyped-def]
    """Add a preset's unit: by its own button where the army offers one, else from the list."""
    units = page.locator("li.unit").count()
    button = page.locator(f".preset-buttons button[value='{preset}']")
    with page.expect_response(lambda r: r.request.method == "POST"):
        if button.count():
            button.click()
        else:
            more_choices(page)
            page.get_by_label("Preset").select_option(preset)
            page.get_by_role("button", name="Add unit").click()
    htmx_settled(page)
    page.locator("li.unit").nth(units).wait_for()


def set_figures(page, unit: str, figures: str) -> None:  # type: ignore[no-untyped-def]
    """Type the figures of the unit `unit` (its id; units added one by one are u1, u2 …):
    in its open row, else in the folded row's number box."""
    htmx_settled(page)
    field = page.locator(f"#{unit}-l1-figures")
    if not field.is_visible():
        field = page.locator(f"#{unit}-l1-count")
    with page.expect_response(lambda r: r.request.method == "POST"):
        field.fill(figures)
        field.press("Tab")
    htmx_settled(page)
    page.locator(f"#{unit}-l1-figures[value='{figures}']").wait_for(state="attached")


def rule(page, code: str):  # type: ignore[no-untyped-def]
    return page.locator(f'#rules-panel li[data-code="{code}"]')


def test_a_legal_mongol_army_is_built_by_clicking_and_typing(
        context, live_server: Server, output_dir: Path) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    new_army(page, live_server, "Орда Субэдэя", "mongols")
    add_preset(page, "horse_archers")
    add_preset(page, "medium_lancers")
    # Half the horde as medium lancers is too many: the broken proportion appears at once.
    assert "check-broken" in rule(page, "mongols.medium_lancers").get_attribute("class")
    add_preset(page, "light_lancers")
    set_figures(page, "u2", "5")
    set_figures(page, "u3", "5")
    assert "check-kept" in rule(page, "mongols.medium_lancers").get_attribute("class")
    assert "check-kept" in rule(page, "mongols.horse_archers").get_attribute("class")
    page.locator("#u1-summary").click()  # added folded: the row opens to edit
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u1-flag-commander").check()
    htmx_settled(page)
    page.locator("#u1-flag-commander[checked]").wait_for()
    assert page.locator("#summary .verdict").inner_text() == "Legal"
    # 10 × (3 + 4) + 5 × 4 + 5 × 3 = 105 of 300
    assert page.locator("#summary .big").first.inner_text() == "105 / 300"
    assert page.locator("#summary .big").nth(1).inner_text() == "195"
    page.screenshot(path=str(output_dir / "editor-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 800})
    page.screenshot(path=str(output_dir / "editor-phone.png"), full_page=True)
    page.screenshot(path=str(output_dir / "editor-phone-screen.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the editor scrolls sideways on a phone ({width}px)"


def test_a_broken_proportion_appears_and_disappears_as_units_change(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    new_army(page, live_server, "Русская рать", "russians", "500")
    add_preset(page, "heavy_foot_polearms")
    add_preset(page, "medium_lancers")
    set_figures(page, "u2", "4")
    assert "check-kept" in rule(page, "russians.horse_share").get_attribute("class")
    set_figures(page, "u2", "20")
    horse = rule(page, "russians.horse_share")
    assert "check-broken" in horse.get_attribute("class")
    assert "20 of 40 figures = 50 %" in horse.inner_text()
    set_figures(page, "u2", "4")
    assert "check-kept" in rule(page, "russians.horse_share").get_attribute("class")


def test_the_share_link_opened_elsewhere_has_no_edit_control(
        context, browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    new_army(page, live_server, "Shared", "poles")
    add_preset(page, "medium_lancers")
    share = page.locator("#share-link").input_value()
    assert "/edit" not in share
    stranger = browser.new_context()
    try:
        view = stranger.new_page()
        view.goto(share)
        assert view.locator("h1").inner_text() == "Shared"
        assert view.locator("form[action$='/edit']").count() == 0
        assert view.locator("input[name^='figures'], select[name^='troop']").count() == 0
        assert view.get_by_role("button", name="Copy to my rosters").is_visible()
        assert view.goto(share + "/edit").status == 403
    finally:
        stranger.close()


def test_an_edit_link_opens_the_editor_in_a_new_browser(
        browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    import httpx

    created = httpx.post(live_server.url + "/api/v1/rosters", json={
        "name": "Sent by link", "ruleset": "chainmail", "nation": "poles", "units": []}).json()
    context = browser.new_context(locale="en-US")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/r/{created['id']}/edit?key={created['edit_key']}")
        # The key has left the address; the browser is remembered, the key's cookie gone.
        assert page.url == f"{live_server.url}/r/{created['id']}/edit"
        assert page.locator("h1").first.inner_text() == "Sent by link"
        cookies = {c["name"] for c in context.cookies()}
        assert "muster_device" in cookies and "muster_link_key" not in cookies
        add_preset(page, "medium_lancers")
        assert page.locator("li.unit").count() == 1
        page.reload()
        assert page.locator("li.unit").count() == 1
        page.goto(live_server.url + "/")
        assert page.get_by_role("link", name="Sent by link").is_visible()
    finally:
        context.close()


def test_switching_to_russian_shows_russian_troop_names(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    page = context.new_page()
    new_army(page, live_server, "Knights", "generic")
    add_preset(page, "knights")
    page.get_by_role("link", name="Русский").click()
    page.wait_for_load_state()
    assert page.locator("#u1-l1-troop option:checked").text_content() == "Тяжёлый всадник"
    assert page.get_by_role("heading", name="Добавить отряд").is_visible()
    assert page.locator("#add-more > summary").inner_text() == "Другие заготовки или отряд с нуля"
    page.goto(live_server.url + "/")
    assert page.locator("h1").first.inner_text() == "Новая армия"


def test_a_unit_is_added_with_javascript_disabled(browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    context = browser.new_context(java_script_enabled=False, locale="en-US")
    try:
        page = context.new_page()
        new_army(page, live_server, "No script", "scots")
        more_choices(page)
        page.get_by_label("Preset").select_option("swiss_pikemen")
        page.get_by_role("button", name="Add unit").click()
        page.wait_for_load_state()
        assert page.locator("li.unit").count() == 1
        assert page.locator("#u1-l1-figures").input_value() == "24"
        assert page.locator("#summary .big").first.inner_text() == "72 / 300"
        # The unit's row opens without a script (a <details>); changing figures needs the
        # visible Save button when no script listens for changes.
        page.locator("#u1-summary").click()
        page.locator("#u1-l1-figures").fill("30")
        page.locator("#unit-u1").get_by_role("button", name="Save").click()
        page.wait_for_load_state()
        assert page.locator("#summary .big").first.inner_text() == "90 / 300"
    finally:
        context.close()


def test_a_figure_count_the_browser_refuses_is_pointed_out_not_silently_dropped(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    new_army(page, live_server, "Refused", "generic")
    add_preset(page, "horse_archers")
    page.locator("#u1-summary").click()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    field = page.locator("#u1-l1-figures")
    field.fill("0")
    field.press("Tab")
    # Nothing can be sent while the field is out of range, so the browser says why, at the
    # field, instead of every later change of that unit vanishing without a word.
    expect(field).to_be_focused()
    expect(page.locator("#u1-l1-figures:invalid")).to_have_count(1)
    assert sent == []
    set_figures(page, "u1", "12")
    page.reload()
    assert page.locator("#u1-l1-figures").input_value() == "12"


def test_a_preset_disables_the_fields_it_decides(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    new_army(page, live_server, "Choices", "generic")
    more_choices(page)
    for name in ("#add-figures", "#add-troop", "#add-weapon"):
        expect(page.locator(name)).to_be_enabled()
    page.get_by_label("Preset").select_option("horse_archers")
    for name in ("#add-figures", "#add-troop", "#add-weapon"):
        expect(page.locator(name)).to_be_disabled()
    # They show what the preset adds, not what was there before.
    expect(page.locator("#add-figures")).to_have_value("10")
    expect(page.locator("#add-troop")).to_have_value("light_horse")
    expect(page.locator("#add-weapon")).to_have_value("composite_bow")
    page.get_by_label("Preset").select_option("")
    expect(page.locator("#add-figures")).to_have_value("10")
    expect(page.locator("#add-troop")).to_have_value("peasant")
    page.locator("#add-figures").fill("7")
    page.get_by_role("button", name="Add unit").click()
    page.locator("li.unit").first.wait_for()
    htmx_settled(page)
    assert page.locator("#u1-l1-figures").input_value() == "7"


def test_a_long_unbroken_name_stays_inside_the_page(
        browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    import httpx

    name = "Кешиг" + "W" * 115
    created = httpx.post(live_server.url + "/api/v1/rosters", json={
        "name": name, "ruleset": "chainmail", "nation": "mongols", "units": [
            {"name": name, "flags": ["commander"], "lines": [
                {"troop": "light_horse", "figures": 10, "weapon": "composite_bow"}]}]}).json()
    for width in (1280, 375):
        context = browser.new_context(locale="en-US", viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/r/{created['id']}")
            for box in (page.locator("h1").bounding_box(), page.locator("h3").first.bounding_box(),
                        page.locator("main .card").first.bounding_box()):
                assert box is not None and box["x"] + box["width"] <= width, (width, box)
            page.goto(f"{live_server.url}/")  # "my rosters" lists the roster it created
            table = page.locator(".table-scroll")
            if table.count():
                box = table.bounding_box()
                assert box is not None and box["x"] + box["width"] <= width, (width, box)
        finally:
            context.close()
    context = browser.new_context(locale="en-US", viewport={"width": 800, "height": 1100})
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/r/{created['id']}/print")
        body = page.locator("body").bounding_box()
        cell = page.locator("td.name").first.bounding_box()
        table = page.locator("table").first.bounding_box()
        assert body and cell and table
        assert table["x"] + table["width"] <= body["x"] + body["width"] + 1, (table, body)
    finally:
        context.close()


def test_the_new_army_form_shows_the_chosen_systems_fields_only(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(live_server.url + "/")
    nation = page.get_by_label("Nation", exact=True)
    expect(nation).to_be_visible()
    page.get_by_label("Rule system").select_option("line_and_square")
    expect(nation).to_be_hidden()
    page.get_by_label("Name", exact=True).fill("Brigade")
    page.get_by_role("button", name="Create army").click()
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+/edit"))
    page.goto(live_server.url + "/")
    page.get_by_label("Rule system").select_option("line_and_square")
    page.get_by_label("Rule system").select_option("chainmail")
    expect(page.get_by_label("Nation", exact=True)).to_be_visible()


def test_the_keyboards_focus_follows_a_units_action(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    new_army(page, live_server, "Keys", "generic")
    for preset in ("knights", "peasants", "horse_archers"):
        add_preset(page, preset)

    def press(button: str, then: str) -> None:
        htmx_settled(page)
        # A unit's buttons are in its row, Add engine in its fold: opened as a player opens
        # them (a click on it).
        row = page.locator(f"details:has({button})").first
        if row.count() and row.get_attribute("open") is None:
            row.locator("> summary").click()
        page.locator(button).focus()
        with page.expect_response(lambda r: r.request.method == "POST"):
            page.keyboard.press("Enter")
        htmx_settled(page)
        expect(page.locator(then)).to_be_focused()

    # Knights u1, peasants u2, horse archers u3, in that order of the list.
    press("#u1-move-down", "#u1-move-down")   # the moved unit's own button: u2 u1 u3
    press("#u1-move-down", "#u1-move-up")     # at the end: its other button: u2 u3 u1
    press("#u2-duplicate", "#u4-name")        # the copy's name: u2 u4 u3 u1
    press("#u1-remove", "#units-heading")     # the last one: the list's heading
    press("#u2-remove", "#u4-summary")        # the next unit's row, not its Remove: u4 u3
    assert page.locator("li.unit").count() == 2
    # A button that stays where it was keeps the focus, as Add unit always did (a preset's
    # too: the unit it adds comes folded, the next one a keypress away).
    press("#add-knights", "#add-knights")     # u5
    assert page.locator("li.unit").count() == 3
    press("#u5-remove", "#units-heading")
    press("#u4-add-line", "#u4-l2-figures")   # the new line's first field
    press("#u4-l2-remove", "#u4-add-line")    # a line removed: the unit's "Add a line"
    press("#add-engine", "#add-engine")
    press("#add-engine", "#add-engine")
    press("#e1-remove", "#engines-heading")   # not the next engine's Remove
    assert page.locator("ul.engines > li").count() == 1


def test_an_army_is_deleted_from_its_editor_and_restored_from_the_home_page(
        context, browser, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    new_army(page, live_server, "Short-lived", "poles")
    add_preset(page, "medium_lancers")
    share = page.locator("#share-link").input_value()
    page.get_by_role("button", name="Delete army").click()
    page.wait_for_url(re.compile(r"/\?deleted="))
    deleted = page.locator("section[aria-labelledby='deleted-heading']")
    assert "“Short-lived” was deleted." in deleted.inner_text()
    expect(deleted.get_by_role("status")).to_be_focused()
    assert page.get_by_role("link", name="Short-lived").count() == 0
    stranger = browser.new_context()
    try:
        assert stranger.new_page().goto(share).status == 410
    finally:
        stranger.close()
    deleted.get_by_role("button", name="Restore Short-lived").click()
    page.wait_for_url(share + "/edit?restored=1")
    # Said once, and where the keyboard's focus starts.
    expect(page.get_by_role("status").filter(has_text="The army was restored.")).to_be_focused()
    assert page.locator("li.unit").count() == 1
    assert page.goto(share).status == 200


def test_a_removed_unit_comes_back_with_undo(context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect

    page = context.new_page()
    new_army(page, live_server, "Undone", "generic")
    add_preset(page, "knights")
    add_preset(page, "peasants")
    set_figures(page, "u2", "17")  # a unit's change: the undo button is redrawn out of band
    htmx_settled(page)
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.locator("#u1-summary").click()  # units come folded: the row opens to edit
        page.locator("#u1-remove").click()
    htmx_settled(page)
    assert page.locator("li.unit").count() == 1
    undo = page.locator("#undo-button")
    with page.expect_response(lambda r: r.request.method == "POST"):
        undo.click()
    htmx_settled(page)
    assert page.locator("li.unit").count() == 2
    assert page.locator("#u2-l1-figures").input_value() == "17"
    expect(page.locator("#undo-button")).to_be_focused()  # to undo again, one key away
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.keyboard.press("Enter")
    htmx_settled(page)
    # Back before the figures' change, not to the removal just undone.
    assert page.locator("li.unit").count() == 2
    assert page.locator("#u2-l1-figures").input_value() != "17"


def test_undo_clicked_right_after_typing_undoes_what_was_typed(
        context, live_server: Server) -> None:  # type: ignore[no-untyped-def]
    # Leaving the field sends its change; the click's undo waits for that answer (htmx queues
    # it) and must still go, aimed at the version before the typed change.
    page = context.new_page()
    new_army(page, live_server, "Typed", "generic")
    add_preset(page, "knights")
    htmx_settled(page)
    page.locator("#u1-summary").click()  # units come folded: the row opens to edit
    before = page.locator("#u1-l1-figures").input_value()
    page.locator("#u1-l1-figures").fill("17")
    with page.expect_response(lambda r: "undo" in (r.request.post_data or "")):
        page.locator("#undo-button").click()
    htmx_settled(page)
    page.locator(f"#u1-l1-figures[value='{before}']").wait_for()
    assert page.locator("#u1-l1-figures").input_value() == before
