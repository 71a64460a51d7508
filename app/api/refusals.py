"""The API's answers to what the services refuse with, wherever a route meets it: app/main.py
registers them for addresses under /api/ (the pages answer the same refusals with pages).

A roster not there is 404 and a deleted one 410, in the words of `not_found`; a creation over
the limit is 429 with Retry-After."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from app.http.deps import not_found
from app.http.errors import refusal_body
from app.http.language import lang_of
from app.services.creation_limit import CreationRefused
from app.services.errors import RosterNotFound


def roster_missing(request: Request, error: RosterNotFound) -> JSONResponse:
    refused = not_found(lang_of(request), error.roster_id, error)
    return JSONResponse(refusal_body(refused.detail), status_code=refused.status_code)


def too_many(request: Request, refused: CreationRefused) -> JSONResponse:
    return JSONResponse(refusal_body(refused.message(lang_of(request))), status_code=429,
                        headers={"Retry-After": str(refused.retry_after)})
