"""Error answers: every refused input names the field and says what is allowed; a refusal that
names no field has one shape too (`Failure`), as the API's description says."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.utils import is_body_allowed_for_status_code
from pydantic import BaseModel, ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from app.systems.field_errors import describe


class ErrorField(BaseModel):
    field: str
    message: str
    type: str
    loc: list[str | int]


class ValidationFailure(BaseModel):
    message: str
    detail: list[ErrorField]


class Failure(BaseModel):
    """A refusal that names no field; `detail` repeats `message` (FastAPI's own key)."""

    message: str
    detail: str



def _body_not_json(error: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's refusal of a request body that is not JSON puts the character offset where a
    field name belongs (('body', 1): "JSON decode error"): the field at fault is the body, and
    the offset and the parser's reason go into the message."""
    loc = list(error.get("loc", ()))
    if error.get("type") != "json_invalid" or loc[:1] != ["body"]:
        return error
    reason = (error.get("ctx") or {}).get("error")
    where = next((part for part in loc[1:] if isinstance(part, int)), None)
    message = "not valid JSON"
    if reason:
        message += f": {reason}"
    if where is not None:
        message += f" (at character {where})"
    return {**error, "loc": ["body"], "msg": message}


class ReferenceNotFound(RequestValidationError):
    """A field names something that does not exist (a stored roster, a unit of it): 404, in
    the shape of a 422, so that the field is named all the same."""


def refusal_body(text: str, **more: Any) -> dict[str, Any]:
    """A refusal that names no field: {"message": text, "detail": text}."""
    return {"message": text, "detail": text, **more}


def validation_response(errors: list[dict[str, Any]], status: int = 422) -> JSONResponse:
    detail = describe([_body_not_json(error) for error in errors])
    summary = "; ".join(f"{d['field']}: {d['message']}" for d in detail[:10])
    return JSONResponse(status_code=status, content={"message": summary, "detail": detail})


def install(app: FastAPI, missing_page: Callable[[Request], Response] | None = None,
            deleted_page: Callable[[Request], Response] | None = None) -> None:
    """`missing_page` answers a browser that asks for an address where nothing is (a page in
    its language, not `{"detail": "Not Found"}`), and `deleted_page` one that asks for a page
    of a deleted roster (410: the print sheet); the API and static files keep the JSON."""

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        # FastAPI answers an unparseable JSON body with a bare 400; say which field failed.
        if exc.status_code == 400 and "parsing the body" in str(exc.detail):
            return validation_response([{"loc": ["body"], "msg": "not valid JSON",
                                         "type": "json_invalid"}])
        path = request.url.path
        page = {404: missing_page, 410: deleted_page}.get(exc.status_code)
        if (page is not None and request.method in ("GET", "HEAD")
                and not path.startswith(("/api/", "/static/"))
                and "text/html" in request.headers.get("accept", "")):
            return page(request)
        if isinstance(exc.detail, str) and is_body_allowed_for_status_code(exc.status_code):
            # Every refusal in one shape: `message` to show, `detail` as FastAPI words it (a
            # list of fields for a 422, the same text otherwise).
            return JSONResponse(refusal_body(exc.detail), status_code=exc.status_code,
                                headers=getattr(exc, "headers", None))
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _request_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        status = 404 if isinstance(exc, ReferenceNotFound) else 422
        return validation_response(list(exc.errors()), status)

    @app.exception_handler(ValidationError)
    async def _model_invalid(request: Request, exc: ValidationError) -> JSONResponse:
        return validation_response(list(exc.errors()))
