"""The database: engine from settings, request sessions, migrations applied on start.

SQLite (the default) runs in WAL mode with foreign keys on and a busy timeout. Its transactions
are begun by SQLAlchemy rather than the driver, so that a writing transaction can take the write
lock at once (BEGIN IMMEDIATE): a version check and the write that follows it then cannot be
split by another writer. PostgreSQL needs no such help: its row locks do the same.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import functools
import gc
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from anyio import to_thread
from fastapi import FastAPI, Request
from sqlalchemy import (
    Connection,
    Dialect,
    Engine,
    Executable,
    Select,
    create_engine,
    event,
    exc,
    text,
)
from sqlalchemy.engine import make_url
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.config import Settings

log = logging.getLogger("muster.db")

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
# Execution option a session's connection carries when its transaction is going to write.
WRITER = "muster_writer"
# Any constant: concurrent starters on PostgreSQL queue on this lock instead of racing the DDL.
_MIGRATION_LOCK = 0x6D75737465
# The garbage collector's thresholds in a serving process (see storage_lifespan).
GC_THRESHOLDS = (5000, 20, 20)
# What a request meets when the database is down, cut off, or too busy to hand out a
# connection in time: a passing condition, answered 503 (app/routes/health.py), not a bug.
UNAVAILABLE: tuple[type[Exception], ...] = (exc.OperationalError, exc.InterfaceError,
                                            exc.TimeoutError)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def make_engine(settings: Settings) -> Engine:
    url = make_url(settings.db_url)
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(settings)
    connect_args: dict[str, Any] = {}
    if url.get_backend_name() == "postgresql":
        connect_args["connect_timeout"] = settings.db_connect_timeout
    return create_engine(url, pool_size=settings.db_pool_size,
                         max_overflow=settings.db_max_overflow,
                         pool_timeout=settings.db_pool_timeout,
                         pool_pre_ping=settings.db_pre_ping,
                         pool_recycle=settings.db_recycle_seconds,
                         connect_args=connect_args)


def sqlite_path(url: str) -> Path | None:
    """The file behind a SQLite URL, or None for an in-memory database."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_engine(settings: Settings) -> Engine:
    path = sqlite_path(settings.db_url)
    pool: dict[str, Any] = {}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        pool = {"pool_size": settings.db_pool_size, "max_overflow": settings.db_max_overflow,
                "pool_timeout": settings.db_pool_timeout}
    engine = create_engine(settings.db_url, connect_args={"check_same_thread": False}, **pool)

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event below open transactions, not the driver.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(settings.db_busy_timeout_ms)}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {settings.sqlite_synchronous}")
        cursor.execute(f"PRAGMA cache_size = -{int(settings.sqlite_cache_kib)}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    # Writers take turns before asking SQLite for its write lock. SQLite makes a writer that
    # finds the lock taken sleep and retry (up to 100 ms at a time), so writers racing for it
    # leave the database idle between writes and their waits pile up. Here a writer waits in
    # a queue instead, and is woken the moment the last commit is done: the threads of this
    # process on a lock, the processes sharing the file on advisory locks of files beside it
    # (TurnAcrossProcesses: fair between processes, released by the kernel if its holder
    # dies). Both waits end at the busy timeout.
    turns = threading.Lock()
    holders: set[int] = set()  # the driver connections whose transaction holds the turn
    wait = settings.db_busy_timeout_ms / 1000
    across = TurnAcrossProcesses(path) if path is not None else None

    def _take_turn(dbapi_connection: Any) -> None:
        deadline = time.monotonic() + wait
        if not turns.acquire(timeout=wait):
            raise _locked()
        holders.add(id(dbapi_connection))
        try:
            if across is not None:
                across.take(deadline)
        except BaseException:
            _end_turn(dbapi_connection)
            raise

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        if not connection.get_execution_options().get(WRITER):
            connection.exec_driver_sql("BEGIN")
            return
        _take_turn(connection.connection.dbapi_connection)
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        except BaseException:
            _end_turn(connection.connection.dbapi_connection)
            raise

    def _end_turn(dbapi_connection: Any) -> None:
        # SQLAlchemy hands the dialect the pool's proxy or the driver's connection itself.
        key = id(getattr(dbapi_connection, "dbapi_connection", dbapi_connection))
        if key in holders:
            holders.discard(key)
            if across is not None:
                across.give_back()
            turns.release()

    @event.listens_for(engine, "invalidate")
    def _invalidated(dbapi_connection: Any, _record: Any, _error: Any) -> None:
        _end_turn(dbapi_connection)  # a connection dropped mid-write gives up its turn

    @event.listens_for(engine, "close")
    def _closed(dbapi_connection: Any, _record: Any) -> None:
        _end_turn(dbapi_connection)

    if across is not None:
        @event.listens_for(engine, "engine_disposed", once=True)
        def _disposed(_engine: Engine) -> None:
            across.close()

    dialect = engine.dialect
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def do_commit(dbapi_connection: Any) -> None:
        try:
            commit(dbapi_connection)
        finally:
            _end_turn(dbapi_connection)

    def do_rollback(dbapi_connection: Any) -> None:
        try:
            rollback(dbapi_connection)
        finally:
            _end_turn(dbapi_connection)

    # The dialect belongs to this engine alone; its commit and rollback end a writer's turn
    # once the database has finished (SQLAlchemy's events fire before, not after).
    dialect.do_commit = do_commit  # type: ignore[method-assign]
    dialect.do_rollback = do_rollback  # type: ignore[method-assign]
    _WRITER_TURNS[engine] = (_take_turn, _end_turn)
    _GROUP_COMMITS[engine] = _GroupCommit(engine)
    return engine


# A SQLite engine's writers' turn, for writes that go to the driver (write_then): take it for a
# driver connection, end it once that connection has committed or rolled back.
_WRITER_TURNS: weakref.WeakKeyDictionary[Engine, tuple[Callable[[Any], None],
                                                       Callable[[Any], None]]] = \
    weakref.WeakKeyDictionary()


def _locked() -> exc.OperationalError:
    return exc.OperationalError("BEGIN IMMEDIATE", None,
                                sqlite3.OperationalError("database is locked"))


class TurnAcrossProcesses:
    """The turn to write one SQLite file, among the server processes sharing it: an advisory
    lock on `<file>-writer`, and a queue, `<file>-writer-queue`, that makes the turn fair.

    A process whose writers are all busy would otherwise keep the turn: its next writer is
    woken the moment its last commit ends, while a writer of another process finds the lock
    only when it next looks, and under load it never does (one worker of two sat idle). A
    writer that finds the turn taken therefore queues first, holding the queue's lock while it
    waits; a process about to take the turn while someone queues joins the queue behind them.
    The kernel drops both locks with a process that dies; every wait ends at the busy timeout.
    """

    def __init__(self, database: Path) -> None:
        self.turn = _lock_file(database.with_name(database.name + "-writer"))
        self.queue = _lock_file(database.with_name(database.name + "-writer-queue"))

    def take(self, deadline: float) -> None:
        if not self._queued() and _try_lock(self.turn):
            return
        _wait_for_lock(self.queue, deadline)
        try:
            _wait_for_lock(self.turn, deadline)
        finally:
            fcntl.flock(self.queue, fcntl.LOCK_UN)

    def give_back(self) -> None:
        fcntl.flock(self.turn, fcntl.LOCK_UN)

    def close(self) -> None:
        os.close(self.turn)
        os.close(self.queue)

    def _queued(self) -> bool:
        """Whether a writer of another process waits for the turn (holds the queue)."""
        if not _try_lock(self.queue, fcntl.LOCK_SH):
            return True
        fcntl.flock(self.queue, fcntl.LOCK_UN)
        return False


def _try_lock(fd: int, kind: int = fcntl.LOCK_EX) -> bool:
    try:
        fcntl.flock(fd, kind | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _wait_for_lock(fd: int, deadline: float) -> None:
    """Take the advisory lock on `fd` by `deadline` (the busy timeout): a writer in another
    process that hangs must not hold this one forever. Polled, as flock has no timeout, at
    at most a millisecond, so the lock still changes hands about as soon as it is free."""
    pause = 0.0001
    while not _try_lock(fd):
        if time.monotonic() >= deadline:
            raise _locked()
        time.sleep(pause)
        pause = min(pause * 2, 0.001)


def _lock_file(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)


def end_open_transaction(session: Session) -> None:
    """A transaction the caller left open would pin an old snapshot (and, on SQLite, keep a
    read lock): what follows starts from a fresh one."""
    if session.in_transaction():
        session.commit()


@contextlib.contextmanager
def transaction(session: Session, *, write: bool = False) -> Iterator[None]:
    """One transaction of `session`, committed at the end or rolled back on any error; one the
    caller left open is ended first (end_open_transaction). With `write`, SQLite takes the
    writer's lock at BEGIN (WRITER), so that two writers never deadlock upgrading a read
    lock."""
    end_open_transaction(session)
    if write:
        session.connection(execution_options={WRITER: True})
    elif session.get_bind().dialect.name != "sqlite":
        # Reads here are one statement each (or tolerate a write between two): without a
        # transaction they cost one round trip to the server, not three (BEGIN, the read,
        # COMMIT). SQLite's transactions cost no round trip, and its connections are set up
        # to have SQLAlchemy begin them (see _sqlite_engine).
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise


@dataclass(frozen=True)
class _DriverStatement:
    """A statement as its driver takes it, with what SQLAlchemy does to values on the way in
    and out (SQLite stores dates as text), or None where a value goes as it is."""

    sql: str
    order: tuple[str, ...] | None  # parameter names in order, for a positional paramstyle
    bind: dict[str, Callable[[Any], Any] | None]
    results: tuple[Callable[[Any], Any] | None, ...]  # per column of the rows

    def arguments(self, params: dict[str, Any]) -> Any:
        values = {name: params[name] if process is None or params[name] is None
                  else process(params[name]) for name, process in self.bind.items()}
        return tuple(values[name] for name in self.order) if self.order is not None else values

    def row(self, found: Any) -> tuple[Any, ...]:
        return tuple(value if process is None or value is None else process(value)
                     for value, process in zip(found, self.results, strict=True))


@functools.cache
def driver_statement(statement: Executable, dialect: Dialect) -> _DriverStatement:
    compiled = statement.compile(dialect=dialect)
    return _DriverStatement(
        str(compiled), tuple(compiled.positiontup or ()) if compiled.positional else None,
        {name: bind.type.dialect_impl(dialect).bind_processor(dialect)
         for bind, name in compiled.bind_names.items()},
        tuple(column.type.dialect_impl(dialect).result_processor(dialect, None)
              for column in getattr(statement, "exported_columns", ())))


class _OnTheDriver:
    """One use of a pooled driver connection, for read_one and write_then: driver errors
    come out as SQLAlchemy's (so a database that is away is answered 503, as everywhere), a
    connection that failed is dropped from the pool, and the connection always goes back."""

    def __init__(self, engine: Engine, params: dict[str, Any]) -> None:
        self.engine, self.params = engine, params
        self.error_type: type[Exception] = engine.dialect.loaded_dbapi.Error
        self.sql: str | None = None  # the statement running, named in an error
        self.cursor: Any = None

    def __enter__(self) -> _OnTheDriver:
        try:
            self.connection = self.engine.raw_connection()
        except self.error_type as error:  # the database cannot be reached
            raise exc.DBAPIError.instance(None, None, error, self.error_type,
                                          dialect=self.engine.dialect) from error
        return self

    def execute(self, sql: str, arguments: Any) -> Any:
        if self.cursor is None:
            self.cursor = self.connection.cursor()
        self.sql = sql
        self.cursor.execute(sql, arguments)
        return self.cursor

    def __exit__(self, _kind: Any, error: BaseException | None, _trace: Any) -> None:
        try:
            if self.cursor is not None:
                with contextlib.suppress(self.error_type):
                    self.cursor.close()
            if isinstance(error, self.error_type):
                broken = self.engine.dialect.is_disconnect(
                    error, self.connection.dbapi_connection, self.cursor)
                self.connection.invalidate(error)  # never back to the pool in an unknown state
                raise exc.DBAPIError.instance(self.sql, self.params, error, self.error_type,
                                              connection_invalidated=broken,
                                              dialect=self.engine.dialect) from error
        finally:
            self.connection.close()


def read_one(engine: Engine, statement: Select[Any],
             params: dict[str, Any]) -> tuple[Any, ...] | None:
    """The first row of a one-statement read, run by the driver itself, outside a transaction,
    with its values as SQLAlchemy would give them (errors as in _OnTheDriver).

    For the hottest reads only: SQLAlchemy's connection and execution machinery costs more
    than the read.
    """
    return _alone(engine, statement, params)


def _alone(engine: Engine, statement: Executable,
           params: dict[str, Any]) -> tuple[Any, ...] | None:
    """Run one statement by the driver outside a transaction (for a write, the statement is
    its own transaction); its first row, converted as SQLAlchemy converts values."""
    prepared = driver_statement(statement, engine.dialect)
    arguments = prepared.arguments(params)  # before autocommit is set: a missing one raises
    sqlite = engine.dialect.name == "sqlite"
    with _OnTheDriver(engine, params) as call:
        driver = call.connection.driver_connection
        if not sqlite:
            # No BEGIN and COMMIT round trips. (SQLite's connections run a lone statement
            # outside a transaction already: see _sqlite_engine.)
            driver.autocommit = True  # type: ignore[union-attr]
        row = call.execute(prepared.sql, arguments).fetchone()
        if not sqlite:
            driver.autocommit = False  # type: ignore[union-attr]
    return None if row is None else prepared.row(row)


def writes_as_one(engine: Engine) -> bool:
    """Whether write_then runs its `as_one` statement on this engine (PostgreSQL): a write of
    several statements is then one round trip."""
    return engine.dialect.name == "postgresql"


def write_then(engine: Engine, first: Executable, then: tuple[Executable, ...],
               params: dict[str, Any], *, as_one: Executable | None = None,
               ) -> tuple[Any, ...] | None:
    """Run `first` (a statement RETURNING a row) and, when it returns one, each of `then` in
    turn, in one transaction run by the driver itself; the row, or None when nothing was
    written (errors as in _OnTheDriver; a failed write is rolled back whole). On PostgreSQL,
    `as_one`, the same write as one statement returning the same row, runs instead, as its
    own transaction.

    For the editor's change: on SQLite writers take turns (see _sqlite_engine), and the
    Python that SQLAlchemy runs between BEGIN and COMMIT kept every other writer waiting,
    the more so the busier the process. On PostgreSQL each statement is a round trip. On
    SQLite the writes of a process's threads that wait for the turn at the same moment are
    committed together (_GroupCommit).
    """
    if as_one is not None and writes_as_one(engine):
        return _alone(engine, as_one, params)
    one = driver_statement(first, engine.dialect)
    rest = tuple(driver_statement(statement, engine.dialect) for statement in then)
    write = _Write(one, rest, params, one.arguments(params),
                   tuple(statement.arguments(params) for statement in rest))
    group = _GROUP_COMMITS.get(engine)
    if group is not None:
        return group.write(write)
    with _OnTheDriver(engine, params) as call:
        row = call.execute(one.sql, write.first_arguments).fetchone()
        if row is not None:
            for statement, arguments in zip(rest, write.then_arguments, strict=True):
                call.execute(statement.sql, arguments)
        try:
            call.connection.commit()
        except BaseException:
            with contextlib.suppress(call.error_type):
                call.connection.rollback()
            raise
    return None if row is None else one.row(row)


@dataclass
class _Write:
    """One writer's statements, waiting to be committed with others."""

    first: _DriverStatement
    then: tuple[_DriverStatement, ...]
    params: dict[str, Any]
    first_arguments: Any
    then_arguments: tuple[Any, ...]
    row: tuple[Any, ...] | None = None
    failed: BaseException | None = None  # a driver error, or what failed the whole batch
    failed_sql: str | None = None
    leads: bool = False
    woken: threading.Event = dataclasses.field(default_factory=threading.Event)


class _GroupCommit:
    """SQLite writes of one process, committed in batches: one turn, one transaction and one
    `fsync` for every write that was waiting when the turn came, each write in a savepoint of
    its own so that one that fails leaves the others whole.

    Each commit with `synchronous = FULL` waits for the disk, and writers take turns, so with
    one write per commit the disk's flushes bounded the writes per second and every writer
    queued behind them. The first writer to arrive leads: it takes the turn, writes the whole
    queue, commits, wakes the others with their results, and hands the lead to whoever queued
    meanwhile. A write is answered only after the commit that holds it, as before.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lock = threading.Lock()
        self.queue: list[_Write] = []
        self.leading = False

    def write(self, write: _Write) -> tuple[Any, ...] | None:
        with self.lock:
            self.queue.append(write)
            if not self.leading:
                self.leading = write.leads = True
        if not write.leads:
            write.woken.wait()  # with a result, or to lead (the leader always wakes us)
        if write.leads:
            self._lead()
        if write.failed is not None:
            if isinstance(write.failed, self.engine.dialect.loaded_dbapi.Error):
                # A wrapper of its own per writer: one exception raised in several threads
                # would share (and garble) its traceback.
                raise exc.DBAPIError.instance(
                    write.failed_sql, write.params, write.failed,
                    self.engine.dialect.loaded_dbapi.Error, dialect=self.engine.dialect,
                ) from write.failed
            raise write.failed
        return write.row

    def _lead(self) -> None:
        batch: list[_Write] = []
        try:
            self._commit(batch)
        except BaseException as error:
            if not batch:  # the turn never came: those queued for it give up with the leader
                with self.lock:
                    batch[:], self.queue = self.queue, []
            failed = error.orig if isinstance(error, exc.DBAPIError) else error
            sql = error.statement if isinstance(error, exc.DBAPIError) else None
            for write in batch:  # nothing of the batch was committed
                write.row, write.failed, write.failed_sql = None, failed, sql
        finally:
            with self.lock:
                if self.queue:
                    self.queue[0].leads = True
                    self.queue[0].woken.set()
                else:
                    self.leading = False
            for write in batch:
                write.woken.set()

    def _commit(self, batch: list[_Write]) -> None:
        """Take the turn, then write and commit everything queued by then (into `batch`):
        whoever queued while the leader waited for the turn is written with it."""
        take_turn, end_turn = _WRITER_TURNS[self.engine]
        with _OnTheDriver(self.engine, {}) as call:
            driver = call.connection.dbapi_connection
            take_turn(driver)
            try:
                with self.lock:
                    batch[:], self.queue = self.queue, []
                call.params = batch[0].params
                call.execute("BEGIN IMMEDIATE", ())
                for write in batch:
                    call.execute("SAVEPOINT write", ())
                    try:
                        row = call.execute(write.first.sql, write.first_arguments).fetchone()
                        if row is not None:
                            for statement, arguments in zip(write.then, write.then_arguments,
                                                            strict=True):
                                call.execute(statement.sql, arguments)
                    except call.error_type as error:
                        if not driver.in_transaction:  # SQLite rolled the batch back itself
                            raise
                        call.execute("ROLLBACK TO write", ())
                        write.failed, write.failed_sql = error, call.sql
                    else:
                        write.row = None if row is None else write.first.row(row)
                    call.execute("RELEASE write", ())
                call.connection.commit()
            except BaseException:
                with contextlib.suppress(call.error_type):  # a broken connection is dropped
                    call.connection.rollback()
                raise
            finally:
                end_turn(driver)


# A SQLite engine's batches of writes (write_then), made with the engine.
_GROUP_COMMITS: weakref.WeakKeyDictionary[Engine, _GroupCommit] = weakref.WeakKeyDictionary()


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to `revision` in one transaction, one migrator at a time."""
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Batch migrations rebuild tables; dropping the old copy must not cascade. The pragma
            # only takes effect outside a transaction, hence on the raw driver connection.
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = OFF")
        try:
            connection.execution_options(**{WRITER: True})
            with connection.begin():
                if connection.dialect.name == "postgresql":
                    connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                       {"key": _MIGRATION_LOCK})
                command.upgrade(alembic_config(connection), revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
                    if broken:
                        raise RuntimeError(f"migration left broken foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.connection.dbapi_connection.execute("PRAGMA foreign_keys = ON")


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


@functools.cache
def head_revisions() -> tuple[str, ...]:
    """The revisions this release's migrations lead to (read once: they ship with the code)."""
    return tuple(sorted(ScriptDirectory.from_config(alembic_config()).get_heads()))


@functools.cache
def known_revisions() -> frozenset[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(revision.revision for revision in script.walk_revisions())


@dataclass(frozen=True)
class Readiness:
    backend: str
    reachable: bool
    current: tuple[str, ...]
    head: tuple[str, ...]
    problem: str | None = None

    @property
    def ready(self) -> bool:
        return self.reachable and self.current == self.head


def readiness(engine: Engine) -> Readiness:
    """Can this process serve requests that need the database: reachable and at head?"""
    backend = engine.dialect.name
    head = head_revisions()
    try:
        with engine.connect() as connection:
            current = tuple(sorted(MigrationContext.configure(connection).get_current_heads()))
    except exc.SQLAlchemyError as error:
        return Readiness(backend, False, (), head, _first_line(error))
    problem = None
    if not set(current) <= known_revisions():
        # A newer release migrated the database (a rolling upgrade under way): this process's
        # code may not fit the schema any more, so it steps out of the rotation.
        problem = (f"schema at {', '.join(current)}, written by a newer release; this one "
                   f"knows up to {', '.join(head)}: upgrade this server")
    elif current != head:
        problem = (f"schema at {', '.join(current) or 'no revision'}, this release needs "
                   f"{', '.join(head)}: run `muster migrate`")
    return Readiness(backend, True, current, head, problem)


def _first_line(error: BaseException) -> str:
    # The driver's message without SQLAlchemy's trailing links and SQL; never the password,
    # which drivers do not repeat.
    original = getattr(error, "orig", None) or error
    text_ = str(original).strip().splitlines()
    return text_[0] if text_ else type(original).__name__


def storage_lifespan(
    settings: Settings,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Open the database when the app starts: migrate, purge expired deletions, share the engine."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Both build on this module.
        from app import services
        from app.async_reads import LoopReads, reads_for
        from app.loop_writes import writes_for

        engine = make_engine(settings)
        reads: LoopReads | None = None
        try:
            if settings.migrate_on_start:
                try:
                    await run_in_threadpool(migrate, engine)
                except UNAVAILABLE as error:
                    log.error("cannot migrate %s on start: %s", _where(settings),
                              _first_line(error))
                    raise
            try:
                with Session(engine) as session:
                    purged = await run_in_threadpool(services.purge_deleted, session)
            except exc.SQLAlchemyError as error:
                # Housekeeping: the next start (or `muster purge`) does it. A server without its
                # database, or started before `muster migrate`, still starts, answers 503 where
                # it must and reports itself not ready.
                log.warning("purge skipped: %s", _first_line(error))
                purged = 0
            if purged:
                log.info("purged %d rosters deleted over %d days ago", purged,
                         services.RESTORE_DAYS)
            app.state.engine = engine
            reads = reads_for(engine, settings)
            if reads is not None:
                await reads.open()
            app.state.async_reads = reads
            app.state.loop_writes = writes_for(reads, settings)
            # Requests wait for one of these threads rather than each opening a connection
            # of its own beyond the pool (see Settings.threads).
            to_thread.current_default_thread_limiter().total_tokens = settings.threads
            # Everything made while starting (modules, catalogues, compiled templates) lives as
            # long as the process: keep it out of the garbage collector's full passes, which
            # otherwise walked it all every few requests and paused one for 100 ms or more.
            gc.collect()
            gc.freeze()
            # And pass less often: a request makes thousands of short-lived objects, so with
            # Python's thresholds (700, 10, 10) the young ones were walked several times a
            # request and everything kept since start-up about once a second (12 ms each,
            # editing flat out). Per request, with these: 2–9 % less CPU on every endpoint
            # (bench/compare.py, both databases); 20 000 young objects gained nothing more.
            gc.set_threshold(*GC_THRESHOLDS)
            yield
        finally:
            if reads is not None:
                await reads.close()
            engine.dispose()

    return lifespan


def _where(settings: Settings) -> str:
    return make_url(settings.db_url).render_as_string(hide_password=True)


# What the JSON export adds to a stored document (format, ruleset version, time), with room.
EXPORT_ENVELOPE_BYTES = 1024


def open_session(request: Request) -> Session:
    """A session on the app's engine, for a route that opens its own (one thread hop). It
    carries the largest document the app stores (`services.DocumentTooLarge`): one that can
    be sent back, as read or exported, within the request body limit."""
    engine: Engine | None = getattr(request.app.state, "engine", None)
    if engine is None:
        raise RuntimeError("the database is opened by the app's lifespan; start the app first")
    return Session(engine, expire_on_commit=False, info=storage_limits(request))


def storage_limits(request: Request) -> dict[str, Any]:
    """The bounds the storage services apply, from the app's settings (a session's info)."""
    settings: Settings | None = getattr(request.app.state, "settings", None)
    return {} if settings is None else {
        "max_document_bytes": settings.max_body_bytes - EXPORT_ENVELOPE_BYTES,
        "max_revisions": settings.max_revisions,
        "max_editing_browsers": settings.max_editing_browsers,
        "max_reading_browsers": settings.max_reading_browsers}


async def get_session(request: Request) -> AsyncIterator[Session]:
    """The request's session. Made on the event loop (that is only bookkeeping: the session
    connects when first used, in the route's worker thread); a sync generator here would cost
    two extra trips to a worker thread per request. Closing goes to a worker thread only when a
    transaction is still open, as ending one talks to the database."""
    session = open_session(request)
    try:
        yield session
    finally:
        if session.in_transaction():
            await run_in_threadpool(session.close)
        else:
            session.close()
