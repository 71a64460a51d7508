"""The API's answers to what the services refuse with, wherever a route meets it: app/main.py
registers them for addresses under /api/ (the pages answer the same refusals with pages).

A roster not there is 404 and a deleted one 410, in the words of `not_found`, a game or an
event not there 404; a creation over the limit is 429 with Retry-After. A roster a body names
(to play, to hand in) is refused in words of its own (`named_roster`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from fastapi import Request
from fastapi.responses import JSONResponse

from app.domain.base import Lang
from app.domain.translations import tr
from app.http.deps import not_found, refusal
from app.http.errors import refusal_body
from app.http.language import lang_of
from app.services.creation_limit import CreationRefused
from app.services.errors import RevisionNotFound, RosterDeleted, RosterNotFound
from app.services.events import EventNotFound
from app.services.games import GameNotFound


def roster_missing(request: Request, error: RosterNotFound) -> JSONResponse:
    refused = not_found(lang_of(request), error.roster_id, error)
    return JSONResponse(refusal_body(refused.detail), status_code=refused.status_code)


def game_missing(request: Request, error: GameNotFound) -> JSONResponse:
    text = tr(lang_of(request), "no game %(game_id)s", game_id=error.game_id)
    return JSONResponse(refusal_body(text), status_code=404)


def event_missing(request: Request, error: EventNotFound) -> JSONResponse:
    text = tr(lang_of(request), "no event %(event_id)s", event_id=error.event_id)
    return JSONResponse(refusal_body(text), status_code=404)


def too_many(request: Request, refused: CreationRefused) -> JSONResponse:
    return JSONResponse(refusal_body(refused.message(lang_of(request))), status_code=429,
                        headers={"Retry-After": str(refused.retry_after)})


@contextlib.contextmanager
def named_roster(lang: Lang, roster_id: str | None, version: int | None) -> Iterator[None]:
    """The refusals of the roster (and version) a request's body names, as the API words them:
    the body's roster is no address of this request, so its words name it."""
    try:
        yield
    except RevisionNotFound as error:
        raise refusal(404, tr(lang, "version: roster %(roster_id)s has no version %(version)s",
                              roster_id=roster_id, version=version)) from error
    except RosterDeleted as error:
        raise refusal(410, tr(lang, "roster %(roster_id)s was deleted",
                              roster_id=roster_id)) from error
    except RosterNotFound as error:
        raise refusal(404, tr(lang, "no roster %(roster_id)s", roster_id=roster_id)) from error
