"""On PostgreSQL the editor's change from the version a worker keeps is written on the event
loop (app/loop_writes.py): its answers, its pruning, and a database that goes away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import exc, text
from sqlmodel import Session

from app.async_reads import reads_for
from app.db import make_engine
from app.loop_writes import PostgresWrites, writes_for
from app.main import create_app
from app.routes.pages import LOOP_UNITS
from app.services import get_roster, replace_roster
from tests.helpers.databases import _libpq, fresh_schema, settings_for, sqlite_url
from tests.helpers.loops import run_apart
from tests.helpers.servers import free_port
from tests.web.test_pages import HX, create_army, document, edit, version_of


@pytest.fixture
def on_postgres() -> Iterator[TestClient]:
    with fresh_schema() as url, TestClient(
            create_app(settings_for(url, max_revisions=8))) as client:
        yield client


def writes_of(client: TestClient) -> PostgresWrites:
    writes = client.app.state.loop_writes  # type: ignore[attr-defined]
    assert isinstance(writes, PostgresWrites)
    return writes


def change(client: TestClient, roster_id: str, figures: int) -> object:
    return edit(client, roster_id, htmx=True, op="update_unit", unit="0",
                figures_0=str(figures), troop_0="light_horse", weapon_0="composite_bow")


def figures(client: TestClient, roster_id: str) -> int:
    return document(client, roster_id)["units"][0]["lines"][0]["figures"]


def test_sqlite_has_no_writes_on_the_event_loop(tmp_path: Path) -> None:
    # Its writers take turns at the file; one waiting for its turn must not wait on the loop.
    settings = settings_for(sqlite_url(tmp_path))
    assert writes_for(reads_for(make_engine(settings), settings), settings) is None


def test_a_change_from_the_kept_version_is_written_on_the_event_loop_and_answered_as_ever(
        on_postgres: TestClient) -> None:
    client = on_postgres
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")  # the long way: now kept
    before = writes_of(client).pool.get_stats().get("requests_num", 0)
    answer = change(client, roster_id, 17)
    assert answer.status_code == 200  # type: ignore[attr-defined]
    assert 'id="unit-0"' in answer.text and "17" in answer.text  # type: ignore[attr-defined]
    assert writes_of(client).pool.get_stats().get("requests_num", 0) == before + 1
    assert figures(client, roster_id) == 17 and version_of(client, roster_id) == 3
    # The revision was stored with it: undo goes back to it.
    assert client.get(f"/api/v1/rosters/{roster_id}/revisions/3").json()[
        "document"]["units"][0]["lines"][0]["figures"] == 17


def test_a_conflict_on_the_event_loop_is_answered_the_long_way(
        on_postgres: TestClient) -> None:
    # Another worker moved the roster on: the loop's write writes nothing, and the long way
    # reads the roster and tells the browser, as it did before.
    client = on_postgres
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    assert change(client, roster_id, 11).status_code == 200  # type: ignore[attr-defined]
    other = make_engine(client.app.state.settings)  # type: ignore[attr-defined]
    try:
        with Session(other) as session:
            stored = get_roster(session, roster_id)
            replace_roster(session, roster_id,
                           stored.document.model_copy(update={"name": "Другой"}), stored.version)
    finally:
        other.dispose()
    answer = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": "3", "op": "update_unit",
        "unit": "0", "figures_0": "12", "troop_0": "light_horse",
        "weapon_0": "composite_bow"})
    assert answer.status_code == 409 and "now version 4" in answer.text
    assert figures(client, roster_id) == 11 and document(client, roster_id)["name"] == "Другой"


def test_the_editors_changes_keep_only_the_latest_revisions(on_postgres: TestClient) -> None:
    # Pruned by the change's own statement (max_revisions=8: every second version).
    client = on_postgres
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    for n in range(30):
        assert change(client, roster_id, 5 + n % 20).status_code == 200  # type: ignore[attr-defined]
    kept = [r["version"] for r in client.get(f"/api/v1/rosters/{roster_id}/revisions").json()]
    assert kept[-1] == 32 and kept == list(range(kept[0], 33))
    assert 8 <= len(kept) <= 10


@pytest.mark.parametrize("pre_ping", [False, True], ids=["found-when-it-fails", "pre-ping"])
def test_connections_the_database_dropped_are_replaced(pre_ping: bool) -> None:
    # A database restarted, or connections cut by a proxy. As with the engine's pool
    # (Settings.db_pre_ping): without the ping, the change that finds a connection broken is
    # answered 503 with nothing written, and the next one gets a new connection; with it, the
    # first change after is written.
    with fresh_schema() as url, TestClient(
            create_app(settings_for(url, db_pre_ping=pre_ping))) as client:
        roster_id = create_army(client)
        edit(client, roster_id, op="add_unit", preset="horse_archers")
        assert change(client, roster_id, 11).status_code == 200  # type: ignore[attr-defined]

        async def backends() -> list[int]:
            pool = writes_of(client).pool
            held = [await pool.getconn() for _ in range(pool.get_stats()["pool_size"])]
            for connection in held:
                await pool.putconn(connection)
            return [connection.info.backend_pid for connection in held]

        pids = client.portal.call(backends)  # type: ignore[union-attr]
        with psycopg.connect(_libpq(url), autocommit=True) as admin:
            for pid in pids:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        if not pre_ping:
            refused = change(client, roster_id, 12)
            assert refused.status_code == 503  # type: ignore[attr-defined]
            assert refused.headers["Retry-After"]  # type: ignore[attr-defined]
            assert figures(client, roster_id) == 11
        assert change(client, roster_id, 13).status_code == 200  # type: ignore[attr-defined]
        assert figures(client, roster_id) == 13


def test_a_database_the_event_loop_cannot_reach_is_reported_as_sqlalchemy_reports_it() -> None:
    # So that the change is answered 503 with Retry-After like every other page.
    settings = settings_for(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/none",
                            db_connect_timeout=1, db_pool_timeout=2)

    async def write() -> None:
        reads = reads_for(make_engine(settings), settings)
        writes = writes_for(reads, settings)
        assert reads is not None and writes is not None
        await reads.open()
        try:
            await writes.one(text("SELECT 1"), {})
        finally:
            await reads.close()

    with pytest.raises(exc.OperationalError):
        run_apart(write())


def test_a_large_rosters_change_is_made_in_a_worker_thread(on_postgres: TestClient) -> None:
    # Its Python would hold up everything else the worker serves meanwhile.
    client = on_postgres
    roster_id = create_army(client)
    for _ in range(LOOP_UNITS + 1):
        edit(client, roster_id, op="add_unit", preset="horse_archers")
    assert change(client, roster_id, 11).status_code == 200  # type: ignore[attr-defined]
    before = writes_of(client).pool.get_stats().get("requests_num", 0)
    assert change(client, roster_id, 12).status_code == 200  # type: ignore[attr-defined]
    assert writes_of(client).pool.get_stats().get("requests_num", 0) == before
    assert figures(client, roster_id) == 12
