"""Health checks, the answer while the database is away, and the request log (in process).

The same behaviour on real servers — a database cut off and back, SIGTERM with a request in
flight — is in test_scale.py.
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.main import create_app
from app.storage.db import alembic_config, make_engine, migrate
from app.web.pages import DEVICE_COOKIE
from tests.helpers.databases import settings_for
from tests.helpers.documents import army
from tests.helpers.servers import free_port

ROSTERS = "/api/v1/rosters"


def script_heads() -> list[str]:
    return sorted(ScriptDirectory.from_config(alembic_config()).get_heads())


@pytest.fixture
def unreachable() -> Iterator[TestClient]:
    """The app pointed at a PostgreSQL port where nothing listens, not migrating on start."""
    url = f"postgresql+psycopg://muster@127.0.0.1:{free_port()}/muster"
    app = create_app(settings_for(url, migrate_on_start=False, db_connect_timeout=2))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def stored_revision(url: str) -> list[str]:
    engine = make_engine(settings_for(url))
    try:
        with engine.connect() as connection:
            return sorted(connection.execute(text("SELECT version_num FROM alembic_version"))
                          .scalars())
    finally:
        engine.dispose()


# ---------------------------------------------------------------- /healthz and /readyz

def test_healthz_answers_ok_without_touching_the_database(unreachable: TestClient) -> None:
    answer = unreachable.get("/healthz")
    assert answer.status_code == 200 and answer.json() == {"status": "ok"}


def test_healthz_answers_while_every_worker_thread_waits_for_a_stalled_database() -> None:
    # A database that accepts connections and never answers (a stalled host, a full
    # connection queue) holds every request that needs it in a worker thread. The process is
    # still up, so /healthz must say so at once rather than queue behind them: an orchestrator
    # would restart every server of a fleet whose database stalled.
    stalled = socket.socket()
    stalled.bind(("127.0.0.1", 0))
    stalled.listen(128)  # never accepted: the connection waits for a greeting that never comes
    url = f"postgresql+psycopg://muster@127.0.0.1:{stalled.getsockname()[1]}/muster"
    threads = 4
    app = create_app(settings_for(url, migrate_on_start=False, db_connect_timeout=5,
                                  db_pool_timeout=5, threads=threads))
    waiting_requests = 3 * threads
    try:
        with TestClient(app, raise_server_exceptions=False) as client, \
                ThreadPoolExecutor(max_workers=waiting_requests) as pool:
            # Share views of a browser with "my rosters" (a device cookie): each reads and
            # notes the roster in a worker thread.
            waiting = [pool.submit(client.get, f"/r/{'a' * 22}",
                                   headers={"Cookie": f"{DEVICE_COOKIE}=x"})
                       for _ in range(waiting_requests)]
            time.sleep(1)  # every worker thread is held by now, the other requests queue for one
            assert not any(w.done() for w in waiting)
            started = time.monotonic()
            answer = client.get("/healthz")
            assert answer.status_code == 200 and answer.json() == {"status": "ok"}
            assert time.monotonic() - started < 2
            stalled.close()  # the waiting connections are refused: their requests end
            assert {w.result(timeout=60).status_code for w in waiting} == {503}
    finally:
        stalled.close()


def test_readyz_reports_the_database_and_the_schema_revision_it_holds(
        client: TestClient) -> None:
    answer = client.get("/readyz")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    url = str(client.app.state.settings.db_url)  # type: ignore[attr-defined]
    assert body["status"] == "ready"
    assert body["database"] == {"backend": make_url(url).get_backend_name(), "reachable": True}
    assert body["migrations"]["current"] == stored_revision(url) == script_heads()
    assert body["migrations"]["at_head"] is True
    assert answer.headers["cache-control"] == "no-store"


def test_readyz_is_unavailable_until_the_schema_reaches_the_head_revision(
        database_url: str) -> None:
    app = create_app(settings_for(database_url, migrate_on_start=False))
    with TestClient(app) as client:
        empty = client.get("/readyz")
        assert empty.status_code == 503
        assert empty.json()["migrations"]["current"] == []
        assert "muster migrate" in empty.json()["problem"]

        head = ScriptDirectory.from_config(alembic_config()).get_revision("head")
        assert head is not None and isinstance(head.down_revision, str)
        engine = make_engine(settings_for(database_url))
        try:
            migrate(engine, head.down_revision)
            behind = client.get("/readyz")
            assert behind.status_code == 503
            assert behind.json()["migrations"] == {
                "current": [head.down_revision], "head": [head.revision], "at_head": False}
            migrate(engine)
        finally:
            engine.dispose()
        assert client.get("/readyz").status_code == 200


def test_readyz_steps_out_when_a_newer_release_has_migrated_the_database(
        client: TestClient) -> None:
    url = str(client.app.state.settings.db_url)  # type: ignore[attr-defined]
    engine = make_engine(settings_for(url))
    try:
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["migrations"]["current"] == ["9999"]
    assert "newer release" in answer.json()["problem"]


def test_readyz_is_unavailable_when_the_database_cannot_be_reached(
        unreachable: TestClient) -> None:
    answer = unreachable.get("/readyz")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "unavailable"
    assert body["database"] == {"backend": "postgresql", "reachable": False}
    assert "refused" in body["problem"].lower() or "connect" in body["problem"].lower()


# ---------------------------------------------------------------- the database away: 503

def test_api_requests_get_503_with_retry_after_when_the_database_is_down(
        unreachable: TestClient) -> None:
    for method, path, body in [("GET", f"{ROSTERS}/abc", None), ("POST", ROSTERS, army()),
                               ("GET", f"{ROSTERS}/abc/revisions", None)]:
        answer = unreachable.request(method, path, json=body)
        assert answer.status_code == 503, (method, path, answer.text)
        assert answer.headers["content-type"].startswith("application/json")
        assert int(answer.headers["retry-after"]) > 0
        assert "database" in answer.json()["message"].lower()


def test_the_api_says_so_in_russian_when_asked(unreachable: TestClient) -> None:
    answer = unreachable.get(f"{ROSTERS}/abc?lang=ru")
    assert answer.status_code == 503
    assert "База данных" in answer.json()["message"]


def test_pages_get_a_short_page_in_the_readers_language_when_the_database_is_down(
        unreachable: TestClient) -> None:
    english = unreachable.get("/r/abc")
    assert english.status_code == 503
    assert english.headers["content-type"].startswith("text/html")
    assert '<html lang="en">' in english.text and "Database unavailable" in english.text
    assert english.headers["x-request-id"] in english.text
    russian = unreachable.get("/r/abc", headers={"Accept-Language": "ru"})
    assert '<html lang="ru">' in russian.text and "База данных недоступна" in russian.text


def test_pages_that_need_no_database_still_work_while_it_is_down(
        unreachable: TestClient) -> None:
    assert unreachable.get("/about").status_code == 200
    assert unreachable.post("/api/v1/price", json=army()).status_code == 200


# ---------------------------------------------------------------- request ids and the log

def test_every_answer_carries_a_fresh_request_id(client: TestClient) -> None:
    ids = [client.get(path).headers["x-request-id"]
           for path in ("/healthz", "/healthz", "/no-such-page", f"{ROSTERS}/nope")]
    assert len(set(ids)) == 4
    assert all(re.fullmatch(r"[0-9a-f]{32}", rid) for rid in ids)


def test_a_sane_incoming_request_id_is_kept_and_echoed(client: TestClient) -> None:
    for rid in ("3f2b9c1e-5d4a-4e8b-9a7c-0d1e2f3a4b5c", "Root=1-67891233-abcdef012345678912345678",
                "lb.7:42"):
        assert client.get("/healthz", headers={"X-Request-ID": rid}).headers[
            "x-request-id"] == rid


@pytest.mark.parametrize("bad", ["", "two words", "x" * 129, "quote\"d", "semi;colon",
                                 "line\\nbreak"])
def test_an_unusable_incoming_request_id_is_replaced(client: TestClient, bad: str) -> None:
    echoed = client.get("/healthz", headers={"X-Request-ID": bad}).headers["x-request-id"]
    assert echoed != bad and re.fullmatch(r"[0-9a-f]{32}", echoed)


def access_lines(captured: str) -> list[str]:
    return [line for line in captured.splitlines() if "muster.access" in line]


def test_each_request_is_logged_once_with_its_id_method_path_status_and_duration(
        client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    created = client.post(ROSTERS, json=army(), headers={"X-Request-ID": "create-1"})
    missing = client.get(f"{ROSTERS}/nope")
    lines = access_lines(capsys.readouterr().err)
    assert len(lines) == 2, lines
    assert re.search(r" INFO muster\.access \[create-1\] POST /api/v1/rosters 201 [\d.]+ms$",
                     lines[0]), lines[0]
    rid = missing.headers["x-request-id"]
    assert re.search(rf"\[{rid}\] GET /api/v1/rosters/nope 404 [\d.]+ms$", lines[1]), lines[1]
    assert created.status_code == 201


def test_the_log_never_holds_the_query_string_where_edit_keys_travel(
        client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    created = client.post(ROSTERS, json=army()).json()
    capsys.readouterr()
    client.get(f"/r/{created['id']}/edit?key={created['edit_key']}", follow_redirects=False)
    captured = capsys.readouterr()
    assert access_lines(captured.err)
    assert created["edit_key"] not in captured.err + captured.out


def test_json_logs_are_one_object_a_line_with_the_request_fields(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = settings_for(f"sqlite:///{tmp_path / 'muster.db'}", log_format="JSON")
    with TestClient(create_app(settings)) as client:
        capsys.readouterr()
        answer = client.post(f"{ROSTERS}?lang=ru", json=army(), headers={"X-Request-ID": "j-1"})
        client.post(ROSTERS, content=b"{", headers={"Content-Type": "application/json"})
    entries = [json.loads(line) for line in capsys.readouterr().err.splitlines()
               if line.startswith("{")]
    requests = [e for e in entries if e["logger"] == "muster.access"]
    assert [(e["method"], e["path"], e["status"]) for e in requests] == [
        ("POST", ROSTERS, answer.status_code), ("POST", ROSTERS, 422)]
    assert requests[0]["request_id"] == "j-1" == answer.headers["x-request-id"]
    assert all(e["level"] == "INFO" and e["duration_ms"] >= 0 and e["time"].endswith("Z")
               for e in requests)


def test_a_log_format_other_than_plain_or_json_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="log_format"):
        settings_for("sqlite://", log_format="xml")
