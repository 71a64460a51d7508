"""Reads made on the event loop, for the hottest read of all: a share view's version.

Each share view asks the database for its roster's version and, almost always, answers a page
drawn before (app/web/share_views.py). Under load, a trip to a worker thread and back to make
that read cost more of the server's CPU than everything else the view does: the threads and
the event loop take turns at the interpreter lock for every request. So the read is made on
the event loop:

- PostgreSQL: through psycopg's own asyncio connection pool. Waiting for the database holds no
  thread and blocks nothing, so a stalled database cannot stop `/healthz` or anything else.
  The share views that ask while other reads are out are read together, in one statement
  (Together): under load that halved the server's CPU per view and doubled the views a
  worker serves, where each view's own round trip had kept the workers waiting.
- SQLite: aiosqlite would be a thread per connection, the same trip; but the read is a lookup
  by primary key in a local file, tens of microseconds, so it is made by a connection of
  the event loop's own that only reads, right there. In WAL mode a reader never waits for a
  writer; should the file be busy all the same (a recovery after a crash), it does not wait
  on the event loop: that read goes to a worker thread as before.

Errors come out as SQLAlchemy's `OperationalError`, so a database that is away, or a pool
with no connection free in time, is answered 503 with Retry-After as everywhere else
(app/routes/health.py).
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from pathlib import Path
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy import Engine, exc
from sqlalchemy.sql import Select
from starlette.concurrency import run_in_threadpool

from app.config import Settings
from app.db import driver_statement, read_one, sqlite_path


def reads_for(engine: Engine, settings: Settings) -> LoopReads | None:
    """The event loop's reads of the engine's database; None for a SQLite database in
    memory (no file a second connection could open)."""
    if engine.dialect.name == "postgresql":
        return PostgresReads(engine, settings)
    path = sqlite_path(settings.db_url)
    return SqliteReads(engine, path) if path is not None else None


class PostgresReads:
    """PostgreSQL: a small pool of autocommit connections used from the event loop only (its
    writes share it: app/loop_writes.py)."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        # libpq takes SQLAlchemy's URL without the driver's name; options such as a
        # search_path in the query string pass through as they are.
        conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.pool = AsyncConnectionPool(
            conninfo, open=False, min_size=1, max_size=settings.db_loop_connections,
            timeout=settings.db_pool_timeout, name="muster-event-loop",
            kwargs={"autocommit": True, "connect_timeout": settings.db_connect_timeout},
            # A connection the database dropped meanwhile is replaced before use, as the
            # engine's pre-ping does, so that the first read after an outage is answered.
            check=AsyncConnectionPool.check_connection if settings.db_pre_ping else None)
        self.together: dict[Select[Any], Together] = {}

    async def open(self) -> None:
        # Without waiting: a server whose database is away still starts (and says so).
        await self.pool.open(wait=False)

    async def close(self) -> None:
        await self.pool.close()

    async def by_key(self, one: Select[Any], many: Select[Any],
                     params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The row `one` reads for the one key in `params` (its first column the key), or
        None, with its values as SQLAlchemy gives them. `many` is the same read for a list of
        keys (its one parameter): the keys asked for while other reads are out are read by it
        together (Together); a key asked for alone is read by it at once."""
        together = self.together.get(many)
        if together is None:
            together = self.together[many] = Together(self, many)
        [key] = params.values()
        return await together.row(key)

    async def all(self, statement: Select[Any], params: dict[str, Any]) -> list[tuple[Any, ...]]:
        """The rows of a one-statement read, with their values as SQLAlchemy gives them."""
        prepared = driver_statement(statement, self.engine.dialect)
        arguments = prepared.arguments(params)
        try:
            async with self.pool.connection() as connection:
                cursor = await connection.execute(prepared.sql, arguments)
                found = await cursor.fetchall()
        except (psycopg.Error, PoolTimeout) as error:
            # A broken connection is not given back to the pool by psycopg_pool.
            raise exc.OperationalError(prepared.sql, params, error) from error
        return [prepared.row(row) for row in found]


class Together:
    """One read for many keys, made once for all the requests that ask for it meanwhile.

    Under load most share views wait for one of the few pooled connections, and each read is
    a round trip that wakes a PostgreSQL backend. Here a request that finds every connection's
    worth of reads out leaves its key with the next read instead: while a read is out, the
    keys asked for meanwhile gather, and the next read asks for all of them at once, up to
    `most` keys (the oldest first; the rest go with the read after). A request alone is read
    at once, as before."""

    # Keys in one read: a few thousand waiting views would otherwise make one statement of a
    # few thousand ids, answered only when all of it is, and a parameter list without bound.
    most = 500

    def __init__(self, reads: PostgresReads, statement: Select[Any]) -> None:
        self.reads, self.statement = reads, statement
        [self.param] = statement.compile().params  # the one parameter: the list of keys
        self.waiting: dict[Any, list[asyncio.Future[tuple[Any, ...] | None]]] = {}
        self.out = 0  # reads out now: at most one per pooled connection
        self.running: set[asyncio.Task[None]] = set()  # held, or they could be collected

    async def row(self, key: Any) -> tuple[Any, ...] | None:
        answer: asyncio.Future[tuple[Any, ...] | None] = \
            asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, []).append(answer)
        if self.out < self.reads.pool.max_size:
            self.out += 1
            task = asyncio.get_running_loop().create_task(self._read())
            self.running.add(task)
            task.add_done_callback(self.running.discard)
        return await answer

    async def _read(self) -> None:
        try:
            while self.waiting:
                if len(self.waiting) <= self.most:
                    asked, self.waiting = self.waiting, {}
                else:  # dicts keep their order: the keys asked for first are read first
                    asked = {key: self.waiting.pop(key)
                             for key in list(itertools.islice(self.waiting, self.most))}
                try:
                    rows = await self.reads.all(self.statement, {self.param: list(asked)})
                    found = {row[0]: row for row in rows}
                    for key, answers in asked.items():
                        for answer in answers:
                            if not answer.done():  # not given up by its request meanwhile
                                answer.set_result(found.get(key))
                except BaseException as error:
                    # Whatever went wrong, no request is left waiting: each is answered with
                    # the error (a database away is a 503), or cancelled with this read when
                    # the server stops.
                    for answers in asked.values():
                        for answer in answers:
                            if answer.done():
                                continue
                            if isinstance(error, asyncio.CancelledError):
                                answer.cancel()
                            else:
                                answer.set_exception(error)
                    if not isinstance(error, Exception):
                        raise
        finally:
            self.out -= 1


class SqliteReads:
    """SQLite: one connection that only reads, opened on first use by the event loop's thread
    (the driver refuses it to any other)."""

    def __init__(self, engine: Engine, path: Path) -> None:
        self.engine, self.path = engine, path
        self.connection: sqlite3.Connection | None = None

    async def open(self) -> None:
        pass  # on first use: the file may not exist before the first migration

    async def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path)
        connection.execute("PRAGMA busy_timeout = 0")  # never wait on the event loop
        connection.execute("PRAGMA query_only = 1")  # reads, whatever a bug might send
        return connection

    async def by_key(self, one: Select[Any], many: Select[Any],
                     params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The row `one` reads for the key in `params`, or None, with its values as
        SQLAlchemy gives them. Each read is made at once by `one` (`many` is not needed: a
        read of a local file takes tens of microseconds and no round trip)."""
        prepared = driver_statement(one, self.engine.dialect)
        arguments = prepared.arguments(params)
        try:
            if self.connection is None:
                self.connection = self._connect()
            cursor = self.connection.execute(prepared.sql, arguments)
            try:
                row = cursor.fetchone()
            finally:
                cursor.close()  # ends the read: an open one would hold back checkpoints
        except sqlite3.Error:
            # Busy, or not readable here: the read the worker threads make, which waits as
            # long as a writer may hold the file and reports a failure as every read does.
            await self.close()
            return await run_in_threadpool(read_one, self.engine, one, params)
        return None if row is None else prepared.row(row)


LoopReads = PostgresReads | SqliteReads
