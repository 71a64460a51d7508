"""JSON API: rule systems, their catalogues, and pricing a roster without storing it."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response

from app.answers import FastJSON
from app.deps import APP_DEPENDENCIES, NOT_JSON_ANSWER, is_json, json_body
from app.rules import RULESETS, RosterDocument, get_ruleset
from app.schemas import Failure, PricedResult, RulesetSummary, ValidationFailure
from app.stored_documents import DOCUMENT
from app.web.security import CROSS_SITE_ANSWER

router = APIRouter(prefix="/api/v1", tags=["pricing"])

LangQuery = Literal["en", "ru"]
REFUSALS: dict[int | str, dict[str, Any]] = {
    413: {"model": Failure, "description": "Body over the size limit"},
    **NOT_JSON_ANSWER,
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
    roster: Annotated[RosterDocument, Body()],  # type: ignore[valid-type]
    lang: LangQuery = Query("en", description="Language of issue messages"),
) -> JSONResponse:
    # Async on purpose: pricing is pure CPU work of well under a millisecond for a usual
    # roster (a few ms at the 500-unit limit), so a hop to the thread pool and back, and the
    # GIL contention it brings under load, would cost more than the work itself.
    system = RULESETS[roster.ruleset]  # type: ignore[attr-defined]
    # The result is built as the response model's JSON already (the rules package's own
    # tests hold it to that model); answering it as is spares validating it into the model
    # again, a third of the request's time; orjson writes it (app/answers.py).
    return FastJSON(system.evaluate(roster, lang).result)


class _PriceRoute(APIRoute):
    """The price's route as FastAPI documents it, from `price_roster`'s signature (its body,
    its query, its answers), but answered without FastAPI's solving of the parameters: the
    body is read by read_roster and `lang` by query_lang, in FastAPI's order and with its
    refusals (a test holds every answer to a twin route that FastAPI solves). That solving
    cost a tenth of the request's CPU, and reading the JSON apart from validating it a fifth,
    on the API's busiest route (bench/HISTORY.md)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        if self.dependant.dependencies:
            # A dependency added to this route or its router would silently not apply here.
            raise RuntimeError(f"{self.path} applies only the app's dependencies by hand")

        async def answer(request: Request) -> Response:
            # FastAPI's order: the body is read first (one over the limit, or no JSON, is
            # refused at once), then the app's dependencies run, then every parameter is
            # validated and all their refusals given together, the query's first.
            roster, body_refused = await read_roster(request)
            for dependency in (*APP_DEPENDENCIES, json_body):
                await dependency(request)
            lang, lang_refused = query_lang(request)
            if lang_refused or body_refused:
                raise RequestValidationError([*lang_refused, *body_refused])
            return await price_roster(roster, lang)
        return answer


router.add_api_route("/price", price_roster, methods=["POST"], response_model=PricedResult,
                     responses=REFUSALS, route_class_override=_PriceRoute)

_LANG: TypeAdapter[LangQuery] = TypeAdapter(LangQuery)
Refusals = list[dict[str, Any]]


def query_lang(request: Request) -> tuple[LangQuery, Refusals]:
    """`?lang=` as FastAPI reads a `LangQuery` parameter: the last one given, "en" when there
    is none; anything else is refused with the error FastAPI gives, naming query.lang."""
    value = request.query_params.get("lang")
    if value is None:
        return "en", []
    try:
        return _LANG.validate_python(value), []
    except ValidationError as error:
        return "en", _located(error, "query", "lang")


# ---------------------------------------------------------------- the price's body

async def read_roster(request: Request) -> tuple[Any, Refusals]:
    """The roster a request's JSON body holds, validated, or the refusals FastAPI gives a
    `Body()` parameter for it (the same errors naming the same fields), at a fifth less of
    the whole request's CPU: pydantic reads and validates the JSON in one pass, where FastAPI
    has the standard library parse it into Python objects and then validates those. What
    FastAPI refuses before it solves any parameter is raised at once: a body over the limit
    (413, when it is read), one that is no JSON (422) or no text (400)."""
    body = await request.body()
    if not body:
        return None, [{"type": "missing", "loc": ("body",), "msg": "Field required",
                       "input": None}]
    if not is_json(request.headers.get("content-type")):
        return None, []  # refused with 415 once the app's dependencies ran (deps.json_body)
    try:
        return DOCUMENT.validate_json(body), []
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


def _validated(data: Any) -> tuple[Any, Refusals]:
    try:
        # As FastAPI validates a body (from_attributes), which words a refusal of a value
        # where an object belongs in its own way ("…or object to extract fields from").
        return DOCUMENT.validate_python(data, from_attributes=True), []
    except ValidationError as error:
        return None, _located(error, "body")


def _located(error: ValidationError, *where: str) -> list[dict[str, Any]]:
    """pydantic's errors as FastAPI words a parameter's: each place within `where`."""
    return [{**e, "loc": (*where, *e["loc"])} for e in error.errors()]
