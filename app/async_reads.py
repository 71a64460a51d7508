"""Reads made on the event loop, for the hottest read of all: a share view's version.

Each share view asks the database for its roster's version and, almost always, answers a page
drawn before (app/web/share_views.py). Under load, a trip to a worker thread and back to make
that read cost more of the server's CPU than everything else the view does: the threads and
the event loop take turns at the interpreter lock for every request. So the read is made on
the event loop:

- PostgreSQL: through psycopg's own asyncio connection pool. Waiting for the database holds no
  thread and blocks nothing, so a stalled database cannot stop `/healthz` or anything else.
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
    """PostgreSQL: a small pool of autocommit connections used from the event loop only."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        # libpq takes SQLAlchemy's URL without the driver's name; options such as a
        # search_path in the query string pass through as they are.
        conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.pool = AsyncConnectionPool(
            conninfo, open=False, min_size=1, max_size=settings.db_async_read_connections,
            timeout=settings.db_pool_timeout, name="muster-async-reads",
            kwargs={"autocommit": True, "connect_timeout": settings.db_connect_timeout},
            # A connection the database dropped meanwhile is replaced before use, as the
            # engine's pre-ping does, so that the first read after an outage is answered.
            check=AsyncConnectionPool.check_connection if settings.db_pre_ping else None)

    async def open(self) -> None:
        # Without waiting: a server whose database is away still starts (and says so).
        await self.pool.open(wait=False)

    async def close(self) -> None:
        await self.pool.close()

    async def one(self, statement: Select[Any], params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of a one-statement read, with its values as SQLAlchemy gives them."""
        prepared = driver_statement(statement, self.engine.dialect)
        arguments = prepared.arguments(params)
        try:
            async with self.pool.connection() as connection:
                cursor = await connection.execute(prepared.sql, arguments)
                row = await cursor.fetchone()
        except (psycopg.Error, PoolTimeout) as error:
            # A broken connection is not given back to the pool by psycopg_pool.
            raise exc.OperationalError(prepared.sql, params, error) from error
        return None if row is None else prepared.row(row)


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

    async def one(self, statement: Select[Any], params: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first row of a one-statement read, with its values as SQLAlchemy gives them."""
        prepared = driver_statement(statement, self.engine.dialect)
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
            return await run_in_threadpool(read_one, self.engine, statement, params)
        return None if row is None else prepared.row(row)


LoopReads = PostgresReads | SqliteReads
