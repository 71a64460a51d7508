"""JSON API for stored rosters: capability links, optimistic locking, revisions, copies.

The public id reads a roster; the edit key (`Authorization: Bearer <key>`) changes it. A change
names the version it was made against (`If-Match: "v3"`), so two editors cannot overwrite each
other unnoticed: the second gets 412 and the current version.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app.api.health import UNAVAILABLE_ANSWER
from app.api.models import (
    TOO_MANY,
    RevisionPublic,
    RevisionSummary,
    RosterCreated,
    RosterPublic,
    StaleVersion,
)
from app.domain.base import Lang
from app.domain.translations import tr
from app.http import conditional
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import (
    NOT_JSON_ANSWER,
    KeyedRosterId,
    LangDep,
    RosterId,
    SessionDep,
    json_body,
    refusal,
    take_creation,
)
from app.http.errors import Failure, ValidationFailure, refusal_body
from app.http.query import DOCUMENTED_QUERY
from app.services import revisions, rosters
from app.services.errors import RevisionNotFound, RosterNotFound, VersionConflict
from app.services.kept_evaluations import judgement
from app.services.stored_rosters import MAX_VERSION, StoredRoster
from app.systems import RosterDocument

router = APIRouter(prefix="/api/v1/rosters", tags=["rosters"], dependencies=[DOCUMENTED_QUERY])

_ETAG = re.compile(r'^\s*(?:W/)?"v(\d{1,12})"\s*$')
_KEY_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"model": Failure, "description": "No edit key (`Authorization: Bearer <edit_key>`)"},
    403: {"model": Failure, "description": "Not this roster's edit key"},
}
_MISSING: dict[int | str, dict[str, Any]] = {
    404: {"model": Failure, "description": "No roster by this id"},
    410: {"model": Failure, "description": "The roster was deleted (restorable for 30 days)"},
}
_INVALID: dict[int | str, dict[str, Any]] = {
    422: {"model": ValidationFailure, "description": "A field is invalid; the message names it"},
}
_BODY: dict[int | str, dict[str, Any]] = {
    413: {"model": Failure, "description": "Body over the size limit, or a roster that, stored "
                                           "with every field written out, could not be sent "
                                           "back within it"}, **NOT_JSON_ANSWER, **_INVALID,
}
_ETAG_HEADER = {"ETag": {"description": 'The version, for If-Match: "v3"', "required": True,
                         "schema": {"type": "string"}}}
# The version read or written; a creation also says where the new roster is.
_VERSIONED: dict[int | str, dict[str, Any]] = {200: {"headers": _ETAG_HEADER}}
_CREATED: dict[int | str, dict[str, Any]] = {201: {"headers": {
    **_ETAG_HEADER, "Location": {"description": "The new roster's address in this API",
                                 "required": True, "schema": {"type": "string"}}}}}


def etag(version: int) -> str:
    return f'"v{version}"'


def site(request: Request) -> str:
    """What the links in an answer start with: the operator's MUSTER_PUBLIC_URL, so that they
    can be shared as they are, or nothing (links relative to this server) when it is not set:
    the Host a request names is not to be trusted with a link meant for others."""
    return str(getattr(request.app.state, "public_url", "") or "")


def view_url(roster_id: str, base: str = "") -> str:
    return f"{base}/r/{roster_id}"


def edit_url(roster_id: str, key: str, base: str = "") -> str:
    return f"{base}/r/{roster_id}/edit?key={key}"


def public(roster: StoredRoster, lang: Lang, base: str = "") -> dict[str, Any]:
    """A stored roster as the API answers it, its link starting with `base` (site())."""
    copied_from = None
    if roster.copied_from_id is not None and roster.copied_from_version is not None:
        copied_from = {"id": roster.copied_from_id, "version": roster.copied_from_version}
    return {"id": roster.id, "version": roster.version, "view_url": view_url(roster.id, base),
            "result": judgement(roster, lang).result, "created_at": roster.created_at,
            "updated_at": roster.updated_at, "copied_from": copied_from,
            "document": roster.document}


def created_answer(request: Request, created: rosters.Created, lang: Lang,
                   response: Response) -> dict[str, Any]:
    """The answer to a roster stored anew (created, copied, imported), with its edit key."""
    roster = created.roster
    response.headers["ETag"] = etag(roster.version)
    response.headers["Location"] = f"{router.prefix}/{roster.id}"
    # The edit key is in this answer; no cache may keep it.
    response.headers["Cache-Control"] = "no-store"
    base = site(request)
    return {**public(roster, lang, base), "edit_key": created.edit_key,
            "edit_url": edit_url(roster.id, created.edit_key, base)}


# Read from the request rather than declared as a parameter, so that the description can say
# what the API holds to: the header is required (428 without it) and is one ETag from GET.
IF_MATCH: dict[str, Any] = {"parameters": [{
    "name": "If-Match", "in": "header", "required": True,
    "description": 'the ETag of the version this change was made against, from GET: "v3"',
    "schema": {"type": "string", "pattern": _ETAG.pattern}}]}


# Versions start at 1. A weak ETag names none of them: If-Match compares strongly (RFC 9110,
# 13.1.1), so W/"v3" is answered 412 with the current version, as a stale one is.
WEAK = 0


def stale(lang: Lang, version: int, current: int) -> str:
    """Why a change at `version` was not made: the roster or game is at `current`."""
    if version == WEAK:
        return tr(lang, "If-Match: a weak ETag (W/…) never matches a change; send the ETag "
                  "%(etag)s", etag=etag(current))
    return tr(lang, "If-Match: the roster is at version %(current)s, not %(version)s; reload "
              "it, merge your change and send its ETag", current=current, version=version)


def expected_version(if_match: str | None, lang: Lang, current: Callable[[], int]) -> int:
    """The version If-Match names; `*` matches whatever version is current (RFC 9110, 13.1.1:
    the change is made unless the resource is gone), read by `current`."""
    if if_match is None:
        raise refusal(428, tr(lang, "If-Match: send the ETag of the version you edited (from "
                              "GET), e.g. \"v3\""))
    if if_match.strip() == "*":
        return current()
    found = _ETAG.match(if_match)
    if found is None:
        raise RequestValidationError([{
            "loc": ("header", "If-Match"), "type": "value_error",
            "msg": tr(lang, "expected one ETag from GET, like \"v3\"")}])
    return WEAK if if_match.lstrip().startswith("W/") else int(found.group(1))


@router.post("", status_code=201, response_model=RosterCreated, dependencies=[Depends(json_body)],
             responses=_CREATED | _BODY | TOO_MANY | CROSS_SITE_ANSWER
             | UNAVAILABLE_ANSWER)
def create_roster(request: Request, session: SessionDep, response: Response,
                  document: Annotated[RosterDocument, Body()],  # type: ignore[valid-type]
                  lang: LangDep = "en") -> dict[str, Any]:
    """Store a roster. The answer holds the edit key, once: keep `edit_url`, share `view_url`."""
    # Counted once the document is accepted, its size too: a refused one costs nothing.
    created = rosters.create_roster(
        session, document, lang=lang, admit=lambda: take_creation(request, session))
    return created_answer(request, created, lang, response)


@router.get("/{roster_id}", response_model=RosterPublic,
            responses=_VERSIONED | _MISSING | _INVALID | UNAVAILABLE_ANSWER)
def read_roster(request: Request, roster_id: RosterId, session: SessionDep, response: Response,
                lang: LangDep = "en") -> Any:
    """The roster, priced and judged; the ETag header is what a change sends in If-Match, and
    what If-None-Match sends to be answered 304 while the roster is unchanged (the language
    is the address's own `lang`)."""
    roster = rosters.get_roster(session, roster_id)
    cache = {"ETag": etag(roster.version), "Cache-Control": "no-cache"}
    if conditional.fresh(request, cache["ETag"]):
        return Response(status_code=304, headers=cache)
    response.headers.update(cache)
    return public(roster, lang, site(request))


@router.put("/{roster_id}", response_model=RosterPublic, dependencies=[Depends(json_body)],
            responses=_VERSIONED | _BODY | _KEY_ANSWERS | _MISSING | UNAVAILABLE_ANSWER | {
                412: {"model": StaleVersion,
                      "description": "The roster changed since that version; body says which"},
                428: {"model": Failure, "description": "No If-Match header"}},
            openapi_extra=IF_MATCH)
def replace_roster(request: Request, roster_id: KeyedRosterId, session: SessionDep,
                   response: Response,
                   document: Annotated[RosterDocument, Body()],  # type: ignore[valid-type]
                   lang: LangDep = "en") -> Any:
    """Replace the document. Over-limit or off-proportion rosters are stored and reported."""
    version = expected_version(request.headers.get("if-match"), lang,
                               lambda: rosters.get_roster(session, roster_id).version)
    try:
        roster = rosters.replace_roster(session, roster_id, document, version, lang=lang)
    except VersionConflict as conflict:
        current = conflict.current.version
        return JSONResponse(status_code=412, headers={"ETag": etag(current)}, content=refusal_body(
            stale(lang, version, current), version=current, etag=etag(current)))
    response.headers["ETag"] = etag(roster.version)
    return public(roster, lang, site(request))


@router.delete("/{roster_id}", status_code=204, response_class=Response,
               responses=_KEY_ANSWERS | _MISSING | _INVALID | UNAVAILABLE_ANSWER)
def delete_roster(roster_id: KeyedRosterId, session: SessionDep,
                  lang: LangDep = "en") -> Response:
    """Delete the roster. With the key it can be restored, history and all, for 30 days."""
    rosters.delete_roster(session, roster_id)
    return Response(status_code=204)


@router.post("/{roster_id}/restore", response_model=RosterPublic,
             responses=_VERSIONED | _KEY_ANSWERS | _MISSING | _INVALID | UNAVAILABLE_ANSWER)
def restore_roster(request: Request, roster_id: KeyedRosterId, session: SessionDep,
                   response: Response, lang: LangDep = "en") -> dict[str, Any]:
    """Undo a deletion (within 30 days); a roster that was not deleted is returned as it is."""
    try:
        roster = rosters.restore_roster(session, roster_id)
    except RosterNotFound as error:
        raise refusal(404, tr(lang, "no roster %(roster_id)s to restore (deletions are kept 30 "
                              "days)", roster_id=roster_id),
                      ) from error
    response.headers["ETag"] = etag(roster.version)
    return public(roster, lang, site(request))


@router.post("/{roster_id}/copy", status_code=201, response_model=RosterCreated,
             responses=_CREATED | _MISSING | _INVALID | TOO_MANY | CROSS_SITE_ANSWER
             | UNAVAILABLE_ANSWER)
def copy_roster(roster_id: RosterId, request: Request, session: SessionDep, response: Response,
                lang: LangDep = "en") -> dict[str, Any]:
    """A new roster with its own id and edit key, from the current version of a readable one."""
    rosters.get_roster(session, roster_id)  # a missing roster is 404, not a creation
    take_creation(request, session)
    created = rosters.copy_roster(session, roster_id, lang=lang)
    return created_answer(request, created, lang, response)


@router.get("/{roster_id}/revisions", response_model=list[RevisionSummary],
            responses=_MISSING | _INVALID | UNAVAILABLE_ANSWER)
def list_revisions(roster_id: RosterId, session: SessionDep,
                   lang: LangDep = "en") -> list[revisions.RevisionInfo]:
    """Every accepted version, oldest first."""
    return revisions.list_revisions(session, roster_id)


@router.get("/{roster_id}/revisions/{version}", response_model=RevisionPublic,
            responses=_MISSING | _INVALID | UNAVAILABLE_ANSWER)
def read_revision(roster_id: RosterId, session: SessionDep,
                  version: int = Path(ge=1, le=MAX_VERSION),
                  lang: LangDep = "en") -> revisions.Revision:
    """The document exactly as it was at that version."""
    try:
        return revisions.get_revision(session, roster_id, version)
    except RevisionNotFound as error:
        raise refusal(404, tr(lang, "roster %(roster_id)s has no version %(version)s",
                              roster_id=roster_id, version=version)) from error


# The answers above, as the roster edits API (roster_edits.py) documents them too.
KEY_ANSWERS, MISSING, INVALID, BODY, VERSIONED = _KEY_ANSWERS, _MISSING, _INVALID, _BODY, _VERSIONED
