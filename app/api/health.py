"""Operations: liveness, readiness, and the answer a request gets while the database is away.

`/healthz` says the process is up and answering (restart it when this fails); `/readyz` says it
can serve requests that need the database (send it traffic only while this passes). A load
balancer or orchestrator polls them; neither needs a key, neither changes anything.

A request that needs the database while it is down, cut off or out of connections gets 503
with `Retry-After`, as JSON under /api and as a short page elsewhere; the connection pool checks
connections before use, so service resumes by itself once the database is back.
"""

from __future__ import annotations

import logging
from html import escape
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from app import __version__
from app.domain.base import Lang
from app.domain.translations import tr
from app.http.deps import readiness
from app.http.errors import Failure, refusal_body
from app.http.language import lang_of, request_lang
from app.http.query import DOCUMENTED_QUERY

router = APIRouter(tags=["operations"], dependencies=[DOCUMENTED_QUERY])
log = logging.getLogger("muster.health")
RETRY_AFTER_SECONDS = 5


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up (and the trivial endpoint benchmarks compare against). Touches no
    database, so a database outage does not get healthy servers restarted."""
    # Async on purpose: answered on the event loop, it does not wait for a worker thread, and
    # those may all be held by requests waiting for a stalled database. It also makes it the
    # bare endpoint that bench/load.py compares the others with.
    return {"status": "ok"}


@router.get("/readyz", responses={503: {"description": "database unreachable or not migrated"}})
async def readyz(request: Request) -> JSONResponse:
    """Ready for traffic: the database answers and its schema is at this release's head."""
    state = await run_in_threadpool(readiness, request)
    if state is None:
        return JSONResponse({"status": "unavailable", "version": __version__,
                             "problem": "starting: the database is not open yet"}, 503)
    body: dict[str, Any] = {
        "status": "ready" if state.ready else "unavailable",
        "version": __version__,
        "database": {"backend": state.backend, "reachable": state.reachable},
        "migrations": {"current": list(state.current), "head": list(state.head),
                       "at_head": state.current == state.head},
    }
    if state.problem:
        body["problem"] = state.problem
    return JSONResponse(body, 200 if state.ready else 503,
                        headers={"Cache-Control": "no-store"})


def _message(lang: Lang) -> tuple[str, str]:
    return (tr(lang, "Database unavailable"),
            tr(lang, "The database cannot be reached just now. Nothing was changed; try again in "
               "a few seconds."))


def _unavailable_page(lang: Lang, title: str, text: str, request_id: str) -> str:
    again, request = tr(lang, "Try again"), tr(lang, "Request")
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{escape(title)} · Muster</title>\n"
            f'<link rel="stylesheet" href="/static/css/app.css">\n</head>\n<body>\n'
            f'<main id="main">\n<h1>{escape(title)}</h1>\n<p>{escape(text)}</p>\n'
            f'<p><a href="">{escape(again)}</a></p>\n'
            f"<p><small>{escape(request)} {escape(request_id)}</small>"
            f"</p>\n</main>\n</body>\n</html>\n")


async def database_unavailable(request: Request, error: Exception) -> Response:
    """The answer to a request that needed the database while it was away (app/main.py
    registers it for app.storage.db.UNAVAILABLE)."""
    request_id = str(getattr(request.state, "request_id", "") or "")
    log.warning("database unavailable: %s: %s", type(error).__name__,
                (str(getattr(error, "orig", None) or error).strip().splitlines() or [""])[0])
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    if request.url.path.startswith("/api/"):
        title, text = _message(lang_of(request))
        return JSONResponse(refusal_body(text), 503, headers=headers)
    lang = request_lang(request)
    title, text = _message(lang)
    return HTMLResponse(_unavailable_page(lang, title, text, request_id), 503, headers=headers)


# How /docs describes that answer on every API route that reads or writes the database.
UNAVAILABLE_ANSWER: dict[int | str, dict[str, Any]] = {503: {
    "model": Failure, "description": "The database cannot be reached just now; nothing was "
                                     "changed",
    "headers": {"Retry-After": {"description": "Seconds to wait before trying again",
                                "required": True, "schema": {"type": "integer"}}}}}

