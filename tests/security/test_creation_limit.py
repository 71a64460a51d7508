"""The creation limit: rosters per client address and window, for the API and the pages, held
in the database so that it binds every server process."""

from __future__ import annotations

import concurrent.futures
import json
import re
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.main import create_app
from app.ratelimit import CreationLimit, CreationRefused, client_key
from tests.helpers.databases import database, settings_for, sqlite_url
from tests.helpers.documents import army
from tests.helpers.servers import running_server
from tests.security.conftest import AppFactory, stored_rosters

WINDOW = 600


def csrf_of(client: TestClient) -> str:
    client.get("/")
    return str(client.cookies["muster_csrf"])


def create(client: TestClient) -> httpx.Response:
    return client.post("/api/v1/rosters", json=army())


def import_(client: TestClient) -> httpx.Response:
    return client.post("/api/v1/rosters/import", json=army("Импорт"))


def test_the_api_refuses_the_creation_over_the_limit_with_429_and_retry_after(
        app_with: AppFactory) -> None:
    with app_with(creation_limit=3, creation_window_seconds=WINDOW) as client:
        original = create(client).json()["id"]
        assert import_(client).status_code == 201
        assert client.post(f"/api/v1/rosters/{original}/copy").status_code == 201
        before = stored_rosters(client)
        for refused in (create(client), import_(client),
                        client.post(f"/api/v1/rosters/{original}/copy")):
            assert refused.status_code == 429
            assert 0 < int(refused.headers["retry-after"]) <= WINDOW
            assert "Too many new rosters" in refused.json()["detail"]
        assert stored_rosters(client) == before
        russian = client.post("/api/v1/rosters?lang=ru", json=army())
        assert "Слишком много новых армий" in russian.json()["detail"]
        # Reading, pricing and changing are not creations.
        assert client.get(f"/api/v1/rosters/{original}").status_code == 200
        assert client.post("/api/v1/price", json=army()).status_code == 200


def test_refused_documents_and_missing_originals_do_not_use_up_the_limit(
        app_with: AppFactory) -> None:
    with app_with(creation_limit=1) as client:
        for _ in range(5):
            assert client.post("/api/v1/rosters", json={"ruleset": "chainmail",
                                                        "name": 5}).status_code == 422
            assert client.post("/api/v1/rosters/import", content=b"\xff").status_code == 422
            assert client.post("/api/v1/rosters/nosuchroster/copy").status_code == 404
        assert create(client).status_code == 201
        assert create(client).status_code == 429


def test_the_pages_refuse_creating_importing_and_copying_over_the_limit(
        app_with: AppFactory) -> None:
    with app_with(creation_limit=2) as client:
        token = csrf_of(client)
        made = client.post("/rosters/new", data={"csrf": token, "name": "Орда",
                                                 "ruleset": "chainmail", "nation": "mongols",
                                                 "points_limit": "300"},
                           follow_redirects=False)
        assert made.status_code == 303
        roster_id = made.headers["location"].split("/")[2]
        assert client.post(f"/r/{roster_id}/copy", data={"csrf": token},
                           follow_redirects=False).status_code == 303
        before = stored_rosters(client)
        exported = client.get(f"/api/v1/rosters/{roster_id}/export.json").content
        client.cookies.set("lang", "ru")
        for refused in (
                client.post("/rosters/new", data={"csrf": token, "name": "Ещё",
                                                  "ruleset": "chainmail", "nation": "mongols"}),
                client.post("/rosters/import", data={"csrf": token},
                            files={"file": ("army.json", exported, "application/json")}),
                client.post(f"/r/{roster_id}/copy", data={"csrf": token})):
            assert refused.status_code == 429
            assert 0 < int(refused.headers["retry-after"]) <= 600
            assert "Слишком много новых армий" in refused.text
            assert refused.headers["content-type"].startswith("text/html")
        assert stored_rosters(client) == before


