"""Addresses an attacker writes: ids that cannot exist, keys of deleted rosters, edit links
pasted where a share link belongs, and the key on a page a cache might keep."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.test_pages import csrf_of


@pytest.mark.parametrize("raw", ["%00", "a%00b", "a%20b", "x" * 65, "%E2%80%8B"])
def test_an_id_that_cannot_exist_is_missing_on_every_page_not_an_error(
        client: TestClient, raw: str) -> None:
    # On PostgreSQL a NUL reached the database as an error: a 503 for the share view (and for
    # every view read together with it), a 500 for the editor.
    for method, path in (("GET", f"/r/{raw}"), ("GET", f"/r/{raw}/edit"),
                         ("GET", f"/r/{raw}/edit?key=x"), ("POST", f"/r/{raw}/copy"),
                         ("POST", f"/r/{raw}/link"), ("POST", f"/r/{raw}/edit")):
        data = {"csrf": csrf_of(client)} if method == "POST" else None
        answer = client.request(method, path, data=data)
        assert answer.status_code == 404, (method, path, answer.status_code)
        assert "There is no roster at this address." in answer.text
    client.cookies.set("muster_device", "whatever")
    assert client.get(f"/r/{raw}").status_code == 404


def test_the_edit_link_of_a_deleted_roster_says_so_and_stores_nothing(
        client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Gone", "ruleset": "chainmail", "nation": "generic", "units": []}).json()
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    assert client.delete(f"/api/v1/rosters/{created['id']}", headers=key).status_code == 204
    answer = client.get(f"/r/{created['id']}/edit?key={created['edit_key']}",
                        follow_redirects=False)
    assert answer.status_code == 410 and "This roster was deleted." in answer.text
    assert "muster_device" not in answer.cookies
    restored = client.post(f"/api/v1/rosters/{created['id']}/restore", headers=key)
    assert restored.status_code == 200


def test_no_cache_keeps_the_editor_that_shows_the_key(client: TestClient) -> None:
    created = client.post("/rosters/new", data={
        "csrf": csrf_of(client), "name": "Keyed", "nation": "generic", "points_limit": "300",
        "ruleset": "chainmail"}, follow_redirects=False)
    editor = client.get(created.headers["location"])
    assert 'id="edit-link"' in editor.text and "?key=" in editor.text
    assert editor.headers["cache-control"] == "no-store"


def test_an_edit_link_pasted_into_the_calculator_leaves_the_address_at_once(
        client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Pikes", "ruleset": "formation_density", "units": []}).json()
    link = f"http://testserver/r/{created['id']}/edit?key={created['edit_key']}"
    answer = client.get("/calc/melee", params={"add": link, "a": ""}, follow_redirects=False)
    assert answer.status_code == 303
    assert created["edit_key"] not in answer.headers["location"]
    assert f"roster={created['id']}" in answer.headers["location"]
    page = client.get(answer.headers["location"]).text
    assert created["edit_key"] not in page


@pytest.mark.parametrize("query", ["%00", "%00%00%00", "Ор%00да", "орда%00"])
def test_a_search_with_a_nul_finds_as_without_it_on_every_database(
        api: TestClient, query: str) -> None:
    # PostgreSQL's text cannot hold NUL: a search with one was a 500. Searched text is cleaned
    # as names are when they are stored.
    created = api.post("/api/v1/rosters", json={
        "name": "Орда", "ruleset": "chainmail", "nation": "generic", "units": []}).json()
    opened = api.get(f"/r/{created['id']}/edit?key={created['edit_key']}")
    assert opened.status_code == 200
    found = api.get(f"/?q={query}")
    assert found.status_code == 200
    assert f"/r/{created['id']}/edit" in found.text
