"""The creation limit: how many rosters one client address may create per time window.

Creating a roster is open to anyone, so without a limit one script could fill the database.
The counters live in the database (table `creation_window`), not in a process's memory, so
that every worker and every server sharing the database counts against the same total. The
window is fixed (numbered `seconds since the epoch // window length`); counting is one atomic
upsert that also returns the new count, so two processes racing for the last place cannot both
take it. Only requests about to store a roster are counted: a refused form or file costs
nothing, a refused creation (429) does.

The client is the peer address of the connection. Behind a reverse proxy that address is the
proxy's; `trusted_proxies` names the proxies whose X-Forwarded-For is then believed (uvicorn's
ProxyHeadersMiddleware does the reading). An IPv6 client is counted by its /64 network, since
one subscriber usually holds a whole /64.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException
from sqlalchemy import delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col
from starlette.requests import Request

from app.config import Settings
from app.db import WRITER
from app.models import CreationWindow
from app.rules.base import Lang, pick
from app.schemas import Failure

CLIENT_LENGTH = 64
log = logging.getLogger("muster.ratelimit")


class CreationRefused(Exception):
    """Over the limit; a new roster may be created again in `retry_after` seconds."""

    def __init__(self, retry_after: int, limit: int, window_seconds: int) -> None:
        super().__init__(f"over {limit} rosters per {window_seconds} s")
        self.retry_after = retry_after
        self.limit = limit
        self.window_seconds = window_seconds

    def message(self, lang: Lang) -> str:
        minutes = max(1, math.ceil(self.retry_after / 60))
        return pick(lang,
                    f"Too many new rosters from your address ({self.limit} per "
                    f"{_span(self.window_seconds, 'en')}). Try again in {minutes} min.",
                    f"Слишком много новых армий с вашего адреса ({self.limit} за "
                    f"{_span(self.window_seconds, 'ru')}). Попробуйте снова через {minutes} мин.")


def _span(seconds: int, lang: Lang) -> str:
    if seconds % 3600 == 0:
        return pick(lang, f"{seconds // 3600} h", f"{seconds // 3600} ч")
    if seconds % 60 == 0:
        return pick(lang, f"{seconds // 60} min", f"{seconds // 60} мин")
    return pick(lang, f"{seconds} s", f"{seconds} с")


def trusted_proxies(value: str) -> list[str]:
    """The `trusted_proxies` setting as a list of addresses and networks, each one checked
    (uvicorn would silently treat a mistyped address as a name that never matches)."""
    entries = [part.strip() for part in value.split(",") if part.strip()]
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError as error:
            raise ValueError(f"MUSTER_TRUSTED_PROXIES: {entry!r} is not an IP address or "
                             "network (write them comma-separated, e.g. '10.0.0.1, "
                             "10.1.0.0/16')") from error
    return entries


def client_key(host: str | None) -> str:
    """The counter's key for a client address: the address itself, or its /64 for IPv6."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:CLIENT_LENGTH]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass(frozen=True)
class CreationLimit:
    limit: int  # 0: no limit
    window_seconds: int

    @classmethod
    def from_settings(cls, settings: Settings) -> CreationLimit:
        return cls(settings.creation_limit, settings.creation_window_seconds)

    def take(self, session: Session, client: str, now: float | None = None) -> None:
        """Count one creation for `client`; raise CreationRefused when it is over the limit."""
        if self.limit == 0:
            return
        moment = time.time() if now is None else now
        index = int(moment // self.window_seconds)
        count = _count_one(session, client_key(client), index)
        if count > self.limit:
            retry_after = math.ceil((index + 1) * self.window_seconds - moment)
            raise CreationRefused(max(1, retry_after), self.limit, self.window_seconds)


def _count_one(session: Session, client: str, index: int) -> int:
    """Add one to the client's count in window `index` and return the new count."""
    table = CreationWindow.__table__
    dialect = session.get_bind().dialect.name
    if dialect not in ("sqlite", "postgresql"):
        raise NotImplementedError(f"the creation limit needs SQLite or PostgreSQL, not {dialect}")
    insert = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(table)
    upsert = (insert.values(client=client, window_index=index, count=1)
              .on_conflict_do_update(index_elements=["client", "window_index"],
                                     set_={"count": table.c.count + 1})
              .returning(table.c.count))
    with _writing(session):
        # One row, one lock: this transaction waits for nothing while holding it, so it cannot
        # take part in a deadlock.
        count = int(session.exec(upsert).scalar_one())
    if count == 1:
        _forget_past_windows(session, index)
    return count


def _forget_past_windows(session: Session, index: int) -> None:
    """Drop every client's counts of other windows (also those numbered under another window
    length, after a settings change). Run at each client's first creation in a window, so the
    table holds about one row per address active in the current or the last window."""
    table = CreationWindow.__table__
    try:
        with _writing(session):
            session.exec(delete(table).where(col(table.c.window_index) != index))
    except DBAPIError:
        # Two processes clearing at once may deadlock on PostgreSQL; one of them is enough,
        # and the rows left are cleared next time.
        log.info("old creation counts left for the next clean-up", exc_info=True)


@contextmanager
def _writing(session: Session) -> Iterator[None]:
    if session.in_transaction():
        session.commit()
    # SQLite: take the write lock at BEGIN, so the upsert cannot deadlock on a lock upgrade.
    session.connection(execution_options={WRITER: True})
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise


def take_creation(request: Request, session: Session) -> None:
    """Count a roster about to be created for the request's client (see the module doc)."""
    limit: CreationLimit = request.app.state.creation_limit
    limit.take(session, request.client.host if request.client else "")


# What the JSON API answers over the limit, and how /docs describes it.
TOO_MANY: dict[int | str, dict[str, Any]] = {429: {
    "model": Failure,
    "description": "Too many rosters created from this address; try again after Retry-After",
    "headers": {"Retry-After": {"description": "seconds until a roster may be created again",
                                "schema": {"type": "integer"}}}}}


def admit_api(request: Request, session: Session, lang: Lang) -> None:
    """take_creation for the JSON API: over the limit, 429 with Retry-After."""
    try:
        take_creation(request, session)
    except CreationRefused as refused:
        raise HTTPException(429, refused.message(lang),
                            headers={"Retry-After": str(refused.retry_after)}) from refused
