"""The creation limit: how many rosters one client address may create in a sliding window.

Creating a roster is open to anyone, so without a limit one script could fill the database.
The counters live in the database (table `creation_window`), not in a process's memory, so
that every worker and every server sharing the database counts against the same total.

The window slides: a creation is admitted while the client's creations in the last window
length, estimated as `previous × (1 − elapsed share of the current window) + current`, stay
within the limit. `current` and `previous` are the client's counts in the current and the
previous fixed window (numbered `seconds since the epoch // window length`); the estimate
takes the previous window's creations as spread evenly over it, the usual approximation of a
sliding window by two counters. A fixed window alone let a client create twice the limit in a
few seconds around a window's end; here the creations just before the boundary still weigh
fully just after it, and their weight falls to nothing over the next window.

Counting is one read of the two counts, then one atomic upsert that adds one to the current
count only while it stays under what the previous count leaves room for, and returns the new
count: two processes racing for the last place cannot both take it. Only requests about to
store a roster are counted, once their content is accepted (app.services.create_roster's
`admit`): a refused form, file or document costs nothing. A refused creation (429) costs
nothing either: counting it would keep a client that goes on trying, and everyone sharing
its address, refused for as long as anyone there tries, where the limit is meant to bound a
rate. Retry-After is the time until the estimate leaves room for one more creation, if the
address creates nothing meanwhile; trying again sooner does not move it.

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
from fractions import Fraction
from typing import Any

from fastapi import HTTPException
from sqlalchemy import delete, select
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
        """Count one creation for `client`; raise CreationRefused, counting nothing, when it
        would be over the limit (see the module doc)."""
        if self.limit == 0:
            return
        # Exact arithmetic: Retry-After must admit at its second, and not a second earlier.
        moment = Fraction(time.time() if now is None else now)
        index = math.floor(moment / self.window_seconds)
        left = (index + 1) * self.window_seconds - moment  # seconds left of the current window
        key = client_key(client)
        previous, current = _counts(session, key, index)
        most = self.most(previous, left)
        if current < most:
            if _count_one(session, key, index, most):
                return
            # Another process took the last place between the read and the upsert.
            previous, current = _counts(session, key, index)
        raise CreationRefused(self.retry_after(previous, current, left), self.limit,
                              self.window_seconds)

    def most(self, previous: int, left: Fraction) -> int:
        """How many creations the current window may hold `left` seconds before its end: the
        limit, less the previous window's count weighted by the share of it still inside the
        sliding window."""
        return math.floor(self.limit - previous * left / self.window_seconds)

    def retry_after(self, previous: int, current: int, left: Fraction) -> int:
        """Whole seconds until one more creation is admitted, if none is made meanwhile."""
        return max(1, math.ceil(self._wait(previous, current, left)))

    def _wait(self, previous: int, current: int, left: Fraction) -> Fraction:
        window = self.window_seconds
        room = self.limit - current - 1  # what the previous window may weigh for one more
        if room >= 0:
            if previous == 0:
                return Fraction(0)  # room already (a race lost in `take` may find that)
            # In this window, as the previous one's weight falls: previous × (left − wait) /
            # window ≤ room, at the window's end at the latest (room 0).
            return max(Fraction(0), left - Fraction(room * window, previous))
        # Only in the next window, where this window's count becomes the previous one and
        # nothing is counted yet: current × (window − into) / window ≤ limit − 1. With a limit
        # of 1 that is the next window's end, where the previous count is nothing.
        into = window - Fraction((self.limit - 1) * window, current)
        return left + into


def _counts(session: Session, client: str, index: int) -> tuple[int, int]:
    """The client's counts in the previous window and in window `index`."""
    table = CreationWindow.__table__
    read = select(table.c.window_index, table.c.count).where(
        table.c.client == client, col(table.c.window_index).in_((index - 1, index)))
    with _transaction(session):
        counts = {int(window): int(count) for window, count in session.exec(read).all()}
    return counts.get(index - 1, 0), counts.get(index, 0)


def _count_one(session: Session, client: str, index: int, most: int) -> bool:
    """Add one to the client's count in window `index` unless it holds `most` already
    (`most` ≥ 1); whether it did."""
    table = CreationWindow.__table__
    dialect = session.get_bind().dialect.name
    if dialect not in ("sqlite", "postgresql"):
        raise NotImplementedError(f"the creation limit needs SQLite or PostgreSQL, not {dialect}")
    insert = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(table)
    # The condition is checked on the row as it stands when the upsert locks it, so of two
    # processes racing for the last place only one takes it; the loser gets no row back.
    upsert = (insert.values(client=client, window_index=index, count=1)
              .on_conflict_do_update(index_elements=["client", "window_index"],
                                     set_={"count": table.c.count + 1},
                                     where=table.c.count < most)
              .returning(table.c.count))
    with _transaction(session, write=True):
        # One row, one lock: this transaction waits for nothing while holding it, so it cannot
        # take part in a deadlock.
        count = session.exec(upsert).scalar_one_or_none()
    if count == 1:
        _forget_past_windows(session, index)
    return count is not None


def _forget_past_windows(session: Session, index: int) -> None:
    """Drop every client's counts of windows before the previous one (also those numbered
    under another window length, after a settings change). Run at each client's first
    creation in a window, so the table holds about one row per address active in the last two
    windows (the previous window's count is still read)."""
    table = CreationWindow.__table__
    try:
        with _transaction(session, write=True):
            session.exec(delete(table).where(
                col(table.c.window_index).not_in((index - 1, index))))
    except DBAPIError:
        # Two processes clearing at once may deadlock on PostgreSQL; one of them is enough,
        # and the rows left are cleared next time.
        log.info("old creation counts left for the next clean-up", exc_info=True)


@contextmanager
def _transaction(session: Session, *, write: bool = False) -> Iterator[None]:
    if session.in_transaction():
        session.commit()
    if write:
        # SQLite: take the write lock at BEGIN, so the upsert cannot deadlock on a lock upgrade.
        session.connection(execution_options={WRITER: True})
    elif session.get_bind().dialect.name != "sqlite":
        # A read of one statement: without a transaction it is one round trip, not three.
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
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
