"""Reads made on the event loop, for the hottest read of all: a share view's version.

Each share view asks the database for its roster's version and, almost always, answers a page
drawn before (app/web/share_views.py). Under load, a trip to a worker thread and back to make
that read cost more of the server's CPU than everything else the view does: the threads and
the event loop take turns at the interpreter lock for every request. On PostgreSQL the read
is made on the event loop instead, through psycopg's own asyncio connection pool: waiting for
the database holds no thread and blocks nothing, so a stalled database still cannot stop
`/healthz` or a kept page of SQLite answering.

SQLite has no asyncio driver of its own (aiosqlite is a thread per connection, the same trip),
so there the read stays in a worker thread (`AsyncReads.of` gives None).

Errors come out as SQLAlchemy's `OperationalError`, so a database that is away, or a pool
with no connection free in time, is answered 503 with Retry-After as everywhere else
(app/routes/health.py).
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy import Engine, exc
from sqlalchemy.sql import Select

from app.config import Settings
from app.db import driver_statement

log = logging.getLogger("muster.db")


class AsyncReads:
    """A small pool of autocommit connections used from the event loop only."""

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

    @classmethod
    def of(cls, engine: Engine, settings: Settings) -> AsyncReads | None:
        return cls(engine, settings) if engine.dialect.name == "postgresql" else None

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
