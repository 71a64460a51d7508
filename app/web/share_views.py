"""Drawn share views, kept per roster version.

A share link is read far more often than its roster changes, and drawing the page (pricing,
judging, the template) is nearly all of its cost. A drawn page is kept under the roster's id
and version, the page language and what of the address the page shows (the site as it was
reached, or MUSTER_PUBLIC_URL whatever the Host when the operator sets it, and a language asked
for in the query: any other query string is left out of the key and of the page), so a change
(a new version) or a deletion (no live version) is never answered from here, and `?x=1`,
`?x=2` … neither draw a page again nor push others out. The browser's CSRF token, the one thing
on the page that differs between visitors, is drawn as a mark and put in on the way out. Each
process keeps at most MAX_BYTES of pages, least recently used dropped first.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import ARRAY, Engine, String, any_, bindparam, select
from starlette.responses import HTMLResponse, Response

from app.db import read_one
from app.kept import Kept
from app.models import Roster

if TYPE_CHECKING:
    from app.async_reads import LoopReads

MAX_BYTES = 8 * 1024 * 1024
# Drawn where the CSRF token goes; random, so no roster text can contain it.
CSRF_MARK = f"csrf-{secrets.token_hex(16)}"

Key = tuple[str, int, str, str]  # roster id, version, language, address the page shows


@dataclass(frozen=True)
class Drawn:
    body: bytes  # with CSRF_MARK for the token
    headers: dict[str, str]  # those of the drawn answer a page must repeat (Vary)

    @classmethod
    def of(cls, response: Response) -> Drawn:
        return cls(bytes(response.body), {"Vary": response.headers.get("vary", "Cookie")})


_pages: Kept[Key, Drawn] = Kept(MAX_BYTES, weigh=lambda drawn: len(drawn.body))


# Both reads give (id, version, deleted_at); the second is the same for many rosters at once,
# on PostgreSQL: the event loop's reads make the share views that ask at the same moment one
# read (app/async_reads.py, Together).
_ROW = (Roster.id, Roster.version, Roster.deleted_at)
_VERSION = select(*_ROW).where(Roster.id == bindparam("roster_id"))
_VERSIONS = select(*_ROW).where(Roster.id == any_(bindparam("roster_ids", type_=ARRAY(String))))


# What live_version gives for a roster that was deleted (no roster has version 0): the same
# read tells it from one that never was, so the share view can say so (410) at no extra cost.
DELETED = 0


def live_version(engine: Engine, roster_id: str) -> int | None:
    """The roster's current version; DELETED when it was deleted, None when there is no
    roster by this id."""
    # Every share view asks this: straight to the driver (app/db.py), which more than
    # doubled the throughput of kept pages.
    return _live(read_one(engine, _VERSION, {"roster_id": roster_id}))


async def live_version_on_loop(reads: LoopReads, roster_id: str) -> int | None:
    """live_version, read on the event loop (app/async_reads.py)."""
    return _live(await reads.by_key(_VERSION, _VERSIONS, {"roster_id": roster_id}))


def _live(row: tuple[Any, ...] | None) -> int | None:
    if row is None:
        return None
    if row[2] is not None:
        return DELETED
    return int(row[1])


def get(key: Key) -> Drawn | None:
    return _pages.get(key)


def put(key: Key, drawn: Drawn) -> None:
    if len(drawn.body) <= MAX_BYTES // 8:  # one huge roster must not push out all the others
        _pages.put(key, drawn)


def answer(drawn: Drawn, csrf: str) -> HTMLResponse:
    """The drawn page for one browser: its CSRF token in place of the mark."""
    return HTMLResponse(drawn.body.replace(CSRF_MARK.encode(), csrf.encode()),
                        headers=drawn.headers)


def clear() -> None:
    _pages.clear()
