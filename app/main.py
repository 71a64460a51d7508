"""The application factory: middleware, routers, static files, and the answers to what the
services refuse with (as JSON under /api/, as pages elsewhere)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app import __version__
from app.api import (
    calculators,
    docs,
    exports,
    health,
    pricing,
    refusals,
    roster_edits,
    rosters,
)
from app.api import events as events_api
from app.api import games as games_api
from app.config import Settings, get_settings
from app.domain.translations import tr
from app.http import errors
from app.http.allowed_methods import AllowedMethods, every_route
from app.http.cross_site import CrossSiteWrites
from app.http.language import lang_of
from app.http.limits import BodySizeLimit
from app.http.observability import RequestLog, configure_logging
from app.http.security_headers import HEADERS as SECURITY_HEADERS
from app.http.security_headers import SecurityHeaders
from app.lifespan import storage_lifespan
from app.services.creation_limit import CreationLimit, CreationRefused, trusted_proxies
from app.services.errors import DocumentTooLarge, RosterNotFound
from app.services.events import EventNotFound
from app.services.games import GameNotFound
from app.storage.db import UNAVAILABLE, StorageLimits
from app.web import (
    changes,
    deletion,
    editor,
    event_forms,
    game_forms,
    home,
    i18n,
    pages,
    share,
    sheet,
)
from app.web import events as event_pages
from app.web import games as games_pages
from app.web.calculators import router as calculator_pages
from app.web.templating import STATIC_DIR, HashedStaticFiles


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    configure_logging(settings)
    app = FastAPI(title="Muster", version=__version__,
                  description="Army builder and points calculator for Chainmail and more.",
                  lifespan=storage_lifespan(settings),
                  # /docs is served by app/api/docs.py, within the CSP; no ReDoc.
                  docs_url=None, redoc_url=None, swagger_ui_oauth2_redirect_url=None)
    app.state.settings = settings
    # The site's address for the links pages write (app/web/templating.py, site_address).
    app.state.public_url = settings.public_url
    app.state.creation_limit = CreationLimit(settings.creation_limit,
                                             settings.creation_window_seconds)
    # Carried by every session the app opens (app/http/deps.py, open_session).
    app.state.storage_limits = StorageLimits.from_settings(settings)
    errors.install(app, missing_page=pages.nothing_here, deleted_page=deletion.deleted_page)
    _answer_refusals(app)
    _answer_failures(app)
    _include_routes(app)
    _add_middleware(app, settings)
    return app


Answer = Callable[[Request, Any], Response]


def _by_address(api: Answer, page: Answer) -> Callable[[Request, Any], Awaitable[Response]]:
    """A handler that answers as the API does under /api/ and with a page, in the page's
    language, elsewhere."""

    async def answer(request: Request, exc: Any) -> Response:
        if request.url.path.startswith("/api/"):
            return api(request, exc)
        i18n.use_lang(i18n.request_lang(request))
        return page(request, exc)

    return answer


def _page(answer: Callable[[Request], Response]) -> Answer:
    return lambda request, _exc: answer(request)


async def _refused_page(request: Request, refusal: pages.PageRefusal) -> Response:
    """A page's refusal made by a dependency before its route ran (an expired form...)."""
    return refusal.response


def _answer_refusals(app: FastAPI) -> None:
    """What the services refuse with, wherever a route leaves it to be answered: a roster not
    there or deleted (404, 410), a game or an event not there (404), a creation over the limit
    (429)."""
    for kind, api, page in (
            (RosterNotFound, refusals.roster_missing, pages.gone_roster),
            (GameNotFound, refusals.game_missing, _page(game_forms.missing)),
            (EventNotFound, refusals.event_missing, _page(event_pages.missing)),
            (CreationRefused, refusals.too_many, pages.limit_refusal)):
        app.add_exception_handler(kind, _by_address(api, page))
    app.add_exception_handler(pages.PageRefusal, _refused_page)
    for kind in UNAVAILABLE:  # the database away: 503, as JSON or as a page by itself
        app.add_exception_handler(kind, health.database_unavailable)


def _answer_failures(app: FastAPI) -> None:
    """The answers to what the routes raise and nothing else handles."""

    @app.exception_handler(DocumentTooLarge)
    async def _too_large(request: Request, exc: DocumentTooLarge) -> JSONResponse:
        # Stored, it could not be sent back within the body limit (read, then PUT; exported,
        # then imported): refused as a body over the limit is. Pages word it themselves.
        text = tr(lang_of(request), "the roster would be %(size)s bytes once stored, over "
                  "the %(limit)s a request may carry: it could not be sent back as read or "
                  "exported", size=exc.size, limit=exc.limit)
        return JSONResponse(status_code=413, content=errors.refusal_body(text))

    @app.exception_handler(Exception)
    async def _failed(request: Request, exc: Exception) -> Response:
        # Answered by Starlette's outermost middleware, outside SecurityHeaders and RequestLog:
        # their headers are added here.
        rid = str(request.scope.get("state", {}).get("request_id", ""))
        headers = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
        return PlainTextResponse(f"Internal Server Error (request {rid})", status_code=500,
                                 headers={**headers, "X-Request-ID": rid})

    @app.exception_handler(RecursionError)
    async def _too_deep(request: object, exc: RecursionError) -> JSONResponse:
        return JSONResponse(status_code=422, content={
            "message": "body: nested too deeply", "detail": [
                {"field": "body", "message": "nested too deeply", "type": "value_error",
                 "loc": ["body"]}]})


def _include_routes(app: FastAPI) -> None:
    # A request is matched against the routers in this order, route by route: the probes and
    # the API's few routes first, then the pages. No two routers share a path and method, so
    # the order changes no answer.
    app.include_router(health.router)
    app.include_router(pricing.router)
    app.include_router(home.router)
    app.include_router(share.router)
    app.include_router(editor.router)
    app.include_router(deletion.router)
    app.include_router(changes.router)
    app.include_router(exports.router)
    app.include_router(rosters.router)
    app.include_router(roster_edits.router)
    app.include_router(games_api.router)
    app.include_router(events_api.router)
    app.include_router(sheet.router)
    app.include_router(games_pages.router)
    app.include_router(event_pages.router)
    app.include_router(event_forms.router)
    app.include_router(calculators.router)
    app.include_router(calculator_pages)
    docs.install(app)  # before /static: its files are mounted under /static/api-docs
    app.mount("/static", HashedStaticFiles(directory=STATIC_DIR), name="static")


def _add_middleware(app: FastAPI, settings: Settings) -> None:
    # Innermost: what it compresses is the answer as sent, HEAD's (headers of the GET, no
    # body) included; the security headers, the body limit and the log sit outside it.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(AllowedMethods, routes=lambda: every_route(app.routes))
    app.add_middleware(CrossSiteWrites)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    # Outside the others, so its line and its id cover every answer, refusals included.
    app.add_middleware(RequestLog)
    proxies = trusted_proxies(settings.trusted_proxies)
    if proxies:
        # Outermost, so that everything inside sees the client behind the proxy.
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=proxies)
