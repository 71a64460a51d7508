"""Error answers: every refused input names the field and says what is allowed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.utils import is_body_allowed_for_status_code
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response

from app.domain import RULESETS, names


def field_path(loc: tuple[Any, ...] | list[Any]) -> str:
    """('body', 'units', 0, 'lines', 1, 'troop') -> 'units[0].lines[1].troop'."""
    path = ""
    for part in loc:
        if part in ("body",) and not path:
            continue
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            # Discriminated unions add the tag ('chainmail') to the path; it is no field.
            path += f".{part}" if path else str(part)
    return path or "body"


def describe(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for error in errors:
        loc = [p for p in error.get("loc", ()) if p not in _TAGS]
        message = error.get("msg", "invalid")
        if error.get("type") in ("union_tag_invalid", "union_tag_not_found"):
            # The rule-system union names no field when `ruleset` is missing or unknown.
            tag = str((error.get("ctx") or {}).get("discriminator", "ruleset")).strip("'")
            loc = [*loc, tag]
            if error.get("type") == "union_tag_not_found":
                message = "Field required: one of " + ", ".join(f"'{r}'" for r in RULESETS)
        if error.get("type") == "json_invalid" and loc[:1] == ["body"]:
            # FastAPI puts the character offset where a field name belongs ("[1]: JSON decode
            # error"); the field at fault is the body, and the offset goes into the message.
            reason = (error.get("ctx") or {}).get("error")
            where = next((p for p in loc[1:] if isinstance(p, int)), None)
            message = "not valid JSON"
            if reason:
                message += f": {reason}"
            if where is not None:
                message += f" (at character {where})"
            loc = ["body"]
        if (error.get("type") == "string_pattern_mismatch"
                and (error.get("ctx") or {}).get("pattern") in names.PATTERNS):
            message = names.MESSAGES[error["ctx"]["pattern"]]  # not the pattern itself
        out.append({"field": field_path(loc), "message": message,
                    "type": error.get("type", "value_error"), "loc": loc})
    return out


# Discriminated unions put the tag ('chainmail') into the path; it is no field. Known from the
# registry at import, so code that describes errors without an app (imports) strips them too.
_TAGS: set[str] = set(RULESETS)


def register_tags(tags: set[str]) -> None:
    _TAGS.update(tags)


class ReferenceNotFound(RequestValidationError):
    """A field names something that does not exist (a stored roster, a unit of it): 404, in
    the shape of a 422, so that the field is named all the same."""


def refusal_body(text: str, **more: Any) -> dict[str, Any]:
    """A refusal that names no field: {"message": text, "detail": text}."""
    return {"message": text, "detail": text, **more}


def validation_response(errors: list[dict[str, Any]], status: int = 422) -> JSONResponse:
    detail = describe(errors)
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
