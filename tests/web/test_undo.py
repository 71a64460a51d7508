"""Undo in the editor: an earlier version's document stored again as the next version, going
further back at each press, after any change back to the version before it, with htmx and
with a plain form."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlmodel import Session, col

from app.models import Revision
from tests.web.test_pages import HX, create_army, document, edit, version_of


def names(client: TestClient, roster_id: str) -> list[str]:
    return [unit["name"] for unit in document(client, roster_id)["units"]]


def undo_form(html: str) -> str:
    found = re.search(r'<form id="undo".*?</form>', html, re.S)
    assert found, "the editor draws the undo form"
    return found.group(0)


def undo_target(html: str) -> int:
    found = re.search(r'name="undo_to" value="(-?\d+)"', undo_form(html))
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
    assert answer.status_code == 200 and answer.headers["HX-Retarget"] == "#editor"
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
    changed = edit(client, roster_id, htmx=True, op="update_unit", unit="0",
                   unit_name="Рыцари", figures_0="7", troop_0="heavy_horse", weapon_0="lance")
    assert changed.status_code == 200 and "HX-Retarget" not in changed.headers
    assert 'id="undo" ' in changed.text and 'hx-swap-oob="true"' in undo_form(changed.text)
    assert undo_target(changed.text) == 4
    undo(client, roster_id, changed.text)
    assert names(client, roster_id) == ["Knights"]


def test_undo_with_a_plain_form_redirects_to_the_editor(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    answer = undo(client, roster_id, None, htmx=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/r/{roster_id}/edit"
    assert names(client, roster_id) == []


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
    assert "Отмена: более ранней версии, к которой можно вернуться, нет" in refused.text
