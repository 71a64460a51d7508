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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, text
from sqlmodel import Session

from app.main import create_app
from app.services.creation_limit import CreationLimit, CreationRefused, client_key
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
            # Room for one more once the first of the three leaves the window, a window
            # length after it was made (a moment ago).
            assert WINDOW - 60 < int(refused.headers["retry-after"]) <= WINDOW
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
            assert client.post("/api/v1/rosters/import", content=b"\xff",
                               headers={"Content-Type": "application/json"}).status_code == 422
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
            # Room for one more once the first of the two leaves the window.
            assert WINDOW - 60 < int(refused.headers["retry-after"]) <= WINDOW
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


START = 1_000_000.0  # a time of the tests' choosing, in seconds since the epoch
CLIENT = "192.0.2.1"


def rows(session: Session) -> list[tuple[str, float]]:
    """The recorded creations: (client, seconds since the epoch)."""
    found = session.connection().execute(text(
        "SELECT client, created_ms FROM creation_log")).all()
    return sorted((str(client), int(created_ms) / 1000) for client, created_ms in found)


def admitted(limit: CreationLimit, session: Session, now: float) -> bool:
    try:
        limit.take(session, CLIENT, now=now)
    except CreationRefused:
        return False
    return True


def test_a_burst_at_a_windows_end_still_counts_at_the_next_ones_start(engine: Engine) -> None:
    # A fixed window admitted the limit again a moment later: twice the limit in a second.
    limit = CreationLimit(limit=5, window_seconds=100)
    with Session(engine) as session:
        for tenth in range(5):
            limit.take(session, CLIENT, now=START - 0.5 + tenth / 10)
        for offset in (0.0, 0.1, 10.0, 99.4):
            with pytest.raises(CreationRefused):
                limit.take(session, CLIENT, now=START + offset)
        # Each creation of the burst counts for one window length exactly, and then no more:
        # one place comes free as each leaves.
        assert admitted(limit, session, START + 99.5)
        assert not admitted(limit, session, START + 99.5)
        assert admitted(limit, session, START + 99.6)


def test_a_limit_of_60_in_600_s_holds_across_a_window_boundary(engine: Engine) -> None:
    # The review's case against the two-counter estimate: 60 creations 0.5 s before a boundary
    # of its fixed windows, and 59 more admitted 598 s after it, 119 within 598.5 s.
    limit = CreationLimit(limit=60, window_seconds=600)
    boundary = 600 * 1667.0
    with Session(engine) as session:
        for _ in range(60):
            limit.take(session, CLIENT, now=boundary - 0.5)
        with pytest.raises(CreationRefused) as refused:
            limit.take(session, CLIENT, now=boundary + 598)
        # The 60 leave the window at boundary + 599.5: in 1.5 s, rounded up.
        assert refused.value.retry_after == 2
        with pytest.raises(CreationRefused):
            limit.take(session, CLIENT, now=boundary + 598 + 1)
        granted = [admitted(limit, session, boundary + 598 + 2) for _ in range(61)]
        assert granted == [True] * 60 + [False]


def test_with_a_limit_of_1_retry_after_is_one_window_length(engine: Engine) -> None:
    # The two-counter estimate said 1199 s for a 600 s window, refused at +600, admitted only
    # at +1200.
    limit = CreationLimit(limit=1, window_seconds=600)
    boundary = 600 * 1667.0
    with Session(engine) as session:
        limit.take(session, CLIENT, now=boundary)
        with pytest.raises(CreationRefused) as refused:
            limit.take(session, CLIENT, now=boundary)
        assert refused.value.retry_after == 600
        with pytest.raises(CreationRefused) as refused:
            limit.take(session, CLIENT, now=boundary + 599)
        assert refused.value.retry_after == 1
        limit.take(session, CLIENT, now=boundary + 600)


