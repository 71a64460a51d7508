"""The editor follows the unit, not its place: each control says what its answer replaces, and
the answer marks where the keyboard's focus goes (the one element drawn with `autofocus`, which
htmx focuses once the answer is in), by the unit's and its lines' ids."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.test_line_and_square_pages import NEW_UNIT
from tests.web.test_line_and_square_pages import create as create_line_and_square
from tests.web.test_pages import create_army, document, edit, unit_form


def focused(html: str) -> str:
    """The id of the element the answer focuses; there is exactly one."""
    found = re.findall(r'<[a-z0-9]+ [^>]*?id="([^"]+)"[^>]*? autofocus[ >]', html)
    assert len(found) == 1, found
    return found[0]


def is_open(html: str, unit: str) -> bool:
    row = re.search(rf'<details class="unit-row" id="{unit}-row"( open)?>', html)
    assert row, unit
    return row.group(1) is not None


def three_units(client: TestClient) -> str:
    roster_id = create_army(client, nation="generic")
    for preset in ("knights", "horse_archers", "crossbowmen"):
        assert edit(client, roster_id, op="add_unit", preset=preset).status_code == 303
    assert [u["id"] for u in document(client, roster_id)["units"]] == ["u1", "u2", "u3"]
    return roster_id


def press(client: TestClient, roster_id: str, place: int, action: str, **fields: str) -> str:
    """An htmx press of a unit's button (its form's fields with it); the answer's text."""
    answer = edit(client, roster_id, htmx=True, op="update_unit", action=action,
                  **unit_form(client, roster_id, place), **fields)
    assert answer.status_code == 200, answer.text[:300]
    assert "HX-Retarget" not in answer.headers and "HX-Reswap" not in answer.headers
    assert "HX-Trigger-After-Settle" not in answer.headers
    return str(answer.text)


def test_a_moved_unit_keeps_the_focus_on_its_own_button(client: TestClient) -> None:
    roster_id = three_units(client)
    moved = press(client, roster_id, 2, "move_up")  # u3 to the middle
    assert [u["id"] for u in document(client, roster_id)["units"]] == ["u1", "u3", "u2"]
    assert focused(moved) == "u3-move-up" and is_open(moved, "u3")
    # At the top, its Move up is off: the focus goes to its Move down.
    assert focused(press(client, roster_id, 1, "move_up")) == "u3-move-down"
    assert focused(press(client, roster_id, 0, "move_down")) == "u3-move-down"
    # At the bottom, the other way round.
    moved = press(client, roster_id, 1, "move_down")
    assert [u["id"] for u in document(client, roster_id)["units"]] == ["u1", "u2", "u3"]
    assert focused(moved) == "u3-move-up"


def test_a_copy_takes_the_focus_at_its_name_in_its_open_row(client: TestClient) -> None:
    roster_id = three_units(client)
    copied = press(client, roster_id, 0, "duplicate")
    assert [u["id"] for u in document(client, roster_id)["units"]] == ["u1", "u4", "u2", "u3"]
    assert focused(copied) == "u4-name" and is_open(copied, "u4")
    assert not is_open(copied, "u1")


def test_a_removal_gives_the_focus_to_the_next_units_row_never_its_remove(
        client: TestClient) -> None:
    roster_id = three_units(client)
    # The unit's form names the one that takes its place (see below).
    removed = press(client, roster_id, 0, "remove_unit", next_unit="u2")
    assert focused(removed) == "u2-summary"
    # The last of the list: the list's heading.
    removed = press(client, roster_id, 1, "remove_unit")
    assert [u["id"] for u in document(client, roster_id)["units"]] == ["u2"]
    assert focused(removed) == "units-heading"
    assert focused(press(client, roster_id, 0, "remove_unit")) == "units-heading"


def test_a_plain_forms_removal_goes_back_to_the_unit_that_took_its_place(
        client: TestClient) -> None:
    roster_id = three_units(client)
    answer = edit(client, roster_id, op="update_unit", action="remove_unit",
                  **unit_form(client, roster_id, 1), next_unit="u3")
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/r/{roster_id}/edit#unit-u3"