def test_each_address_has_a_budget_of_its_own(app_with: AppFactory, tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    with app_with(creation_limit=1, client=("192.0.2.10", 4000), database_url=url) as first:
        assert create(first).status_code == 201
        assert create(first).status_code == 429
    with app_with(creation_limit=1, client=("192.0.2.11", 4000), database_url=url) as second:
        assert create(second).status_code == 201


def test_ipv6_clients_are_counted_by_their_64_network() -> None:
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::9") \
        == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key(None) == "unknown"


def test_x_forwarded_for_is_ignored_unless_the_peer_is_a_trusted_proxy(
        app_with: AppFactory, tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    spoofed = {"X-Forwarded-For": "198.51.100.1"}
    with app_with(creation_limit=1, client=("192.0.2.50", 1), database_url=url) as direct:
        assert direct.post("/api/v1/rosters", json=army(), headers=spoofed).status_code == 201
        # A different X-Forwarded-For is no way around the limit of the real address.
        again = direct.post("/api/v1/rosters", json=army(),
                            headers={"X-Forwarded-For": "198.51.100.2"})
        assert again.status_code == 429
    with app_with(creation_limit=1, client=("10.0.0.5", 1), database_url=url,
                  trusted_proxies="10.0.0.0/8") as proxied:
        for address in ("203.0.113.1", "203.0.113.2"):
            # The proxy appends the address it saw; anything a client put before it is not
            # believed.
            forwarded = {"X-Forwarded-For": f"198.51.100.99, {address}"}
            assert proxied.post("/api/v1/rosters", json=army(),
                                headers=forwarded).status_code == 201
        refused = proxied.post("/api/v1/rosters", json=army(),
                               headers={"X-Forwarded-For": "1.2.3.4, 203.0.113.1"})
        assert refused.status_code == 429


def test_a_mistyped_trusted_proxy_stops_the_app_from_starting(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="MUSTER_TRUSTED_PROXIES: '10.0.0.300'"):
        create_app(settings_for(sqlite_url(tmp_path), trusted_proxies="10.0.0.1, 10.0.0.300"))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_window_resets_and_retry_after_counts_down_to_its_end(
        backend: str, tmp_path: Path) -> None:
    from app.db import make_engine, migrate

    with database(backend, tmp_path) as url:
        engine = make_engine(settings_for(url))
        migrate(engine)
        try:
            limit = CreationLimit(limit=2, window_seconds=100)
            start = 1_000_000.0  # a window boundary: 10 000 × 100 s
            with Session(engine) as session:
                limit.take(session, "192.0.2.1", now=start + 10)
                limit.take(session, "192.0.2.1", now=start + 20)
                with pytest.raises(CreationRefused) as refused:
                    limit.take(session, "192.0.2.1", now=start + 30.5)
                assert refused.value.retry_after == 70
                limit.take(session, "192.0.2.2", now=start + 40)  # someone else
                limit.take(session, "192.0.2.1", now=start + 100)  # the next window
                limit.take(session, "192.0.2.1", now=start + 150)
                with pytest.raises(CreationRefused):
                    limit.take(session, "192.0.2.1", now=start + 199)
                rows = session.connection().execute(text(
                    "SELECT client, window_index, count FROM creation_window")).all()
            # Counts of past windows are cleared; only the current one is kept.
            assert sorted(tuple(r) for r in rows) == [("192.0.2.1", 10_001, 3)]
        finally:
            engine.dispose()


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_limit_holds_across_two_server_processes_on_one_database(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTER_CREATION_LIMIT", "5")
    body = json.dumps(army()).encode()
    with database(backend, tmp_path) as url, \
            running_server(url, tmp_path) as one, running_server(url, tmp_path) as two:

        def post(n: int) -> int:
            server = (one, two)[n % 2]
            return httpx.post(f"{server.url}/api/v1/rosters", content=body, timeout=30,
                              headers={"Content-Type": "application/json"}).status_code

        with concurrent.futures.ThreadPoolExecutor(max_workers=12) as pool:
            answers = list(pool.map(post, range(16)))
    assert sorted(answers) == [201] * 5 + [429] * 11
    for server in (one, two):
        assert not re.search(r"Traceback|ERROR", server.log.read_text(errors="replace"))
