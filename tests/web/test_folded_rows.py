"""The phone editor's server side: a folded row's − / + and figures box (a plain form too), a
unit added folded and marked, a preset's price, and a new army that needs no typed name."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.web.test_pages import create_army, csrf_of, document, edit


def test_a_folded_rows_steppers_change_one_figure_and_never_go_under_one(
        client: TestClient) -> None:
    roster_id = create_army(client)
    assert edit(client, roster_id, op="add_unit",  # type: ignore[attr-defined]
                preset="steppe_light_lancers").status_code == 303
    unit = document(client, roster_id)["units"][0]
    line = unit["lines"][0]["id"]
    step = {"op": "step_figures", "unit": unit["id"], "line": line}
    # Without a script: the form posts, and the answer goes back to the unit.
    answer = edit(client, roster_id, **step, **{f"figures_{line}": "5"}, step=f"{line}:1")
    assert answer.headers["location"].endswith(f"#unit-{unit['id']}")
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 6
    edit(client, roster_id, **step, **{f"figures_{line}": "9"})  # the box alone
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 9
    edit(client, roster_id, **step, **{f"figures_{line}": "1"}, step=f"{line}:-1")
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 1
    for bad in (f"{line}:5", "l9:1", "x:1", ":1"):
        assert edit(client, roster_id, **step, **{f"figures_{line}": "4"},
                    step=bad).status_code == 422, bad
    # With htmx: the unit alone, still folded, with its new figures.
    answer = edit(client, roster_id, htmx=True, **step, **{f"figures_{line}": "4"},
                  step=f"{line}:1")
    assert answer.status_code == 200
    text = answer.text
    assert f'id="{unit["id"]}-row">' in text and f'id="{unit["id"]}-{line}-count"' in text
    assert 'value="5"' in text


def test_a_unit_added_comes_folded_and_marked_and_its_preset_shows_its_price(
        client: TestClient) -> None:
    roster_id = create_army(client, limit="200")
    page = client.get(f"/r/{roster_id}/edit").text
    # One tap each, with what it adds and costs: 10 light horse with bows at 6 points.
    assert 'id="add-steppe_horse_archers"' in page and "10 figures, 60 points" in page
    answer = edit(client, roster_id, htmx=True, op="add_unit", preset="steppe_horse_archers")
    text = answer.text  # type: ignore[attr-defined]
    assert 'class="unit card fresh" id="unit-u1"' in text
    assert 'id="u1-row">' in text  # not open
    # The focus stays on the Add control pressed (htmx gives it back by its id).
    assert "autofocus" not in text
    assert "Points 60 of 200" in text and "140 left" in text


def test_a_new_army_without_a_name_is_named_after_its_nation(client: TestClient) -> None:
    for lang, name in (("en", "Mongols"), ("ru", "Монголы")):
        client.get(f"/lang/{lang}")
        answer = client.post("/rosters/new", data={
            "csrf": csrf_of(client), "name": "", "nation": "mongols", "points_limit": "200",
            "ruleset": "chainmail"}, follow_redirects=False)
        assert answer.status_code == 303, answer.text
        roster_id = answer.headers["location"].split("/")[2]
        assert document(client, roster_id)["name"] == name
