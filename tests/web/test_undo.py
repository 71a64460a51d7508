"""Undo in the editor: an earlier version's document stored again as the next version, going
further back at each press, after any change back to the version before it, with htmx and
with a plain form."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlmodel import Session, col

from app.storage.tables import Revision
from tests.helpers.documents import army
from tests.web.test_pages import HX, create_army, document, edit, unit_form, version_of


def names(client: TestClient, roster_id: str) -> list[str]:
    return [unit["name"] for unit in document(client, roster_id)["units"]]


def undo_form(html: str) -> str:
    found = re.search(r'<form id="undo".*?</form>', html, re.S)
    assert found, "the editor draws the undo form"
    return found.group(0)


def undo_target(html: str) -> int:
    found = re.search(r'name="undo_to" value="(-?\d+)"', html)
    assert found
    return int(found.group(1))


def undo(client: TestClient, roster_id: str, html: str | None, htmx: bool = True) -> object:
    """Press the undo button of the page `html` (its target), or of a fresh editor."""
    page = html if html is not None else client.get(f"/r/{roster_id}/edit").text
    return edit(client, roster_id, htmx=htmx, op="undo", undo_to=str(undo_target(page)))


def test_undo_goes_back_one_change_at_a_time_and_keeps_every_version(
        client: TestClient) -> None:
    roster_id = create_army(client)
    for preset in ("knights", "horse_archers", "crossbowmen"):
        assert edit(client, roster_id, op="add_unit", preset=preset).status_code == 303
    assert names(client, roster_id) == ["Knights", "Horse archers", "Crossbowmen"]
    assert version_of(client, roster_id) == 4

    answer = undo(client, roster_id, None)
    assert answer.status_code == 200 and "HX-Retarget" not in answer.headers
    assert answer.text.lstrip().startswith('<div id="editor"')
    # Undo again is one keypress away: the answer's button takes the focus.
    assert re.search(r'<button type="submit" id="undo-button" autofocus>', answer.text)
    assert names(client, roster_id) == ["Knights", "Horse archers"]
    # Pressed again, the answer's own button goes on back, not to the version it just undid.
    answer = undo(client, roster_id, answer.text)
    assert names(client, roster_id) == ["Knights"]
    answer = undo(client, roster_id, answer.text)
    assert names(client, roster_id) == []
    # Nothing earlier than the first version: the button is off, and a forged press refused.
    assert undo_target(answer.text) == 0 and "disabled" in undo_form(answer.text)
    refused = edit(client, roster_id, htmx=True, op="undo", undo_to="0")
    assert refused.status_code == 422
    assert "Undo: there is no earlier version to go back to" in refused.text
    # Each undo was a change of its own: nothing was lost, so the undone state can come back.
    versions = [r["version"] for r in client.get(f"/api/v1/rosters/{roster_id}/revisions").json()]
    assert versions == [1, 2, 3, 4, 5, 6, 7]
    back = client.get(f"/api/v1/rosters/{roster_id}/revisions/4").json()["document"]
    assert [u["name"] for u in back["units"]] == ["Knights", "Horse archers", "Crossbowmen"]


def test_after_a_unit_change_undo_goes_back_to_the_version_before_it(
        client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    answer = undo(client, roster_id, None)  # version 4, its button aimed at version 1
    assert undo_target(answer.text) == 1
    # A unit's change answers with that unit alone; the undo button comes out of band, aimed
    # at the version before this change, not at version 1 any more.
    changed = edit(client, roster_id, htmx=True, op="update_unit", **unit_form(
        client, roster_id, 0, unit_name="Рыцари", figures_0="7", troop_0="heavy_horse",
        weapon_0="lance"))
    assert changed.status_code == 200 and "HX-Retarget" not in changed.headers
    # Only the target and the button: the form stays, so an undo clicked while this change
    # was on its way (htmx queues it) is still sent once the answer is in.
    assert '<form id="undo"' not in changed.text
    assert re.search(r'<input type="hidden" id="undo-to" name="undo_to" value="4" '
                     r'hx-swap-oob="true">', changed.text)
    assert re.search(r'<button type="submit" id="undo-button" hx-swap-oob="true">Undo \(back '
                     r'to version 4\)</button>', changed.text)
    undo(client, roster_id, changed.text)
    assert names(client, roster_id) == ["Knights"]


def test_undo_with_plain_forms_goes_on_back_as_with_htmx(client: TestClient) -> None:
    roster_id = create_army(client)
    for preset in ("knights", "horse_archers", "crossbowmen"):
        edit(client, roster_id, op="add_unit", preset=preset)
    answer = undo(client, roster_id, None, htmx=False)
    # The redirect's address says how far the next undo goes back: not to the version just
    # undone, which would bring it back again.
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/r/{roster_id}/edit?undo_to=2"
    assert names(client, roster_id) == ["Knights", "Horse archers"]
    page = client.get(answer.headers["location"]).text
    assert undo_target(page) == 2
    answer = undo(client, roster_id, page, htmx=False)
    assert names(client, roster_id) == ["Knights"]
    page = client.get(answer.headers["location"]).text
    undo(client, roster_id, page, htmx=False)
    assert names(client, roster_id) == []
    # Another change: the next undo goes back to the version before it.
    redirect = edit(client, roster_id, op="add_unit", preset="knights")
    assert redirect.headers["location"] == f"/r/{roster_id}/edit"
    assert undo_target(client.get(redirect.headers["location"]).text) == 7
    # An address whose chain cannot be one is ignored.
    for wrong in ("99", "-1", "x", "1e3"):
        assert undo_target(client.get(f"/r/{roster_id}/edit?undo_to={wrong}").text) == 7


def test_the_address_keeps_the_undo_chain_for_a_reload_with_htmx(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    answer = undo(client, roster_id, None)
    assert answer.headers["HX-Replace-Url"] == f"/r/{roster_id}/edit?undo_to=1"
    # Any other change from that address drops the chain from it.
    changed = client.post(f"/r/{roster_id}/edit", headers={
        **HX, "HX-Current-URL": f"http://testserver/r/{roster_id}/edit?undo_to=1"}, data={
        "csrf": client.cookies.get("muster_csrf"), "version": str(version_of(client, roster_id)),
        "system": "chainmail", "op": "add_unit", "preset": "peasants"})
    assert changed.status_code == 200
    assert changed.headers["HX-Replace-Url"] == f"/r/{roster_id}/edit"
    # A change from an address without one leaves the address alone.
    plain = edit(client, roster_id, htmx=True, op="add_unit", preset="peasants")
    assert "HX-Replace-Url" not in plain.headers


def test_undo_goes_back_across_a_change_of_rule_system(client: TestClient) -> None:
    # The API may replace a roster with one of another rule system; undo brings the old one
    # back, judged by its own rules.
    made = client.post("/api/v1/rosters", json=army("Орда")).json()
    key = {"Authorization": f"Bearer {made['edit_key']}"}
    opened = client.get(f"/r/{made['id']}/edit?key={made['edit_key']}")
    assert opened.status_code == 200
    other = {"name": "Каре", "ruleset": "line_and_square", "units": []}
    assert client.put(f"/api/v1/rosters/{made['id']}", json=other,
                      headers={**key, "If-Match": '"v1"'}).status_code == 200
    for htmx in (True, False):
        answer = undo(client, made["id"], None, htmx=htmx)
        assert answer.status_code in (200, 303), answer.text[:300]
    # Back to Chainmail, then forward again to Line and Square: each judged as itself.
    read = client.get(f"/api/v1/rosters/{made['id']}").json()
    assert read["document"]["ruleset"] == "line_and_square" and read["version"] == 4
    undo(client, made["id"], None)
    read = client.get(f"/api/v1/rosters/{made['id']}").json()
    assert read["document"] == client.get(
        f"/api/v1/rosters/{made['id']}/revisions/1").json()["document"]
    priced = client.post("/api/v1/price", json=read["document"]).json()
    assert read["result"]["total"] == priced["total"]
    assert client.get(f"/r/{made['id']}/edit").status_code == 200


def test_when_nothing_earlier_is_left_the_focus_goes_to_the_editors_heading(
        client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    answer = undo(client, roster_id, None)
    assert "disabled" in undo_form(answer.text)
    assert '<h1 id="settings-heading" tabindex="-1" autofocus dir="auto">' in answer.text
    assert answer.text.count("autofocus") == 1


def test_undo_from_a_stale_page_is_refused_and_changes_nothing(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    stale = client.get(f"/r/{roster_id}/edit").text  # version 2
    edit(client, roster_id, op="add_unit", preset="horse_archers")  # another tab: version 3
    answer = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": "2", "op": "undo",
        "undo_to": str(undo_target(stale))})
    assert answer.status_code == 409
    assert names(client, roster_id) == ["Knights", "Horse archers"]
    assert version_of(client, roster_id) == 3


def test_undo_to_a_version_no_longer_kept_says_so(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        session.exec(delete(Revision).where(  # type: ignore[call-overload]
            col(Revision.roster_id) == roster_id, col(Revision.version) == 2))
        session.commit()
    answer = undo(client, roster_id, None)
    assert answer.status_code == 422
    assert "Undo: version 2 is no longer kept" in answer.text
    assert names(client, roster_id) == ["Knights", "Horse archers"]


def test_undo_speaks_russian(client: TestClient) -> None:
    client.headers["Accept-Language"] = "ru"
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    assert "Отменить (вернуться к версии 1)" in client.get(f"/r/{roster_id}/edit").text
    undo(client, roster_id, None)
    refused = edit(client, roster_id, htmx=True, op="undo", undo_to="0")
    assert "Отменить: более ранней версии, к которой можно вернуться, нет" in refused.text


def test_a_change_that_changes_nothing_stores_no_version(client: TestClient) -> None:
    roster_id = create_army(client, name="Орда")
    edit(client, roster_id, op="add_unit", preset="knights")
    doc = document(client, roster_id)
    for htmx in (True, False):
        # Save pressed again; a unit's form sent as it stands.
        same = edit(client, roster_id, htmx=htmx, op="settings", name="Орда",
                    points_limit=str(doc["points_limit"]), nation=doc["nation"],
                    historical="on" if doc["historical"] else "", note=doc["note"])
        assert same.status_code in (200, 303), same.text[:300]
        unit = doc["units"][0]
        line = unit["lines"][0]
        same = edit(client, roster_id, htmx=htmx, op="update_unit", **unit_form(
            client, roster_id, 0, unit_name=unit["name"], figures_0=str(line["figures"]),
            troop_0=line["troop"], weapon_0=line["weapon"], unit_note=unit["note"],
            flags=unit["flags"][0]))
        assert same.status_code in (200, 303), same.text[:300]
    assert version_of(client, roster_id) == 2
    revisions = client.get(f"/api/v1/rosters/{roster_id}/revisions").json()
    assert [r["version"] for r in revisions] == [1, 2]
    # So the undo that follows takes back the unit, not nothing.
    undo(client, roster_id, None)
    assert names(client, roster_id) == []
