"""Conditional GETs: an answer's ETag, and whether the client's copy (If-None-Match) is it."""

from __future__ import annotations

import hashlib

from starlette.requests import Request


def etag(version: int, lang: str, *varies: str) -> str:
    """The ETag of a page of one roster version in one language; `varies` is whatever else
    of the page is the browser's own (its CSRF token), folded in as a short digest."""
    if not varies:
        return f'"v{version}-{lang}"'
    mark = hashlib.sha256("\0".join(varies).encode()).hexdigest()[:12]
    return f'"v{version}-{lang}-{mark}"'


def fresh(request: Request, tag: str) -> bool:
    """Whether If-None-Match names `tag` (compared weakly, as RFC 9110 asks for GET)."""
    header = request.headers.get("if-none-match")
    if not header:
        return False
    if header.strip() == "*":
        return True
    return any(part.strip().removeprefix("W/") == tag for part in header.split(","))
