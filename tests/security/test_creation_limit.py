"""The creation limit: rosters per client address in a sliding window, for the API and the
pages, held in the database so that it binds every server process."""

from __future__ import annotations

import concurrent.futures
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlmodel import Session

from app.main import create_app
from app.ratelimit import CreationLimit, CreationRefused, client_key
from tests.helpers.databases import database, settings_for, sqlite_url
from tests.helpers.documents import army
from tests.helpers.servers import running_server
from tests.security.conftest import AppFactory, stored_rosters

WINDOW = 600
SMALL_BODY = 8192  # bytes a request may carry, in the tests of documents too large to store


def csrf_of(client: TestClient) -> str:
    client.get("/")
    return str(client.cookies["muster_csrf"])


def create(client: TestClient) -> httpx.Response:
    return client.post("/api/v1/rosters", json=army())


def import_(client: TestClient) -> httpx.Response:
    return client.post("/api/v1/rosters/import", json=army("Импорт"))


def too_large() -> dict[str, Any]:
    """3 KB sent, 7.8 KB once stored with every field written out: over SMALL_BODY less the
    export's envelope (as in tests/web/test_stored_size.py)."""
    return {"name": "x", "ruleset": "chainmail", "nation": "generic",
            "units": [{"lines": [{"troop": "peasant", "figures": 1}]} for _ in range(70)]}


def upload(client: TestClient, document: dict[str, Any]) -> httpx.Response:
    """The home page's import form, sending `document` as the file."""
    return client.post("/rosters/import", data={"csrf": csrf_of(client)},
                       files={"file": ("army.json", json.dumps(document).encode(),
                                       "application/json")},
                       follow_redirects=False)


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
            # Three made at once in this window weigh 3 × (1 − elapsed share) in the next:
            # room for one more a third into it, whenever in this one they were made.
            assert WINDOW // 3 < int(refused.headers["retry-after"]) <= WINDOW + WINDOW // 3
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
            # Two made at once: room for one more halfway into the next window.
            assert WINDOW // 2 < int(refused.headers["retry-after"]) <= WINDOW + WINDOW // 2
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


def test_documents_too_large_to_store_do_not_use_up_the_api_limit(
        app_with: AppFactory) -> None:
    with app_with(creation_limit=3, max_body_bytes=SMALL_BODY) as client:
        for _ in range(5):
            assert client.post("/api/v1/rosters/import", json=too_large()).status_code == 413
            assert client.post("/api/v1/rosters", json=too_large()).status_code == 413
        assert stored_rosters(client) == 0
        assert [create(client).status_code, import_(client).status_code,
                create(client).status_code, create(client).status_code] == [201] * 3 + [429]


def test_files_too_large_to_store_do_not_use_up_the_pages_limit(app_with: AppFactory) -> None:
    with app_with(creation_limit=2, max_body_bytes=SMALL_BODY) as client:
        for _ in range(4):
            refused = upload(client, too_large())
            assert refused.status_code == 413 and "too large to store" in refused.text
        assert stored_rosters(client) == 0
        assert upload(client, army()).status_code == 303
        made = client.post("/rosters/new", data={"csrf": csrf_of(client), "name": "Орда",
                                                 "ruleset": "chainmail", "nation": "mongols"},
                           follow_redirects=False)
        assert made.status_code == 303
        over = upload(client, army())
        assert over.status_code == 429 and "Too many new rosters" in over.text


START = 1_000_000.0  # a window boundary: 10 000 × 100 s
CLIENT = "192.0.2.1"


def counts(session: Session) -> list[tuple[str, int, int]]:
    rows = session.connection().execute(text(
        "SELECT client, window_index, count FROM creation_window")).all()
    return sorted((str(client), int(index), int(count)) for client, index, count in rows)


def test_a_burst_at_a_windows_end_still_counts_at_the_next_ones_start(engine: Engine) -> None:
    # A fixed window admitted the limit again a moment later: twice the limit in a second.
    limit = CreationLimit(limit=5, window_seconds=100)
    with Session(engine) as session:
        for tenth in range(5):
            limit.take(session, CLIENT, now=START - 0.5 + tenth / 10)
        for offset in (0.0, 0.1, 10.0):
            with pytest.raises(CreationRefused):
                limit.take(session, CLIENT, now=START + offset)
        # The burst's weight falls as the window slides past it: 5 × 80/100 + 1 ≤ 5.
        limit.take(session, CLIENT, now=START + 20)


@pytest.mark.parametrize(("per_window", "made", "asked", "retry_after"), [
    # Mostly the previous window: its burst, made at its end, weighs 3 × 99.9/100 just after
    # it, and falls to 2 (room for one more) 99.9 − 200/3 = 33.2 s later.
    (3, [99.0, 99.5, 99.9], 100.1, 34),
    # The current window alone: its 2 weigh in the next as the previous count, 2 × (1 − share)
    # + 1 ≤ 2 half-way into it: 69.5 s to this window's end, and 50 s more.
    (2, [10, 20], 30.5, 120),
    # Both: the previous window's 2 weigh 2 × 70/100 beside this one's 2; room for one more
    # when they weigh 1, 20 s on (exactly: admitted at that second, not before).
    (4, [50, 60, 110, 120], 130, 20),
    # This window full on its own (1 + the previous 1 × 0.4): room at its end, 40 s on.
    (2, [90, 150], 160, 40),
    # A limit of 1: this window's creation weighs on until the next window has passed whole.
    (1, [50], 60, 140),
])
def test_retry_after_is_the_wait_until_a_creation_is_admitted(
        engine: Engine, per_window: int, made: list[float], asked: float, retry_after: int) -> None:
    limit = CreationLimit(limit=per_window, window_seconds=100)
    with Session(engine) as session:
        for offset in made:
            limit.take(session, CLIENT, now=START + offset)
        # Asked again before its time, it counts down; trying again costs nothing.
        for early in (0, 1, retry_after // 2, retry_after - 1):
            with pytest.raises(CreationRefused) as refused:
                limit.take(session, CLIENT, now=START + asked + early)
            assert refused.value.retry_after == retry_after - early
        limit.take(session, CLIENT, now=START + asked + retry_after)


def test_the_current_and_the_previous_windows_counts_are_kept(engine: Engine) -> None:
    limit = CreationLimit(limit=2, window_seconds=100)
    with Session(engine) as session:
        # A count numbered under another window length (1000 s), before a settings change:
        # cleared at the first count of a window.
        session.connection().execute(text(
            "INSERT INTO creation_window (client, window_index, count) "
            "VALUES ('192.0.2.9', 1000, 1)"))
        session.commit()
        limit.take(session, CLIENT, now=START + 10)
        assert counts(session) == [(CLIENT, 10_000, 1)]
        limit.take(session, CLIENT, now=START + 20)
        limit.take(session, "192.0.2.2", now=START + 40)  # someone else
        limit.take(session, CLIENT, now=START + 190)  # the next window: 2 × 10/100 + 1 ≤ 2
        for _ in range(5):  # refused, and not counted
            with pytest.raises(CreationRefused):
                limit.take(session, CLIENT, now=START + 191)
        assert counts(session) == [(CLIENT, 10_000, 2), (CLIENT, 10_001, 1),
                                   ("192.0.2.2", 10_000, 1)]
        limit.take(session, CLIENT, now=START + 250)  # window 10 002: 1 × 50/100 + 1 ≤ 2
        # Counts of windows before the previous one are cleared.
        assert counts(session) == [(CLIENT, 10_001, 1), (CLIENT, 10_002, 1)]


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
