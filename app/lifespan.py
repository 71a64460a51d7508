"""The app's lifespan: open the database when the app starts (migrate, purge expired
deletions, share the engine), dispose of it when the app stops."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from anyio import to_thread
from fastapi import FastAPI
from sqlalchemy import exc
from sqlalchemy.engine import make_url
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.config import Settings
from app.services import rosters
from app.services.stored_rosters import RESTORE_DAYS
from app.storage.db import UNAVAILABLE, first_line, make_engine, migrate

log = logging.getLogger("muster.db")


def storage_lifespan(
    settings: Settings,
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Open the database when the app starts: migrate, purge expired deletions, share the engine."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings)
        try:
            if settings.migrate_on_start:
                try:
                    await run_in_threadpool(migrate, engine)
                except UNAVAILABLE as error:
                    log.error("cannot migrate %s on start: %s", _where(settings),
                              first_line(error))
                    raise
            try:
                with Session(engine) as session:
                    purged = await run_in_threadpool(rosters.purge_deleted, session)
            except exc.SQLAlchemyError as error:
                # Housekeeping: the next start (or `muster purge`) does it. A server without its
                # database, or started before `muster migrate`, still starts, answers 503 where
                # it must and reports itself not ready.
                log.warning("purge skipped: %s", first_line(error))
                purged = 0
            if purged:
                log.info("purged %d rosters deleted over %d days ago", purged,
                         RESTORE_DAYS)
            app.state.engine = engine
            # Requests wait for one of these threads rather than each opening a connection
            # of its own beyond the pool (see Settings.threads).
            to_thread.current_default_thread_limiter().total_tokens = settings.threads
            yield
        finally:
            engine.dispose()

    return lifespan


def _where(settings: Settings) -> str:
    return make_url(settings.db_url).render_as_string(hide_password=True)
