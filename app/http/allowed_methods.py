"""A 405 answer names every method its address answers to.

Starlette fills a 405's `Allow` header from the first route whose path matched; an address
served by several routes (`GET`, `PUT` and `DELETE /api/v1/rosters/{id}`) would then claim it
takes `GET` alone. RFC 9110 asks for the whole list, and clients read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send


def every_route(routes: list[Any]) -> Iterable[Any]:
    """The app's routes with included routers flattened (a FastAPI with
    `iter_route_contexts` keeps an included router as one entry of `app.routes`, and walks it
    with that)."""
    try:
        from fastapi.routing import iter_route_contexts
    except ImportError:  # a FastAPI that lists included routers' routes in app.routes
        return routes
    return iter_route_contexts(routes)  # type: ignore[no-any-return]


class AllowedMethods:
    def __init__(self, app: ASGIApp, routes: Callable[[], Iterable[Any]]) -> None:
        self.app = app
        self.routes = routes

    def allowed(self, scope: Scope) -> list[str]:
        # The address is the first route template that matches, as routing reads it
        # (`/api/v1/rosters/import` before `/api/v1/rosters/{roster_id}`); its methods are
        # those of every route with that template.
        template: str | None = None
        methods: set[str] = set()
        for context in self.routes():
            route = getattr(context, "route", context)
            found = getattr(route, "methods", None)
            if not found:
                continue
            if template is None and route.matches(scope)[0] != Match.NONE:
                template = route.path
            if template is not None and route.path == template:
                methods |= set(found)
        if "GET" in methods:
            methods.add("HEAD")  # answered below, as RFC 9110 asks of every GET
        return sorted(methods)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_allowed(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 405:
                methods = self.allowed(scope)
                if methods:
                    MutableHeaders(scope=message)["Allow"] = ", ".join(methods)
            await send(message)

        if scope["method"] == "HEAD" and self._get_only(scope):
            # FastAPI's GET routes take no HEAD (Starlette's add it themselves): answered as
            # the GET, headers and all, without the body; load balancers probe with HEAD.
            async def send_head(message: Message) -> None:
                if message["type"] == "http.response.body":
                    message = {**message, "body": b""}
                await send_allowed(message)

            await self.app({**scope, "method": "GET"}, receive, send_head)
            return
        await self.app(scope, receive, send_allowed)

    def _get_only(self, scope: Scope) -> bool:
        """Whether a route takes this address by GET while none takes it by HEAD."""
        def taken(method: str) -> bool:
            asked = {**scope, "method": method}
            return any(getattr(getattr(c, "route", c), "methods", None)
                       and getattr(c, "route", c).matches(asked)[0] == Match.FULL
                       for c in self.routes())

        return not taken("HEAD") and taken("GET")
