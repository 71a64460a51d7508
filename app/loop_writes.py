"""Writes made on the event loop, for the commonest write of all: the editor's change.

A change made from the version the worker keeps (services.latest) needs no read, only its one
write, and on PostgreSQL that write is one statement (the UPDATE with its revision). Everything
else it does is Python: apply the change, judge the roster, draw the answer. Made in a worker
thread, the trip there and back, and the threads and the event loop taking turns at the
interpreter lock, cost about a tenth of the change's CPU under load (README, Speed). Here the
whole change runs on the event loop and only the statement waits, through psycopg's asyncio
pool, holding no thread.

SQLite has no such path: its writers take turns at the file (app.db._GroupCommit), and a
writer waiting for its turn must not wait on the event loop. Its changes, and every change
that is not made from a kept version, go to a worker thread as before.

Errors come out as SQLAlchemy's `OperationalError`, so a database that is away, or a pool
with no connection free in time, is answered 503 with Retry-After as everywhere else
(app/routes/health.py).
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout
from sqlalchemy import Engine, Executable, exc

from app.config import Settings
from app.db import driver_statement


def writes_for(engine: Engine, settings: Settings) -> PostgresWrites | None:
    """The event loop's writes to the engine's database: on PostgreSQL only."""
    return PostgresWrites(engine, settings) if engine.dialect.name == "postgresql" else None


class PostgresWrites:
    """A small pool of autocommit connections used from the event loop only: each statement
    is its own transaction, one round trip."""

    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        conninfo = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.pool = AsyncConnectionPool(
            # As many as the worker threads, which made these writes before: the database
            # sees no more writers at once than it did.
            conninfo, open=False, min_size=1, max_size=settings.threads,
            timeout=settings.db_pool_timeout, name="muster-loop-writes",
            kwargs={"autocommit": True, "connect_timeout": settings.db_connect_timeout},
            check=AsyncConnectionPool.check_connection if settings.db_pre_ping else None)

    async def open(self) -> None:
        # Without waiting: a server whose database is away still starts (and says so).
        await self.pool.open(wait=False)

    async def close(self) -> None:
        await self.pool.close()

    async def one(self, statement: Executable, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """Run one statement as its own transaction; the first row it returns (with its
        values as SQLAlchemy gives them), or None."""
        prepared = driver_statement(statement, self.engine.dialect)
        arguments = prepared.arguments(params)
        try:
            async with self.pool.connection() as connection:
                cursor = await connection.execute(prepared.sql, arguments)
                row = await cursor.fetchone() if cursor.description is not None else None
        except (psycopg.Error, PoolTimeout) as error:
            # A broken connection is not given back to the pool by psycopg_pool.
            raise exc.OperationalError(prepared.sql, params, error) from error
        return None if row is None else prepared.row(row)
