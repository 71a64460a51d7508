"""SQLite writers: each write takes the write lock at BEGIN (BEGIN IMMEDIATE) and waits for it
up to the busy timeout.

What a user relies on: every write from many threads and several processes lands; a writer
that fails or loses its connection releases the lock, so the next one does not wait out the
busy timeout; and one held up past the busy timeout is refused (answered 503), not hung.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, exc, text
from sqlmodel import Session

from app.services import rosters
from app.storage.db import WRITER, make_engine, migrate
from tests.helpers.databases import settings_for
from tests.helpers.documents import army

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'muster.db'}"


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    built = make_engine(settings_for(sqlite_url))
    migrate(built)
    yield built
    built.dispose()


def other_process(writes: str, busy_timeout_ms: int = 5000) -> str:
    """A script for another server process writing the same file (its URL is argv[1]):
    `writes` runs with a `session` open."""
    body = "".join(f"    {line}\n" for line in writes.splitlines())
    return ("import sys\n"
            "from sqlmodel import Session\n"
            "from app.services import rosters\n"
            "from app.storage.db import make_engine\n"
            "from tests.helpers.databases import settings_for\n"
            "from tests.helpers.documents import army\n"
            "engine = make_engine(settings_for(sys.argv[1], "
            f"MUSTER_DB_BUSY_TIMEOUT_MS={busy_timeout_ms}))\n"
            "with Session(engine) as session:\n"
            f"{body}"
            "engine.dispose()\n")


def test_every_write_of_many_threads_lands(engine: Engine) -> None:
    with Session(engine) as session:
        ids = [rosters.create_roster(session, army(name=f"Поток {n}")).roster.id
               for n in range(12)]
    failures: list[BaseException] = []

    def write(roster_id: str) -> None:
        try:
            with Session(engine) as own:
                for version in range(1, 16):
                    rosters.replace_roster(own, roster_id, army(name=f"v{version}"), version)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(roster_id,)) for roster_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Session(engine) as session:
        assert {rosters.get_roster(session, i).version for i in ids} == {16}


def test_a_failed_write_gives_up_its_turn(engine: Engine) -> None:
    with Session(engine) as session:
        roster_id = rosters.create_roster(session, army()).roster.id
        with pytest.raises(exc.IntegrityError), session.begin():
            session.connection(execution_options={WRITER: True})
            session.execute(text("INSERT INTO revision (roster_id, version, created_at, "
                                 "document) VALUES (:r, 1, '2026-01-01', '{}')"),
                            {"r": roster_id})  # version 1 exists already
    done: list[int] = []

    def write() -> None:
        with Session(engine) as own:
            done.append(rosters.replace_roster(own, roster_id, army(name="после"), 1).version)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(timeout=30)
    assert done == [2]


def test_a_writer_whose_connection_is_dropped_releases_the_lock(engine: Engine) -> None:
    with Session(engine) as session:
        roster_id = rosters.create_roster(session, army()).roster.id
    connection = engine.connect().execution_options(**{WRITER: True})
    connection.begin()  # BEGIN IMMEDIATE: the write lock is held
    connection.invalidate()
    connection.close()
    with Session(engine) as session:
        assert rosters.replace_roster(session, roster_id, army(name="после"), 1).version == 2


@pytest.mark.slow
def test_writers_in_other_processes_wait_for_the_turn_and_land(
        engine: Engine, sqlite_url: str) -> None:
    with Session(engine) as session:
        roster_id = rosters.create_roster(session, army()).roster.id
    # Another server process writes the same file 40 times while this one writes too.
    other = subprocess.Popen(
        [sys.executable, "-c", other_process(
            "for n in range(40):\n"
            "    rosters.create_roster(session, army(name=f'другой {n}'))\n"), sqlite_url],
        cwd=ROOT, stderr=subprocess.PIPE)
    with Session(engine) as session:
        for version in range(1, 41):
            rosters.replace_roster(session, roster_id, army(name=f"v{version}"), version)
    _, errors = other.communicate(timeout=120)
    assert other.returncode == 0, errors.decode()[-2000:]
    with Session(engine) as session:
        assert rosters.get_roster(session, roster_id).version == 41
        count = session.execute(text("SELECT count(*) FROM roster")).scalar_one()
    assert count == 41


@pytest.mark.slow
def test_a_writer_held_up_by_another_process_gives_up_at_the_busy_timeout(
        sqlite_url: str) -> None:
    impatient = make_engine(settings_for(sqlite_url, MUSTER_DB_BUSY_TIMEOUT_MS=500))
    try:
        migrate(impatient)
        with Session(impatient) as session:
            roster_id = rosters.create_roster(session, army()).roster.id
        # Another process's writer holds the write lock (a connection of its own stands in).
        other = sqlite3.connect(sqlite_url.removeprefix("sqlite:///"), isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        try:
            with Session(impatient) as session, pytest.raises(exc.OperationalError,
                                                              match="locked"):
                rosters.replace_roster(session, roster_id, army(name="ждёт"), 1)
        finally:
            other.execute("ROLLBACK")
            other.close()
        with Session(impatient) as session:  # nothing was left holding the lock
            assert rosters.replace_roster(session, roster_id, army(name="после"),
                                           1).version == 2
    finally:
        impatient.dispose()