def test_a_creation_leaves_the_window_exactly_one_window_length_after_it(
        engine: Engine) -> None:
    # The window is now − length < t ≤ now: the creation one millisecond short of a window
    # length ago still counts, the one exactly a window length ago no longer does.
    limit = CreationLimit(limit=1, window_seconds=100)
    with Session(engine) as session:
        limit.take(session, CLIENT, now=START + 0.25)
        with pytest.raises(CreationRefused) as refused:
            limit.take(session, CLIENT, now=START + 100.249)
        assert refused.value.retry_after == 1  # 1 ms, rounded up
        limit.take(session, CLIENT, now=START + 100.25)


@pytest.mark.parametrize(("per_window", "made", "asked", "retry_after"), [
    # A burst: the oldest of the three, at 99.0, leaves at 199.0, 98.9 s on (rounded up).
    (3, [99.0, 99.5, 99.9], 100.1, 99),
    # Two made some time ago: the first leaves at 110.
    (2, [10, 20], 30.5, 80),
    # Four: at 110 and 120 the first two were still in the window beside them; the first
    # leaves at 150, 20 s on (exactly: admitted at that second, not before).
    (4, [50, 60, 110, 120], 130, 20),
    # The window full again after one left: 50 and 150 are in it until 190.
    (2, [50, 90, 150], 160, 30),
    # A limit of 1: its one creation weighs for a whole window length, and no more.
    (1, [50], 60, 90),
    # Fractions of seconds: 0.25 leaves at 100.25, 99.25 s on, so 100 whole seconds.
    (2, [0.25, 0.75], 1.0, 100),
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


def test_after_the_limit_is_lowered_retry_after_waits_for_enough_creations_to_leave(
        engine: Engine) -> None:
    with Session(engine) as session:
        for offset in (10, 20, 30, 40):
            CreationLimit(limit=5, window_seconds=100).take(session, CLIENT, now=START + offset)
        lowered = CreationLimit(limit=3, window_seconds=100)
        # Four in the window, room under 3 once two have left: the second leaves at 120.
        with pytest.raises(CreationRefused) as refused:
            lowered.take(session, CLIENT, now=START + 50)
        assert refused.value.retry_after == 70
        with pytest.raises(CreationRefused):
            lowered.take(session, CLIENT, now=START + 119.999)
        lowered.take(session, CLIENT, now=START + 120)


def test_only_the_creations_in_the_window_are_kept(engine: Engine) -> None:
    limit = CreationLimit(limit=2, window_seconds=100)
    with Session(engine) as session:
        # Another address's creation, long past (or recorded under a longer window length,
        # before a settings change): cleared at an address's first creation after a quiet
        # window.
        session.connection().execute(text(
            "INSERT INTO creation_log (client, created_ms) VALUES ('192.0.2.9', :ms)"),
            {"ms": int((START - 1000) * 1000)})
        session.commit()
        limit.take(session, CLIENT, now=START + 10)
        assert rows(session) == [(CLIENT, START + 10)]
        limit.take(session, CLIENT, now=START + 20)
        limit.take(session, "192.0.2.2", now=START + 40)  # someone else
        limit.take(session, CLIENT, now=START + 110)  # 10 has left: room for one
        assert rows(session) == [(CLIENT, START + 20), (CLIENT, START + 110),
                                 ("192.0.2.2", START + 40)]
        for _ in range(5):  # refused, and not recorded
            with pytest.raises(CreationRefused):
                limit.take(session, CLIENT, now=START + 111)
        assert rows(session) == [(CLIENT, START + 20), (CLIENT, START + 110),
                                 ("192.0.2.2", START + 40)]
        # A client's creations that left the window go as it creates again.
        limit.take(session, CLIENT, now=START + 120.5)
        assert rows(session) == [(CLIENT, START + 110), (CLIENT, START + 120.5),
                                 ("192.0.2.2", START + 40)]
        # Every creation that left the window goes at an address's first after a quiet one.
        limit.take(session, "192.0.2.3", now=START + 300)
        assert rows(session) == [("192.0.2.3", START + 300)]


def test_storage_stays_bounded_over_many_windows(engine: Engine) -> None:
    limit = CreationLimit(limit=3, window_seconds=100)
    with Session(engine) as session:
        # Passers-by: one creation each, then nothing.
        for n in range(20):
            limit.take(session, f"198.51.100.{n}", now=START + n)
        # Two steady clients trying every few seconds for ten windows.
        steady = ("192.0.2.1", "192.0.2.2")
        made = 0
        for second in range(0, 1000, 5):
            for client in steady:
                try:
                    limit.take(session, client, now=START + 100 + second)
                    made += 1
                except CreationRefused:
                    pass
                kept = [c for c, _ in rows(session) if c == client]
                assert len(kept) <= 3
        assert made == 2 * 3 * 10  # the limit in each of the ten windows, no more
        # A newcomer's first creation clears the passers-by, long gone from the window.
        assert len(rows(session)) > 2 * 3
        limit.take(session, "203.0.113.1", now=START + 1050)
        assert sorted(c for c, _ in rows(session)) == [*sorted(steady * 3), "203.0.113.1"]


def test_racing_sessions_never_take_more_than_the_limit(engine: Engine) -> None:
    # Every racer finds room in the read without a lock; the write transaction, serialised
    # per client, admits exactly the limit.
    limit = CreationLimit(limit=5, window_seconds=100)

    def race(_: int) -> bool:
        with Session(engine) as own:
            return admitted(limit, own, START)

    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(race, range(24)))
    assert sorted(answers) == [False] * 19 + [True] * 5
    with Session(engine) as session:
        assert rows(session) == [(CLIENT, START)] * 5


# Attempts in the property test: a pause (milliseconds), or, after a refusal, a retry at the
# second Retry-After names, or one second before it.
Attempt = tuple[str, int]
attempts = st.lists(st.one_of(
    st.tuples(st.just("pause"), st.integers(0, 2500)),
    st.tuples(st.just("pause"), st.sampled_from([0, 1, 999, 1000, 1001, 3000, 4000])),
    st.tuples(st.just("retry"), st.sampled_from([0, -1]))), min_size=1, max_size=40)


@settings(max_examples=50, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(per_window=st.integers(1, 4), window_seconds=st.integers(1, 4), plan=attempts)
def test_every_decision_and_retry_after_match_a_brute_force_sliding_window(
        engine: Engine, per_window: int, window_seconds: int, plan: list[Attempt]) -> None:
    limit = CreationLimit(limit=per_window, window_seconds=window_seconds)
    window_ms = window_seconds * 1000

    def in_window(made: list[int], now_ms: int) -> int:
        return sum(now_ms - window_ms < t <= now_ms for t in made)

    with Session(engine) as session:
        session.connection().execute(text("DELETE FROM creation_log"))
        session.commit()
        made: list[int] = []  # the model: times (ms) of the admitted creations
        now_ms = int(START * 1000)
        retry_after: int | None = None  # of the last refusal
        for kind, value in plan:
            if kind == "pause":
                now_ms += value
            elif retry_after is not None:
                now_ms += (retry_after + value) * 1000
            expected = in_window(made, now_ms) < per_window
            try:
                limit.take(session, CLIENT, now=now_ms / 1000)
                was_admitted = True
            except CreationRefused as refused:
                was_admitted = False
                wait = refused.retry_after
                # Exactly the first whole second at which the model admits one more, if
                # nothing is created meanwhile.
                assert wait >= 1
                assert in_window(made, now_ms + wait * 1000) < per_window
                assert wait == 1 or in_window(made, now_ms + (wait - 1) * 1000) >= per_window
            assert was_admitted == expected
            if was_admitted:
                made.append(now_ms)
                retry_after = None
            else:
                retry_after = wait
            # Storage: never more than the limit; after an admission, exactly the window.
            kept = [t for _, t in rows(session)]
            assert len(kept) <= per_window
            if was_admitted:
                assert kept == sorted(t / 1000 for t in made if t > now_ms - window_ms)


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
