"""SQLite writers take turns in a queue (app/db.py), not in SQLite's sleeping busy handler.

What a user relies on: every write from many threads and several processes lands; a writer
that fails or loses its connection gives up its turn, so the next one does not wait out the
busy timeout; the turn across processes is an advisory lock the kernel drops with its holder;
and writes committed together still stand or fail each on its own.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, exc, text
from sqlmodel import Session

from app import services
from app.db import _GROUP_COMMITS, WRITER, make_engine, migrate
from app.models import Revision
from tests.helpers.databases import settings_for
from tests.helpers.documents import army

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'muster.db'}"


@pytest.fixture
def engine(sqlite_url: str) -> Iterator[Engine]:
    # A short busy timeout: a turn that was not handed on shows as "database is locked".
    built = make_engine(settings_for(sqlite_url, MUSTER_DB_BUSY_TIMEOUT_MS=1000))
    migrate(built)
    yield built
    built.dispose()


def other_process(writes: str, busy_timeout_ms: int = 5000) -> str:
    """A script for another server process writing the same file (its URL is argv[1]):
    `writes` runs with a `session` open."""
    body = "".join(f"    {line}\n" for line in writes.splitlines())
    return ("import sys\n"
            "from sqlmodel import Session\n"
            "from app import services\n"
            "from app.db import make_engine\n"
            "from tests.helpers.databases import settings_for\n"
            "from tests.helpers.documents import army\n"
            "engine = make_engine(settings_for(sys.argv[1], "
            f"MUSTER_DB_BUSY_TIMEOUT_MS={busy_timeout_ms}))\n"
            "with Session(engine) as session:\n"
            f"{body}"
            "engine.dispose()\n")


def lock_is_free(database: Path) -> bool:
    fd = os.open(database.with_name(database.name + "-writer"), os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)  # closing drops a lock taken here
    return True


def test_every_write_of_many_threads_lands(engine: Engine) -> None:
    with Session(engine) as session:
        ids = [services.create_roster(session, army(name=f"Поток {n}")).roster.id
               for n in range(12)]
    failures: list[BaseException] = []

    def write(roster_id: str) -> None:
        try:
            with Session(engine) as own:
                for version in range(1, 16):
                    services.replace_roster(own, roster_id, army(name=f"v{version}"), version)
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(roster_id,)) for roster_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Session(engine) as session:
        assert {services.get_roster(session, i).version for i in ids} == {16}


def test_a_failed_write_gives_up_its_turn(engine: Engine) -> None:
    with Session(engine) as session:
        roster_id = services.create_roster(session, army()).roster.id
        with pytest.raises(exc.IntegrityError), session.begin():
            session.connection(execution_options={WRITER: True})
            session.execute(text("INSERT INTO revision (roster_id, version, created_at, "
                                 "document) VALUES (:r, 1, '2026-01-01', '{}')"),
                            {"r": roster_id})  # version 1 exists already
    done: list[int] = []

    def write() -> None:
        with Session(engine) as own:
            done.append(services.replace_roster(own, roster_id, army(name="после"), 1).version)

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(timeout=30)
    assert done == [2]


def test_a_writer_whose_connection_is_dropped_gives_up_its_turn(
        engine: Engine, sqlite_url: str) -> None:
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    with Session(engine) as session:
        roster_id = services.create_roster(session, army()).roster.id
    connection = engine.connect().execution_options(**{WRITER: True})
    connection.begin()
    assert not lock_is_free(database)  # the turn is held while the write is open
    connection.invalidate()
    connection.close()
    assert lock_is_free(database)
    with Session(engine) as session:
        assert services.replace_roster(session, roster_id, army(name="после"), 1).version == 2


def test_writers_in_other_processes_wait_for_the_turn_and_land(
        engine: Engine, sqlite_url: str) -> None:
    with Session(engine) as session:
        roster_id = services.create_roster(session, army()).roster.id
    # Another server process writes the same file 40 times while this one writes too.
    other = subprocess.Popen(
        [sys.executable, "-c", other_process(
            "for n in range(40):\n"
            "    services.create_roster(session, army(name=f'другой {n}'))\n"), sqlite_url],
        cwd=ROOT, stderr=subprocess.PIPE)
    with Session(engine) as session:
        for version in range(1, 41):
            services.replace_roster(session, roster_id, army(name=f"v{version}"), version)
    _, errors = other.communicate(timeout=120)
    assert other.returncode == 0, errors.decode()[-2000:]
    with Session(engine) as session:
        assert services.get_roster(session, roster_id).version == 41
        count = session.execute(text("SELECT count(*) FROM roster")).scalar_one()
    assert count == 41


def test_a_writer_held_up_by_another_process_gives_up_at_the_busy_timeout(
        engine: Engine, sqlite_url: str) -> None:
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    with Session(engine) as session:
        roster_id = services.create_roster(session, army()).roster.id
    # Another process's writer holds the turn (a lock of our own stands in for it: locks of
    # separately opened files exclude each other even within one process).
    other = os.open(database.with_name(database.name + "-writer"), os.O_RDWR)
    fcntl.flock(other, fcntl.LOCK_EX)
    try:
        with Session(engine) as session, pytest.raises(exc.OperationalError, match="locked"):
            services.replace_roster(session, roster_id, army(name="ждёт"), 1)
    finally:
        os.close(other)
    with Session(engine) as session:  # the turn was given back when the wait gave up
        assert services.replace_roster(session, roster_id, army(name="после"), 1).version == 2


def test_a_process_whose_writers_keep_the_database_busy_does_not_starve_another(
        engine: Engine, sqlite_url: str) -> None:
    # Four threads of this process take the write turn over and over, each holding it 10 ms:
    # every time it is handed on, one of them is already waiting for it. A writer of another
    # process (another server worker) must still get turns: 30 writes, each within its 1 s
    # busy timeout, while this process is still busy.
    with Session(engine) as session:
        other_id = services.create_roster(session, army(name="другой")).roster.id
    stop = threading.Event()
    turns: list[int] = []
    failures: list[BaseException] = []

    def keep_the_turn_busy() -> None:
        taken = 0
        try:
            while not stop.is_set():
                with Session(engine) as own, own.begin():
                    own.connection(execution_options={WRITER: True})
                    time.sleep(0.01)
                taken += 1
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)
        turns.append(taken)

    script = other_process(
        "for version in range(1, 31):\n"
        "    services.replace_roster(session, sys.argv[2], army(name=f'v{version}'), version)\n",
        busy_timeout_ms=1000)
    threads = [threading.Thread(target=keep_the_turn_busy) for _ in range(4)]
    for thread in threads:
        thread.start()
    try:
        other = subprocess.run([sys.executable, "-c", script, sqlite_url, other_id], cwd=ROOT,
                               capture_output=True, timeout=120)
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert failures == []
    assert other.returncode == 0, other.stderr.decode()[-2000:]
    assert min(turns) > 0  # every thread of this process kept taking turns meanwhile
    with Session(engine) as session:
        assert services.get_roster(session, other_id).version == 31


def test_writes_queued_for_the_turn_are_committed_together_each_whole_or_not_at_all(
        engine: Engine, sqlite_url: str) -> None:
    # Another process holds the turn while three editors of this one change three rosters:
    # they queue, and the first to arrive writes all three in one transaction when the turn
    # comes (app/db.py, _GroupCommit). One change stands, one fails at its second statement
    # (its revision exists already), one is stale: each answer is its own, and the failed
    # and stale ones leave their rosters as they were.
    database = Path(sqlite_url.removeprefix("sqlite:///"))
    # Time enough for all three to queue however slow the machine: the turn comes at once.
    patient = make_engine(settings_for(sqlite_url, MUSTER_DB_BUSY_TIMEOUT_MS=30000))
    with Session(engine) as session:
        ids = [services.create_roster(session, army(name=n)).roster.id
               for n in ("стоит", "падает", "устарел")]
        session.add(Revision(roster_id=ids[1], version=2, created_at=services.utcnow(),
                             document="{}"))
        session.commit()
    answers: dict[int, object] = {}

    def change(n: int, expected: int) -> None:
        try:
            with Session(patient) as own:
                answers[n] = services.replace_roster(own, ids[n], army(name=f"новое {n}"),
                                                     expected).version
        except Exception as error:  # noqa: BLE001 - each answer is checked below
            answers[n] = error

    other = os.open(database.with_name(database.name + "-writer"), os.O_RDWR)
    fcntl.flock(other, fcntl.LOCK_EX)
    threads = [threading.Thread(target=change, args=(n, expected))
               for n, expected in ((0, 1), (1, 1), (2, 7))]
    try:
        for thread in threads:
            thread.start()
        group = _GROUP_COMMITS[patient]
        deadline = time.monotonic() + 10
        while len(group.queue) < 3 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert len(group.queue) == 3 and answers == {}  # all three wait for the one turn
    finally:
        os.close(other)
    for thread in threads:
        thread.join(timeout=30)
    patient.dispose()
    assert answers[0] == 2
    assert isinstance(answers[1], exc.IntegrityError)
    assert isinstance(answers[2], services.VersionConflict)
    with Session(engine) as session:
        assert [services.get_roster(session, i).version for i in ids] == [2, 1, 1]
        assert [services.get_roster(session, i).name for i in ids] == [
            "новое 0", "падает", "устарел"]
        assert [r.version for r in services.list_revisions(session, ids[0])] == [1, 2]
    with Session(engine) as session:  # the turn was handed on: the next change lands
        assert services.replace_roster(session, ids[2], army(name="потом"), 1).version == 2
