"""The creation limit: how many rosters one client address may create in a sliding window.

Creating a roster is open to anyone, so without a limit one script could fill the database.
The creations are recorded in the database (table `creation_log`), not in a process's memory,
so that every worker and every server sharing the database counts against the same total.

The window slides exactly: a creation at time `now` is admitted if and only if the client
made fewer than `limit` admitted creations at times t with now − window < t (a creation
exactly one window length ago no longer counts). Times are whole milliseconds, so the edges
compare exactly in Python and in SQL. Retry-After is the whole seconds (rounded up, at least
1) until the creation that keeps the window full leaves it — the oldest one in it, when it
holds exactly the limit: a creation at that second is admitted, one a second earlier is not,
if the address creates nothing meanwhile. Trying again sooner does not move it.

Deciding is one read of the client's `limit`-th latest creation in the window (none: there is
room), without a lock, so that a client over the limit is refused without taking the write
lock, and one that keeps trying does not hold up everyone else's writes; then, if there was
room, one write transaction that reads it again and records the creation. That transaction
is serialised per client (see `_serialise`), so two processes racing for the last place
cannot both take it. Only requests about to store a roster are counted, once their content
is accepted (app.services.create_roster's `admit`): a refused form, file or document costs
nothing. A refused creation (429) records nothing either: counting it would keep a client
that goes on trying, and everyone sharing its address, refused for as long as anyone there
tries, where the limit is meant to bound a rate.

Storage stays bounded: a client's rows older than the window are deleted when it creates, so
it never holds more than `limit`; on a client's first creation after a quiet window, every
client's rows older than the window are deleted too, so those of addresses that stopped
creating do not pile up.

The client is the peer address of the connection. Behind a reverse proxy that address is the
proxy's; `trusted_proxies` names the proxies whose X-Forwarded-For is then believed (uvicorn's
ProxyHeadersMiddleware does the reading). An IPv6 client is counted by its /64 network, since
one subscriber usually holds a whole /64.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from sqlalchemy import delete, exists, func, insert, select
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session

from app.domain.base import Lang
from app.domain.translations import tr
from app.storage.db import transaction as _transaction
from app.storage.tables import CreationLog

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
        return tr(lang, "Too many new rosters from your address (%(limit)s per %(span)s). Try "
                  "again in %(minutes)s min.", limit=self.limit,
                  span=_span(self.window_seconds, lang), minutes=minutes)


def _span(seconds: int, lang: Lang) -> str:
    if seconds % 3600 == 0:
        return tr(lang, "%(n)s h", n=seconds // 3600)
    if seconds % 60 == 0:
        return tr(lang, "%(n)s min", n=seconds // 60)
    return tr(lang, "%(n)s s", n=seconds)


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

    def take(self, session: Session, client: str, now: float | None = None) -> None:
        """Record one creation for `client`; raise CreationRefused, recording nothing, when
        it would be over the limit (see the module doc)."""
        if self.limit == 0:
            return
        now_ms = milliseconds(time.time() if now is None else now)
        since_ms = now_ms - self.window_seconds * 1000  # the window: since_ms < t
        key = client_key(client)
        with _transaction(session):
            blocker, _ = _latest(session, key, since_ms, self.limit)
        if blocker is None:
            blocker, active = _record(session, key, since_ms, now_ms, self.limit)
            if blocker is None:
                if not active:
                    _forget_past_windows(session, since_ms)
                return
            # Another process took the last place between the read and the write.
        raise CreationRefused(self.retry_after(blocker, now_ms), self.limit,
                              self.window_seconds)

    def retry_after(self, blocker_ms: int, now_ms: int) -> int:
        """Whole seconds from `now_ms` until the creation made at `blocker_ms` (the one that
        keeps the window full) leaves the window: then one more creation is admitted, if none
        is made meanwhile, and a second earlier it is not."""
        wait_ms = blocker_ms + self.window_seconds * 1000 - now_ms
        return max(1, -(-wait_ms // 1000))  # rounded up: at that second it has left


def milliseconds(moment: float) -> int:
    """A time in seconds since the epoch as whole milliseconds (rounded to the nearest, so
    that a time written in seconds with a decimal fraction is the millisecond it names)."""
    return round(moment * 1000)


def _latest(session: Session, client: str, since_ms: int, limit: int) -> tuple[int | None, bool]:
    """The time of the client's `limit`-th latest creation after `since_ms` (None: fewer, so
    there is room for one more), and whether it made any creation after `since_ms` at all.

    Only that one creation matters: the window is full until it leaves, whether the window
    holds exactly the limit (then it is the oldest) or more (after the limit was lowered). The
    window has no upper end: a creation recorded by a server whose clock runs a little ahead
    counts as well."""
    table = CreationLog.__table__
    in_window = (table.c.client == client, table.c.created_ms > since_ms)
    blocker = (select(table.c.created_ms).where(*in_window)
               .order_by(table.c.created_ms.desc()).limit(1).offset(limit - 1)
               .scalar_subquery())
    found, active = session.exec(select(blocker, exists().where(*in_window))).one()
    return (None if found is None else int(found)), bool(active)


def _record(session: Session, client: str, since_ms: int, now_ms: int,
            limit: int) -> tuple[int | None, bool]:
    """Record a creation at `now_ms` if the client has room for it in the window after
    `since_ms`: what `_latest` found in the same transaction, before recording."""
    table = CreationLog.__table__
    with _transaction(session, write=True):
        _serialise(session, client)
        blocker, active = _latest(session, client, since_ms, limit)
        if blocker is None:
            # The client's rows that left the window decide nothing any more; with them gone
            # it holds at most `limit` (fewer than the limit in the window, and this one).
            session.exec(delete(table).where(table.c.client == client,
                                             table.c.created_ms <= since_ms))
            session.exec(insert(table).values(client=client, created_ms=now_ms))
    return blocker, active


def _serialise(session: Session, client: str) -> None:
    """Make the rest of this write transaction the only one deciding for `client`, so that the
    read of its creations and the recording of a new one cannot be split by another process.

    SQLite: nothing more to do, the transaction was begun with the write lock (BEGIN
    IMMEDIATE, app.storage.db's WRITER), which serialises every writer of the file. PostgreSQL:
    no row can be locked, since what two racing processes would conflict on is the row each is about
    to insert; a transaction-level advisory lock on a 64-bit hash of the client key serialises
    that client's creations, and only them, and goes with the commit or rollback (or with a
    connection that dies). Two clients whose keys share a hash merely take turns. Each
    transaction holds this one lock and then touches only its own client's rows, and the clean-up
    of other clients' rows never waits for a row (`_forget_past_windows`): no deadlock."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.exec(select(func.pg_advisory_xact_lock(_lock_key(client))))
    elif dialect != "sqlite":
        raise NotImplementedError(f"the creation limit needs SQLite or PostgreSQL, not {dialect}")


def _lock_key(client: str) -> int:
    """The client's advisory lock: a signed 64-bit hash of its key (PostgreSQL's bigint)."""
    digest = hashlib.blake2b(client.encode(), digest_size=8, person=b"muster-creation").digest()
    return int.from_bytes(digest, "big", signed=True)


def _forget_past_windows(session: Session, since_ms: int) -> None:
    """Delete every client's creations that left the window (at or before `since_ms`). Run at
    a client's first creation after a quiet window, so the rows of addresses that stopped
    creating are cleared whenever an address starts; each address clears its own as it
    creates."""
    table = CreationLog.__table__
    # SKIP LOCKED (PostgreSQL; SQLite has no row locks and ignores it): rows another
    # transaction is deleting are left to it, so this never waits while holding row locks.
    stale = (select(table.c.id).where(table.c.created_ms <= since_ms)
             .with_for_update(skip_locked=True))
    try:
        with _transaction(session, write=True):
            session.exec(delete(table).where(table.c.id.in_(stale)))
    except DBAPIError:
        # Housekeeping only (the creation is recorded already): what is left is cleared next
        # time.
        log.info("old creations left for the next clean-up", exc_info=True)
