"""The share view's version read goes to the driver directly (app.db.read_one)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, bindparam, create_engine, delete, exc, func, select
from sqlmodel import Session

from app import services
from app.async_reads import LoopReads, PostgresReads, Together, reads_for
from app.config import Settings
from app.db import make_engine, migrate, read_one
from app.models import Revision, Roster
from app.web.share_views import DELETED, live_version, live_version_on_loop
from tests.helpers.databases import settings_for
from tests.helpers.documents import army
from tests.helpers.loops import run_apart
from tests.helpers.servers import free_port


def test_the_version_read_sees_every_change_and_leaves_the_connection_as_it_found_it(
        database_url: str) -> None:
    # One connection in the pool, so the writes below reuse the one the read used.
    engine = make_engine(settings_for(database_url, MUSTER_DB_POOL_SIZE=1,
                                      MUSTER_DB_MAX_OVERFLOW=0))
    migrate(engine)
    try:
        with Session(engine) as session:
            roster_id = services.create_roster(session, army()).roster.id
        assert live_version(engine, roster_id) == 1
        assert live_version(engine, "no-such-roster") is None
        with Session(engine) as session:
            services.replace_roster(session, roster_id, army(name="v2"), 1)
        assert live_version(engine, roster_id) == 2
        # A transaction after the read still rolls back: the read did not leave its
        # connection committing every statement.
        with Session(engine) as session, session.begin():
            session.add(Roster(id="rolled-back", edit_key_hash="x", version=1, document="{}",
                               name="x", search_name="x", ruleset="chainmail", total=0,
                               valid=True, created_at=services.utcnow(),
                               updated_at=services.utcnow()))
            session.flush()
            session.rollback()
        with Session(engine) as session:
            assert session.scalar(select(func.count()).where(Roster.id == "rolled-back")) == 0
        with Session(engine) as session:
            services.delete_roster(session, roster_id)
        assert live_version(engine, roster_id) == DELETED == 0
    finally:
        engine.dispose()


def test_a_database_that_cannot_be_reached_is_reported_as_sqlalchemy_reports_it() -> None:
    # So that the share view answers 503 like every other page (app/routes/health.py).
    engine = create_engine("postgresql+psycopg://postgres@127.0.0.1:9/none",
                           connect_args={"connect_timeout": 2})
    with pytest.raises(exc.OperationalError):
        read_one(engine, select(Roster.version).where(Roster.id == "x"), {"id_1": "x"})


def test_a_driver_read_gives_the_values_the_orm_gives(database_url: str) -> None:
    # SQLite hands back dates as text; the editor's read (services.editable_roster) must see
    # the same dates, with the same types, as every read through a session.
    engine = make_engine(settings_for(database_url))
    migrate(engine)
    try:
        with Session(engine) as session:
            roster_id = services.create_roster(session, army()).roster.id
            services.delete_roster(session, roster_id)
        with Session(engine) as session:
            stored = session.get(Roster, roster_id)
            assert stored is not None
            expected = (stored.version, stored.created_at, stored.deleted_at, stored.nation)
        found = read_one(engine, select(Roster.version, Roster.created_at, Roster.deleted_at,
                                        Roster.nation).where(Roster.id == bindparam("r")),
                         {"r": roster_id})
        assert found == expected
        assert [type(value) for value in found] == [type(value) for value in expected]
        assert isinstance(found[1], datetime) and isinstance(found[2], datetime)
    finally:
        engine.dispose()


def test_a_change_written_by_the_driver_reads_back_as_written_and_fails_whole(
        database_url: str) -> None:
    # The editor's change goes to the driver (app.db.write_then): what it stores must read
    # back through the ORM as any other write, and a change that fails halfway stores nothing
    # and leaves the next writer free to write.
    engine = make_engine(settings_for(database_url, MUSTER_DB_BUSY_TIMEOUT_MS=1000))
    migrate(engine)
    try:
        with Session(engine) as session:
            roster_id = services.create_roster(session, army()).roster.id
            changed = services.replace_roster(session, roster_id, army(name="Вторая"), 1)
        with Session(engine) as session:
            stored = services.get_roster(session, roster_id)
            row = session.get(Roster, roster_id)
            assert row is not None
            assert (stored.version, stored.name, stored.updated_at, stored.created_at) == (
                changed.version, "Вторая", changed.updated_at, changed.created_at)
            assert (row.name, row.search_name, row.version) == ("Вторая", "вторая", 2)
            [_, second] = services.list_revisions(session, roster_id)
            assert (second.version, second.created_at) == (2, changed.updated_at)
            # Revision 3 exists already: the change to version 3 fails at its second statement.
            session.add(Revision(roster_id=roster_id, version=3, created_at=services.utcnow(),
                                 document="{}"))
            session.commit()
        with Session(engine) as session, pytest.raises(exc.IntegrityError):
            services.replace_roster(session, roster_id, army(name="Третья"), 2)
        with Session(engine) as session:
            assert services.get_roster(session, roster_id).name == "Вторая"  # nothing stored
            session.execute(delete(Revision).where(Revision.version == 3))
            session.commit()
            assert services.replace_roster(session, roster_id, army(name="Третья"),
                                           2).version == 3
    finally:
        engine.dispose()


# ---------------------------------------------------------------- on the event loop


async def _on_loop(engine: Engine, settings: Settings,
                   reading: Callable[[LoopReads], Awaitable[list[int | None]]],
                   ) -> list[int | None]:
    reads = reads_for(engine, settings)
    assert reads is not None
    await reads.open()
    try:
        return await reading(reads)
    finally:
        await reads.close()


def test_the_version_read_on_the_event_loop_sees_every_change_and_deletion(
        database_url: str) -> None:
    settings = settings_for(database_url)
    engine = make_engine(settings)
    migrate(engine)

    async def versions(reads: LoopReads) -> list[int | None]:
        seen = [await live_version_on_loop(reads, roster_id),
                await live_version_on_loop(reads, "no-such-roster")]
        with Session(engine) as session:
            services.replace_roster(session, roster_id, army(name="v2"), 1)
        seen.append(await live_version_on_loop(reads, roster_id))
        with Session(engine) as session:
            services.delete_roster(session, roster_id)
        seen.append(await live_version_on_loop(reads, roster_id))
        return seen

    try:
        with Session(engine) as session:
            roster_id = services.create_roster(session, army()).roster.id
        # Each answer as the thread's read gives it: the version, None for no roster, DELETED
        # for a deleted one.
        assert run_apart(_on_loop(engine, settings, versions)) == [1, None, 2, DELETED]
    finally:
        engine.dispose()


def test_a_busy_sqlite_file_is_read_in_a_worker_thread_not_waited_for_on_the_event_loop(
        tmp_path: Path) -> None:
    settings = settings_for(f"sqlite:///{tmp_path / 'muster.db'}")
    engine = make_engine(settings)
    migrate(engine)
    with Session(engine) as session:
        roster_id = services.create_roster(session, army()).roster.id
    engine.dispose()  # no connection of the pool left open on the file
    # A connection in exclusive locking mode that has written keeps every other reader out,
    # even in WAL mode, until it lets go (here after half a second).
    holder = sqlite3.connect(tmp_path / "muster.db", check_same_thread=False)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE roster SET name = name")
    holder.commit()

    def let_go() -> None:
        holder.execute("PRAGMA locking_mode = NORMAL")
        holder.execute("SELECT 1").fetchall()  # the lock goes with the next access
        holder.close()

    async def version(reads: LoopReads) -> list[int | None]:
        loop = asyncio.get_running_loop()
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = loop.create_task(tick())
        loop.call_later(0.5, lambda: threading.Thread(target=let_go).start())
        try:
            return [await live_version_on_loop(reads, roster_id), ticks]
        finally:
            ticking.cancel()

    try:
        found, ticks = run_apart(_on_loop(engine, settings, version))
        assert found == 1
        # The event loop went on meanwhile: the read waited in a worker thread.
        assert ticks is not None and ticks >= 20
    finally:
        engine.dispose()


def test_an_sqlite_database_in_memory_has_no_reads_on_the_event_loop() -> None:
    settings = settings_for("sqlite://")
    assert reads_for(make_engine(settings), settings) is None


def test_a_database_the_event_loop_cannot_reach_is_reported_as_sqlalchemy_reports_it() -> None:
    # So that the share view answers 503 with Retry-After like every other page.
    settings = settings_for(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/none",
                            db_connect_timeout=1, db_pool_timeout=2)

    async def read() -> None:
        reads = reads_for(make_engine(settings), settings)
        assert reads is not None
        await reads.open()
        try:
            await live_version_on_loop(reads, "x")
        finally:
            await reads.close()

    with pytest.raises(exc.OperationalError):
        run_apart(read())


@pytest.mark.parametrize("most", [Together.most, 7], ids=["keys-per-read-default", "seven"])
def test_version_reads_asked_at_once_are_each_answered_with_their_own_roster(
        database_url: str, most: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Many share views at the same moment: each gets its own roster's version (a roster
    changed, one deleted, one that never was, one asked for twice). On PostgreSQL they are
    read together, in fewer reads than views (app/async_reads.py, Together), and no read asks
    for more than `Together.most` rosters."""
    if most != Together.most and not database_url.startswith("postgresql"):
        pytest.skip("on SQLite each read is made at once: there is nothing to cap")
    monkeypatch.setattr(Together, "most", most)
    settings = settings_for(database_url)
    engine = make_engine(settings)
    migrate(engine)
    with Session(engine) as session:
        ids = [services.create_roster(session, army(name=f"r{i}")).roster.id for i in range(40)]
        for roster_id in ids[:10]:
            services.replace_roster(session, roster_id, army(name="v2"), 1)
        for roster_id in ids[10:15]:
            services.delete_roster(session, roster_id)
    asked = [*ids, "no-such-roster", ids[0], ids[20]]
    expected = [2] * 10 + [DELETED] * 5 + [1] * 25 + [None, 2, 1]
    reads_made: list[int] = []

    async def versions(reads: LoopReads) -> list[int | None]:
        if isinstance(reads, PostgresReads):
            read_all = reads.all

            async def counted(statement: Any, params: dict[str, Any]) -> list[tuple[Any, ...]]:
                reads_made.append(len(next(iter(params.values()))))
                return await read_all(statement, params)

            reads.all = counted  # type: ignore[method-assign]
        return list(await asyncio.wait_for(
            asyncio.gather(*(live_version_on_loop(reads, r) for r in asked)), 30))

    try:
        assert run_apart(_on_loop(engine, settings, versions)) == expected
        if engine.dialect.name == "postgresql":
            assert sum(reads_made) == len(set(asked))  # a roster asked twice is read once
            assert max(reads_made) <= most
            if most > len(asked):
                assert len(reads_made) < len(asked) / 4
    finally:
        engine.dispose()


