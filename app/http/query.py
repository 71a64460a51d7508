"""An API operation refuses query parameters it does not document: a misspelt `?lnag=ru` must
not be silently ignored. (Pages, left out of the API description, take any: links from
elsewhere carry their own.)

Every API router is an `APIRouter(route_class=DocumentedQuery)`. The check is made in the
route's own handler, before its dependencies: an app-wide dependency would cost every request
a second dependency solve (13 µs of healthz's 99 in-process, docs/speed.md), and here a
request without a query string costs it nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response

from app.domain.base import Lang
from app.domain.translations import tr


def query_names(dependant: Dependant) -> frozenset[str]:
    """The query parameters an operation takes, its dependencies' included."""
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= query_names(sub)
    return frozenset(names)


def unknown_query(request: Request, known: frozenset[str]) -> RequestValidationError | None:
    """The refusal of the query parameters not in `known`, in the language asked for when
    the operation takes `lang`; None when there are none."""
    unknown = [name for name in request.query_params if name not in known]
    if not unknown:
        return None
    lang: Lang = "ru" if "lang" in known and request.query_params.get("lang") == "ru" else "en"
    allowed = ", ".join(sorted(known)) or tr(lang, "none")
    message = tr(lang, "unknown query parameter; this operation takes: %(allowed)s",
                 allowed=allowed)
    return RequestValidationError([{"loc": ("query", name), "type": "extra_forbidden",
                                    "msg": message} for name in dict.fromkeys(unknown)])


class DocumentedQuery(APIRoute):
    """An API route whose operation refuses query parameters it does not document."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        if not self.include_in_schema:
            return handler
        known = query_names(self.dependant)

        async def checked(request: Request) -> Response:
            if request.scope.get("query_string") and (
                    refused := unknown_query(request, known)) is not None:
                raise refused
            return await handler(request)

        return checked