def test_the_unit_form_names_the_next_unit_for_its_removal(client: TestClient) -> None:
    roster_id = three_units(client)
    page = client.get(f"/r/{roster_id}/edit").text
    assert page.count('<input type="hidden" name="next_unit"') == 2  # not the last's
    # Shown grouped by kind (the foot first), each names the next in the list's own order.
    for unit, after in (("u1", "u2"), ("u2", "u3")):
        form = re.search(rf'<li [^>]*id="unit-{unit}">.*?</li>', page, re.S)
        assert form and f'<input type="hidden" name="next_unit" value="{after}">' in \
            form.group(0)


def test_a_new_line_takes_the_focus_at_its_figures_and_a_removed_ones_goes_to_add_a_line(
        client: TestClient) -> None:
    roster_id = three_units(client)
    added = press(client, roster_id, 1, "add_line")
    assert added.lstrip().startswith('<li class="unit card" id="unit-u2">')  # the unit alone
    assert [line["id"] for line in document(client, roster_id)["units"][1]["lines"]] == \
        ["l1", "l2"]
    assert focused(added) == "u2-l2-figures"
    removed = press(client, roster_id, 1, "remove_line:l1")
    assert [line["id"] for line in document(client, roster_id)["units"][1]["lines"]] == ["l2"]
    assert focused(removed) == "u2-add-line"


def test_a_removed_engine_gives_the_focus_to_the_engines_heading(client: TestClient) -> None:
    roster_id = create_army(client, nation="generic")
    edit(client, roster_id, op="add_engine", kind="bombard", count="1")
    edit(client, roster_id, op="add_engine", kind="heavy_catapult", count="2")
    page = client.get(f"/r/{roster_id}/edit").text
    assert '<input type="hidden" name="engine" value="e2">' in page and 'id="e2-count"' in page
    answer = edit(client, roster_id, htmx=True, op="update_engine", action="remove_engine",
                  engine="e1", kind="bombard", count="1")
    assert [e["id"] for e in document(client, roster_id)["engines"]] == ["e2"]
    assert focused(answer.text) == "engines-heading"


def test_a_fields_change_and_a_chainmail_unit_added_leave_the_focus_where_it_is(
        client: TestClient) -> None:
    roster_id = three_units(client)
    changed = edit(client, roster_id, htmx=True, op="update_unit", **unit_form(
        client, roster_id, 1, unit_name="Лучники", figures_0="12", troop_0="light_horse",
        weapon_0="composite_bow"))
    assert "autofocus" not in changed.text and 'id="u2-row" open' in changed.text
    added = edit(client, roster_id, htmx=True, op="add_unit", preset="peasants")
    assert "autofocus" not in added.text and not is_open(added.text, "u4")


def test_a_unit_whose_row_cannot_change_it_opens_at_its_name_when_added(
        client: TestClient) -> None:
    roster_id = create_line_and_square(client)
    edit(client, roster_id, **NEW_UNIT)
    added = edit(client, roster_id, htmx=True, **NEW_UNIT)
    assert focused(added.text) == "u2-name" and is_open(added.text, "u2")
    assert not is_open(added.text, "u1")


def test_each_control_says_what_its_answer_replaces(client: TestClient) -> None:
    roster_id = three_units(client)
    page = client.get(f"/r/{roster_id}/edit").text
    # A unit's fields and its lines' buttons: its own list item.
    unit = re.search(r'<form [^>]*aria-label="Unit 2"[^>]*>', page)
    assert unit and 'hx-target="closest li" hx-swap="outerHTML"' in unit.group(0)
    # Duplicate, Move and Remove: the whole editor, each by its own request.
    for action in ("duplicate", "move_up", "move_down", "remove_unit"):
        button = re.search(rf'<button type="submit" name="action" value="{action}"[^>]* '
                           rf'id="u2-[a-z-]+"[^>]*>', page)
        assert button and f'hx-post="/r/{roster_id}/edit" hx-target="#editor" ' \
            'hx-swap="outerHTML"' in button.group(0), action
    # Every other form of the editor too; none is left to what it sits in.
    forms = re.findall(r'<form [^>]*hx-post="[^"]*"[^>]*>', page)
    assert len(forms) > 6
    for form in forms:
        assert 'hx-target="closest li"' in form or 'hx-target="#editor"' in form, form
    # A refused change answers the whole editor, whichever control sent it.
    assert '"code": "(409|422)", "swap": true, "error": false, "target": "#editor", ' \
        '"swapOverride": "outerHTML"' in page
    assert '"target": "#editor"' not in client.get("/").text
