"""JSON API: rule systems, their catalogues, and pricing a roster without storing it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Coroutine
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response

from app.answers import FastJSON
from app.deps import APP_DEPENDENCIES
from app.rules import RULESETS, get_ruleset
from app.schemas import Failure, PricedResult, RulesetSummary, ValidationFailure
from app.stored_documents import DOCUMENT
from app.web.security import CROSS_SITE_ANSWER

router = APIRouter(prefix="/api/v1", tags=["pricing"])

LangQuery = Literal["en", "ru"]
REFUSALS: dict[int | str, dict[str, Any]] = {
    413: {"model": Failure, "description": "Body over the size limit"},
    422: {"model": ValidationFailure, "description": "A field is invalid; the message names it"},
    **CROSS_SITE_ANSWER,
}


@router.get("/rulesets", response_model=list[RulesetSummary])
def list_rulesets() -> list[dict[str, str]]:
    return [system.summary() for system in RULESETS.values()]


@router.get("/rulesets/{ruleset_id}", responses={404: {"model": Failure}})
def ruleset_catalogue(ruleset_id: str) -> dict[str, Any]:
    system = get_ruleset(ruleset_id)
    if system is None:
        raise HTTPException(404, f"unknown ruleset {ruleset_id!r}; known: {', '.join(RULESETS)}")
    return system.catalogue()


async def price_roster(
    request: Request,
    lang: LangQuery = Query("en", description="Language of issue messages"),
) -> JSONResponse:
    # Async on purpose: pricing is pure CPU work of well under a millisecond for a usual
    # roster (a few ms at the 500-unit limit), so a hop to the thread pool and back, and the
    # GIL contention it brings under load, would cost more than the work itself.
    roster = await roster_body(request)
    system = RULESETS[roster.ruleset]
    # The result is built as the response model's JSON already (the rules package's own
    # tests hold it to that model); answering it as is spares validating it into the model
    # again, a third of the request's time; orjson writes it (app/answers.py).
    return FastJSON(system.evaluate(roster, lang).result)


class _PriceRoute(APIRoute):
    """The price's route as FastAPI documents it, from `price_roster`'s signature (its query,
    its answers; the body by document_price_body), but answered without FastAPI's solving of
    the parameters: `lang` is read by query_lang and the body by roster_body, each refused
    with the 422 FastAPI gives. That solving cost a tenth of the request's CPU, on the API's
    busiest route (README, Speed)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        if self.dependant.dependencies:
            # A dependency added to this route or its router would silently not apply here.
            raise RuntimeError(f"{self.path} applies only the app's dependencies by hand")

        async def answer(request: Request) -> Response:
            for dependency in APP_DEPENDENCIES:  # in FastAPI's order: the app's, then ours
                await dependency(request)
            return await price_roster(request, query_lang(request))
        return answer


router.add_api_route("/price", price_roster, methods=["POST"], response_model=PricedResult,
                     responses=REFUSALS, route_class_override=_PriceRoute)

_LANG: TypeAdapter[LangQuery] = TypeAdapter(LangQuery)


def query_lang(request: Request) -> LangQuery:
    """`?lang=` as FastAPI reads a `LangQuery` parameter: the last one given, "en" when there
    is none, and anything else refused with the same 422 naming query.lang."""
    value = request.query_params.get("lang")
    if value is None:
        return "en"
    try:
        return _LANG.validate_python(value)
    except ValidationError as error:
        raise RequestValidationError(_located(error, "query", "lang")) from None


# ---------------------------------------------------------------- the price's body

async def roster_body(request: Request) -> Any:
    """The roster a request's JSON body holds, validated, refused exactly as FastAPI refuses a
    `Body()` parameter (the same 422s naming the same fields), at a fifth less of the whole
    request's CPU: pydantic reads and validates the JSON in one pass, where FastAPI has the
    standard library parse it into Python objects and then validates those. Its body is
    documented as the rosters' (`document_price_body`)."""
    body = await request.body()
    if not body:
        raise RequestValidationError([{"type": "missing", "loc": ("body",),
                                       "msg": "Field required", "input": None}])
    if not _is_json(request.headers.get("content-type")):
        return _validated(body)  # refused as FastAPI refuses it: not an object
    try:
        return DOCUMENT.validate_json(body)
    except ValidationError:
        pass
    # Refused, or not JSON to pydantic: read by the standard library and validated as FastAPI
    # does it, which takes what pydantic's reader does not (UTF-16, NaN) and words every
    # refusal as before ("a valid dictionary", where JSON's own words are "an object").
    try:
        parsed = json.loads(body)
    except json.JSONDecodeError as error:
        raise RequestValidationError([{
            "type": "json_invalid", "loc": ("body", error.pos), "msg": "JSON decode error",
            "input": {}, "ctx": {"error": error.msg}}]) from error
    except ValueError as error:  # bytes that are no Unicode text
        raise HTTPException(400, "There was an error parsing the body") from error
    return _validated(parsed)


def _is_json(content_type: str | None) -> bool:
    """FastAPI's test: no content type is not JSON; application/json and application/*+json
    are."""
    if not content_type:
        return False
    kind = content_type.partition(";")[0].strip().lower()
    main, _, sub = kind.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


def _validated(data: Any) -> Any:
    try:
        return DOCUMENT.validate_python(data)
    except ValidationError as error:
        raise RequestValidationError(_located(error, "body")) from None


def _located(error: ValidationError, *where: str) -> list[dict[str, Any]]:
    """pydantic's errors as FastAPI words a parameter's: each place within `where`."""
    return [{**e, "loc": (*where, *e["loc"])} for e in error.errors()]


def document_price_body(app: FastAPI) -> None:
    """Document the price's body as the rosters' own: the same union of roster documents
    (roster_body reads it by hand, so FastAPI does not know it)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            paths = generate()["paths"]
            body = copy.deepcopy(paths["/api/v1/rosters"]["post"]["requestBody"])
            body["content"]["application/json"]["schema"]["title"] = "Roster"  # as it was
            paths["/api/v1/price"]["post"]["requestBody"] = body
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]
