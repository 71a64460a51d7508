"""A roster is stored only if it can be sent back: read and PUT again, exported and imported
again, within the request body limit. The stored document writes every field out, so it is
larger than a body that left defaults out."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.helpers.databases import app_database, settings_for, sqlite_url

# The app is on the database MUSTER_TEST_BACKEND names (app_database).
pytestmark = pytest.mark.app_backend
LIMIT = 8192  # bytes a request may carry here


@pytest.fixture
def small(tmp_path: Path) -> Iterator[TestClient]:
    with app_database(tmp_path) as url, TestClient(
            create_app(settings_for(url, max_body_bytes=LIMIT))) as client:
        yield client


def roster(units: int) -> dict[str, Any]:
    return {"name": "x", "ruleset": "chainmail", "nation": "generic",
            "units": [{"lines": [{"troop": "peasant", "figures": 1}]} for _ in range(units)]}


def test_a_roster_too_large_to_send_back_is_refused_and_nothing_is_stored(
        small: TestClient) -> None:
    big = roster(70)  # 3 KB sent; 7.8 KB once every field is written out
    assert len(json.dumps(big)) < LIMIT
    answer = small.post("/api/v1/rosters", json=big)
    assert answer.status_code == 413 and "could not be sent back" in answer.json()["message"]
    imported = small.post("/api/v1/rosters/import", json=big)
    assert imported.status_code == 413


def test_every_roster_stored_comes_back_within_the_limit(small: TestClient) -> None:
    created = small.post("/api/v1/rosters", json=roster(50)).json()  # 6.6 KB stored
    read = small.get(f"/api/v1/rosters/{created['id']}").json()["document"]
    again = small.put(f"/api/v1/rosters/{created['id']}", json=read, headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v1"'})
    assert again.status_code == 200
    exported = small.get(f"/api/v1/rosters/{created['id']}/export.json").content
    assert small.post("/api/v1/rosters/import", content=exported,
                      headers={"Content-Type": "application/json"}).status_code == 201
    # A change that would grow it past that is refused, and the roster stays as it was.
    grown = small.put(f"/api/v1/rosters/{created['id']}", json=roster(70), headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v2"'})
    assert grown.status_code == 413
    assert small.get(f"/api/v1/rosters/{created['id']}").json()["version"] == 2


def test_the_editor_refuses_the_unit_that_would_make_it_too_large(small: TestClient) -> None:
    created = small.post("/api/v1/rosters", json=roster(52)).json()  # 6.9 KB stored
    roster_id = created["id"]
    small.get(f"/r/{roster_id}/edit?key={created['edit_key']}")
    added = 0
    answer = None
    for _ in range(10):
        version = small.get(f"/api/v1/rosters/{roster_id}").json()["version"]
        answer = small.post(f"/r/{roster_id}/edit", headers={"HX-Request": "true"}, data={
            "csrf": small.cookies.get("muster_csrf"), "version": str(version),
            "system": "chainmail", "op": "add_unit", "figures": "1", "troop": "peasant",
            "weapon": "none"})
        if answer.status_code != 200:
            break
        added += 1
    assert answer is not None and answer.status_code == 422 and 0 < added < 10
    assert "too large to store" in answer.text
    units = small.get(f"/api/v1/rosters/{roster_id}").json()["document"]["units"]
    assert len(units) == 52 + added


@pytest.fixture
def few_revisions(tmp_path: Path) -> Iterator[TestClient]:
    with app_database(tmp_path) as url, TestClient(
            create_app(settings_for(url, max_revisions=8))) as client:
        yield client


def changed_again(client: TestClient, changes: int) -> str:
    """A new roster, changed `changes` times with its key (version n named "v<n>"); its path."""
    created = client.post("/api/v1/rosters", json=roster(3)).json()
    path = f"/api/v1/rosters/{created['id']}"
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    for version in range(1, changes + 1):
        answer = client.put(path, json={**roster(3), "name": f"v{version + 1}"},
                            headers={**key, "If-Match": f'"v{version}"'})
        assert answer.status_code == 200
    return path


def test_only_the_latest_revisions_are_kept(few_revisions: TestClient) -> None:
    # Every change stores a revision; without a bound, changing one large roster again and
    # again filled the disk (62 MB in 100 changes of a 700 KB roster).
    client = few_revisions
    path = changed_again(client, 40)
    kept = [r["version"] for r in client.get(f"{path}/revisions").json()]
    assert kept[-1] == 41 and kept == list(range(kept[0], 42))  # the latest, none missing
    assert 8 <= len(kept) <= 10  # pruned every second version (a quarter of 8)
    assert client.get(f"{path}/revisions/1").status_code == 404
    assert client.get(f"{path}/revisions/41").json()["document"]["name"] == "v41"


def test_on_sqlite_revisions_are_pruned_in_the_changes_own_transaction(tmp_path: Path) -> None:
    # Pruning is a statement of the change that makes one revision too many, committed with it
    # (and with whatever else its batch holds): no turn at the file and flush of its own.
    from sqlalchemy import event

    statements: list[str] = []
    with TestClient(create_app(settings_for(sqlite_url(tmp_path), max_revisions=8))) as client:
        event.listen(client.app.state.engine, "checkout",  # type: ignore[attr-defined]
                     lambda driver, *_: driver.set_trace_callback(statements.append))
        path = changed_again(client, 10)
        kept = [r["version"] for r in client.get(f"{path}/revisions").json()]
    assert kept == list(range(3, 12))  # version 10 pruned up to 2, version 11 kept 9
    prunes = [i for i, sql in enumerate(statements) if sql.startswith("DELETE FROM revision")]
    assert len(prunes) == 1
    begin = max(i for i in range(prunes[0]) if statements[i].startswith("BEGIN"))
    commit = min(i for i in range(prunes[0], len(statements))
                 if statements[i].startswith("COMMIT"))
    between = [sql.split()[0] for sql in statements[begin:commit + 1]]
    assert between[0] == "BEGIN" and between[-1] == "COMMIT"
    assert {"UPDATE", "INSERT", "DELETE"} <= set(between), between


def test_the_refusal_speaks_russian_when_asked(small: TestClient) -> None:
    answer = small.post("/api/v1/rosters?lang=ru", json=roster(70))
    assert answer.status_code == 413
    assert answer.json()["message"].startswith("армия заняла бы ")
