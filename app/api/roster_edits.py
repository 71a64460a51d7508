"""JSON API for what the editor does: edits by id (PATCH), undo, and "Make it legal".

Thin doors to app/services/edits.py, the one way the editor's page changes a roster too. A
change is made as `PUT /api/v1/rosters/{id}` makes one: the edit key as `Authorization:
Bearer`, the version it was made against in `If-Match`, 412 with the current version when
stale, and nothing stored on any refusal.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from app.api.edit_schemas import LegalSuggestion, RosterEdits, edit_data
from app.api.health import UNAVAILABLE_ANSWER
from app.api.models import RosterPublic, StaleVersion
from app.api.rosters import (
    BODY,
    IF_MATCH,
    INVALID,
    KEY_ANSWERS,
    MISSING,
    VERSIONED,
    etag,
    expected_version,
    public,
    site,
    stale,
)
from app.domain.base import Lang, points_json
from app.domain.edits import EditError
from app.domain.translations import tr
from app.http import conditional
from app.http.deps import KeyedRosterId, LangDep, RosterId, SessionDep, json_body, refusal
from app.http.errors import Failure, refusal_body
from app.http.query import DOCUMENTED_QUERY
from app.services import edits, rosters
from app.services.errors import NoSuggestion, RevisionNotFound, VersionConflict
from app.services.stored_rosters import MAX_VERSION
from app.systems import SYSTEMS
from app.systems.field_errors import field_path

router = APIRouter(prefix="/api/v1/rosters", tags=["rosters"], dependencies=[DOCUMENTED_QUERY])

_CHANGE: dict[int | str, dict[str, Any]] = {
    **VERSIONED, **KEY_ANSWERS, **MISSING, **UNAVAILABLE_ANSWER,
    412: {"model": StaleVersion,
          "description": "The roster changed since that version; body says which"},
    428: {"model": Failure, "description": "No If-Match header"}}
_EDITS_INVALID: dict[int | str, dict[str, Any]] = {422: {
    **INVALID[422], "description": "An edit is not one of the roster's rule system's, or "
                                    "cannot be made (an id the roster does not have, a limit); "
                                    "`loc` names `body.edits.<i>.<field>`"}}


def _stale_answer(lang: Lang, version: int, conflict: VersionConflict) -> JSONResponse:
    """412 with the version the roster is at, as PUT answers it."""
    current = conflict.current.version
    return JSONResponse(status_code=412, headers={"ETag": etag(current)}, content=refusal_body(
        stale(lang, version, current), version=current, etag=etag(current)))


def _edits_refused(error: ValidationError, sent: list[dict[str, Any]],
                   lang: Lang) -> RequestValidationError:
    """pydantic's refusal of the edits (or of the roster they would make), each error's `loc`
    as FastAPI names a body's field: `body.edits.<i>.<field>`, without the `op` that the
    union of edits puts after the index."""
    found = []
    for item in error.errors():
        loc = tuple(item["loc"])
        if loc and isinstance(loc[0], int):
            rest = loc[1:]
            if rest and rest[0] == sent[loc[0]].get("op"):
                rest = rest[1:]
            if item["type"] == "union_tag_not_found":  # FastAPI's words for a missing field
                item, rest = {"type": "missing", "msg": "Field required"}, (*rest, "op")
            found.append({**item, "loc": ("body", "edits", loc[0], *rest)})
        else:  # the roster the edits would make is no roster of its system
            found.append({"loc": ("body", "edits"), "type": item["type"], "msg": tr(
                lang, "the roster these edits make is refused: %(reason)s",
                reason=f"{field_path(loc)}: {item['msg']}")})
    return RequestValidationError(found)


def _edit_refused(error: EditError, lang: Lang) -> RequestValidationError:
    place = () if error.edit is None else (error.edit,)
    return RequestValidationError([{"loc": ("body", "edits", *place, error.field),
                                    "type": "value_error", "msg": error.text(lang)}])


@router.patch("/{roster_id}", response_model=RosterPublic, dependencies=[Depends(json_body)],
              responses=_CHANGE | BODY | _EDITS_INVALID, openapi_extra=IF_MATCH)
def edit_roster(request: Request, roster_id: KeyedRosterId, session: SessionDep,
                response: Response, body: Annotated[RosterEdits, Body()],
                lang: LangDep = "en") -> Any:
    """Make edits of the roster's rule system in order, as one new version or none of them
    (edits that change nothing answer the same version). Units, lines and engines are named
    by their ids in the document; a refused edit is a 422 naming `body.edits.<i>.<field>`."""
    version = expected_version(request.headers.get("if-match"), lang,
                               lambda: rosters.get_roster(session, roster_id).version)
    sent = body.edits
    try:
        edited = edits.edit_roster(session, roster_id, sent, version, lang)
    except VersionConflict as conflict:
        return _stale_answer(lang, version, conflict)
    except EditError as error:
        raise _edit_refused(error, lang) from error
    except ValidationError as error:
        raise _edits_refused(error, sent, lang) from error
    response.headers["ETag"] = etag(edited.roster.version)
    return public(edited.roster, lang, site(request))


@router.post("/{roster_id}/undo", response_model=RosterPublic, openapi_extra=IF_MATCH,
             responses=_CHANGE | INVALID | {
                 404: {"model": Failure, "description": "No roster by this id, or version "
                                                         "`to` is not an earlier version it "
                                                         "keeps"},
                 409: {"model": Failure, "description": "No earlier version to go back to"}})
def undo(request: Request, roster_id: KeyedRosterId, session: SessionDep, response: Response,
         to: Annotated[int | None, Query(ge=1, le=MAX_VERSION, description=(
             "the earlier version to go back to; by default the one before the current"))] = None,
         lang: LangDep = "en") -> Any:
    """Store an earlier version's document again, as the next version: undo is itself a
    change, so it can be undone, and no version is lost."""
    version = expected_version(request.headers.get("if-match"), lang,
                               lambda: rosters.get_roster(session, roster_id).version)
    try:
        edited = edits.revert_to(session, roster_id, to, version, lang)
    except VersionConflict as conflict:
        return _stale_answer(lang, version, conflict)
    except RevisionNotFound as error:
        if to is None:
            raise refusal(409, tr(lang, "roster %(roster_id)s has no earlier version to go "
                                  "back to", roster_id=roster_id)) from error
        if to >= version:
            raise refusal(404, tr(lang, "to: version %(to)s is not earlier than the roster's "
                                  "current version %(current)s", to=to, current=version)
                          ) from error
        raise refusal(404, tr(lang, "to: roster %(roster_id)s no longer keeps version %(to)s "
                              "(only its latest revisions are kept)", roster_id=roster_id, to=to)
                      ) from error
    response.headers["ETag"] = etag(edited.roster.version)
    return public(edited.roster, lang, site(request))


@router.get("/{roster_id}/make-legal", response_model=LegalSuggestion,
            responses={**VERSIONED, **MISSING, **INVALID, **UNAVAILABLE_ANSWER,
                       404: {"model": Failure, "description": "No roster by this id, or its "
                                                               "rule system has no \"Make it "
                                                               "legal\""}})
def make_legal(request: Request, roster_id: RosterId, session: SessionDep,
               fill: Annotated[bool, Query(description=(
                   "\"Fill to the limit\" instead: the fewest figures added (to the army's "
                   "lines and its nation's presets) that make it legal with its points as "
                   "near its limit as they can come without passing it"))] = False,
               lang: LangDep = "en") -> Any:
    """What "Make it legal" would change in the roster's current version, and the edits that
    make it: PATCH them with If-Match `"v<version>"` (or PATCH `{"op": "make_legal"}`, with
    `"fill": true` for `?fill=true`). Chainmail only. The ETag and If-None-Match work as for
    the roster itself."""
    roster = rosters.get_roster(session, roster_id)
    cache = {"ETag": etag(roster.version), "Cache-Control": "no-cache"}
    if conditional.fresh(request, cache["ETag"]):
        return Response(status_code=304, headers=cache)
    try:
        found, made = edits.suggestion(roster, lang, fill=fill)
    except NoSuggestion as error:
        offered = ", ".join(s.name(lang) for s in SYSTEMS.values() if s.suggest is not None)
        raise refusal(404, tr(lang, "%(system)s has no “Make it legal”: it is offered for "
                              "%(offered)s rosters", system=SYSTEMS[roster.ruleset].name(lang),
                              offered=offered)) from error
    answer = {"possible": found.possible, "reason": found.reason or None,
              "outcome": found.outcome, "moved": found.moved, "total": points_json(found.total),
              "version": roster.version, "edits": [edit_data(edit) for edit in made]}
    return JSONResponse(answer, headers=cache)
