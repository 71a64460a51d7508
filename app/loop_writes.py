"""Writes made on the event loop, for the commonest write of all: the editor's change.

A change made from the version the worker keeps (services.latest) needs no read, only its one
write, and on PostgreSQL that write is one statement (the UPDATE with its revision). Everything
else it does is Python: apply the change, judge the roster, draw the answer. Made in a worker
thread, the trip there and back, and the threads and the event loop taking turns at the
interpreter lock, cost about a fifth of the change's CPU under load (bench/HISTORY.md). Here the
whole change runs on the event loop and only the statement waits, through psycopg's asyncio
pool, holding no thread. A change to a large roster still goes to a thread (see
app.routes.pages._edit_on_loop): its drawing would hold up everything else the worker serves.

SQLite has no such path: its writers take turns at the file (app.db._GroupCommit), and a
writer waiting for its turn must not wait on the event loop. Its changes, and every change
that is not made from a kept version, go to a worker thread as before.

Errors come out as SQLAlchemy's `OperationalError`, so a database that is away, or a pool
with no connection free in time, is answered 503 with Retry-After as everywhere else
(app/routes/health.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout
from sqlalchemy import Executable, exc

from app.async_reads import LoopReads, PostgresReads
from app.config import Settings
from app.db import driver_statement


def writes_for(reads: LoopReads | None, settings: Settings) -> PostgresWrites | None:
    """The event loop's writes: on PostgreSQL only, through the pool of its reads."""
    return PostgresWrites(reads, settings) if isinstance(reads, PostgresReads) else None


class PostgresWrites:
    """Writes through the event loop's pool of autocommit connections (app.async_reads, its
    size Settings.db_loop_connections): each statement is its own transaction, one round trip.
    Shared with the reads, so that a worker holds no more database connections than before
    these writes moved to the loop: the few worker threads and this pool."""

    def __init__(self, reads: PostgresReads, settings: Settings) -> None:
        self.engine, self.pool = reads.engine, reads.pool
        # The changes made on the loop at once, the rest waiting their turn in the order they
        # came, as the worker threads (Settings.threads) take them: let in all together, a
        # burst of changes was worked on side by side, each waiting for the others' Python,
        # and all of them were answered late (32 at once: up to 140 ms, where one by one the
        # first are answered at once and the last about as late as before).
        self.at_once = asyncio.Semaphore(settings.threads)

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
