"""An API operation refuses query parameters it does not document: a misspelt `?lnag=ru` must
not be silently ignored. (Pages, left out of the API description, take any: links from
elsewhere carry their own.)

Every API router takes it as a dependency: `APIRouter(dependencies=[DOCUMENTED_QUERY])`.
"""

from __future__ import annotations

from fastapi import Depends
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.requests import Request

from app.domain.base import Lang
from app.domain.translations import tr


def query_names(dependant: Dependant) -> frozenset[str]:
    """The query parameters an operation takes, its dependencies' included."""
    names: set[str] = set()
    for param in dependant.query_params:
        model = param.field_info.annotation
        # A model read from the query (a calculator's input): each of its fields is one.
        names |= ({field.alias or name for name, field in model.model_fields.items()}
                  if isinstance(model, type) and issubclass(model, BaseModel) else {param.alias})
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


def repeated_query(request: Request) -> RequestValidationError | None:
    """The refusal of a query parameter given more than once (no operation takes a list):
    which of them counts would be a guess."""
    names = [name for name, _ in request.query_params.multi_items()]
    repeated = [name for name in dict.fromkeys(names) if names.count(name) > 1]
    if not repeated:
        return None
    lang: Lang = "ru" if request.query_params.get("lang") == "ru" else "en"
    return RequestValidationError([{"loc": ("query", name), "type": "value_error",
                                    "msg": tr(lang, "given more than once; send it once")}
                                   for name in repeated])


async def documented_query(request: Request) -> None:
    """Refuse the query parameters the operation answering `request` does not document, and
    any given twice. Async: it touches nothing but the request, so it need not run in a
    worker thread."""
    route = request.scope.get("route")
    if not request.scope.get("query_string") or not isinstance(route, APIRoute) \
            or not route.include_in_schema:
        return
    if (refused := unknown_query(request, query_names(route.dependant))) is not None:
        raise refused
    if (refused := repeated_query(request)) is not None:
        raise refused


DOCUMENTED_QUERY = Depends(documented_query)