def test_a_version_read_given_up_by_its_request_leaves_the_others_answered(
        database_url: str) -> None:
    # A visitor who closes the page cancels its request; the views read with it still get
    # their answers, and the next read is made as ever.
    if not database_url.startswith("postgresql"):
        pytest.skip("on SQLite each read is made at once: none waits to be given up")
    settings = settings_for(database_url)
    engine = make_engine(settings)
    migrate(engine)
    with Session(engine) as session:
        ids = [services.create_roster(session, army()).roster.id for _ in range(6)]

    async def versions(reads: LoopReads) -> list[int | None]:
        views = [asyncio.ensure_future(live_version_on_loop(reads, r)) for r in ids]
        await asyncio.sleep(0)  # all of them asked
        views[3].cancel()
        answered = await asyncio.wait_for(asyncio.gather(*views, return_exceptions=True), 30)
        assert isinstance(answered[3], asyncio.CancelledError)
        return [*(v for i, v in enumerate(answered) if i != 3),  # type: ignore[misc]
                await live_version_on_loop(reads, ids[3])]

    try:
        assert run_apart(_on_loop(engine, settings, versions)) == [1] * 6
    finally:
        engine.dispose()


def test_every_version_read_waiting_together_is_told_the_database_cannot_be_reached() -> None:
    settings = settings_for(f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/none",
                            db_connect_timeout=1, db_pool_timeout=1)

    async def read() -> list[Any]:
        reads = reads_for(make_engine(settings), settings)
        assert reads is not None
        await reads.open()
        try:
            return await asyncio.wait_for(asyncio.gather(
                *(live_version_on_loop(reads, f"r{i}") for i in range(8)),
                return_exceptions=True), 30)
        finally:
            await reads.close()

    found = run_apart(read())
    assert len(found) == 8 and all(isinstance(e, exc.OperationalError) for e in found)
