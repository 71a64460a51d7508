"""JSON API for events: create one, hand lists in with the hand-in key (each list then has a
key of its own, which replaces or withdraws it), read them (JSON or CSV), close hand-ins and
publish them with the organiser's key; anyone reads the rules and, once published, the lists.

As with rosters and games, a key goes as `Authorization: Bearer <key>` and never comes back
in a read; the organiser's, the hand-in and a list's key are told apart by the route.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from app.api.health import UNAVAILABLE_ANSWER
from app.api.models import TOO_MANY
from app.api.refusals import named_roster
from app.api.rosters import site
from app.domain.base import Lang, whole_in
from app.domain.player_text import RosterName
from app.domain.translations import tr
from app.exports.event_lists import judged_json, lists_csv
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import (
    NOT_JSON_ANSWER,
    ROSTER_ID,
    LangDep,
    SessionDep,
    bearer,
    json_body,
    refusal,
    take_creation,
)
from app.http.errors import Failure, ValidationFailure
from app.http.query import DOCUMENTED_QUERY
from app.services import events
from app.services.errors import KeyRejected
from app.services.stored_rosters import MAX_VERSION
from app.systems import RosterDocument
from app.systems.events import EventRules

router = APIRouter(prefix="/api/v1/events", tags=["events"], dependencies=[DOCUMENTED_QUERY])
EventId = Annotated[str, Path(pattern=ROSTER_ID, max_length=64,
                              description="the event's public id")]
_bearer = HTTPBearer(auto_error=False, scheme_name="EventKey",
                     description="the event's organiser key or hand-in key, as the route says")


class _HandIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    player: RosterName = Field(description="the player's name: one list a name")
    list_key: str | None = Field(
        default=None, pattern=ROSTER_ID, max_length=64,
        description="the key the player's list was handed in with: a hand-in under a name "
                    "taken already replaces that list only with it (409 without)")


class HandInRoster(_HandIn):
    roster_id: str = Field(pattern=ROSTER_ID, max_length=64,
                           description="the roster's public id (from its share or edit link)")
    version: whole_in(1, MAX_VERSION) | None = Field(  # type: ignore[valid-type]
        default=None, description="the roster version handed in; none: the current one")


class HandInDocument(_HandIn):
    document: RosterDocument = Field(  # type: ignore[valid-type]
        description="a roster document handed in as it is (no stored roster)")


class EventIssue(BaseModel):
    code: str = Field(description="event.*: the event's own rules; otherwise the army's")
    severity: str
    message: str
    unit: int | None


class ReplacedList(BaseModel):
    player: str
    name: str = Field(description="the army's name")
    nation: str | None
    roster_version: int | None
    handed_in_at: Any
    replaced_at: Any


class JudgedList(BaseModel):
    id: str = Field(description="the list's own id: the version handed in, frozen (never the "
                                "roster's, which would read its later edits)")
    player: str
    roster_version: int | None = Field(description="the roster's version handed in; none: "
                                                   "handed in as a document")
    name: str
    ruleset: str
    nation: str | None
    points: float
    verdict: str = Field(description="legal, warnings or broken")
    mark: str = Field(description="✓, ! or ✗")
    issues: list[EventIssue] = Field(description="the event's rules broken first")
    handed_in_at: Any
    sheet_url: str = Field(description="the list's printed sheet (public once published)")
    replaced: list[ReplacedList] | None = Field(
        default=None, description="the organiser's read only: what the list was before each "
                                  "replacement, oldest first")


class HandedInList(JudgedList):
    list_key: str | None = Field(description="a new list's key, shown only now: it replaces "
                                             "or withdraws the list; none when one was replaced")


class EventPublic(BaseModel):
    id: str
    rules: EventRules
    lists: int = Field(description="how many lists are handed in")
    closed: bool = Field(description="the deadline has passed")
    hand_ins_open: bool = Field(description="new lists are taken: the deadline has not "
                                            "passed and the organiser has not closed them")
    published_at: Any
    view_url: str
    armies: list[JudgedList] | None = Field(description="every list, once published")


class EventCreated(EventPublic):
    organiser_key: str = Field(description="shown only now: the organiser's key")
    organiser_url: str = Field(description="the organiser's secret page")
    hand_in_key: str = Field(description="the key players hand lists in with (the "
                                         "organiser's page shows its link again)")
    hand_in_url: str = Field(description="the secret link to send to players")


_MISSING: dict[int | str, dict[str, Any]] = {
    404: {"model": Failure, "description": "No event (or roster, version) by this id"},
    422: {"model": ValidationFailure, "description": "A field is invalid; the message names it"},
    **UNAVAILABLE_ANSWER}
_KEYED: dict[int | str, dict[str, Any]] = {
    **_MISSING,
    401: {"model": Failure, "description": "No key (`Authorization: Bearer <key>`)"},
    403: {"model": Failure, "description": "Not this event's key, or sent from another site"}}


def _key(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
         lang: LangDep = "en") -> str:
    return bearer(credentials, tr(lang, "Authorization: send the event's key as `Bearer <key>`"))


def _keyed(kind: events.KeyKind) -> Any:
    def keyed(event_id: EventId, session: SessionDep, key: Annotated[str, Depends(_key)],
              lang: LangDep = "en") -> str:
        try:
            events.check_key(session, event_id, key, kind)
        except KeyRejected as error:
            raise refusal(403, tr(lang, "Authorization: this is not the event's key for "
                                        "this")) from error
        return event_id
    return keyed


OrganiserEvent = Annotated[str, Depends(_keyed("organiser"))]
HandInEvent = Annotated[str, Depends(_keyed("hand_in"))]


def _judged_all(session: SessionDep, event: events.StoredEvent, lang: Lang,
                base: str, *, history: bool = False) -> list[dict[str, Any]]:
    return [judged_json(event.id, h, h.judged(event.rules, lang), base, history=history)
            for h in events.lists(session, event.id, history=history)]


def public_json(session: SessionDep, event: events.StoredEvent, lang: Lang,
                base: str) -> dict[str, Any]:
    armies = _judged_all(session, event, lang, base) if event.published_at else None
    return {"id": event.id, "rules": event.rules, "lists": event.lists,
            "closed": event.closed(), "hand_ins_open": event.open_to_new(),
            "published_at": event.published_at,
            "view_url": f"{base}/e/{event.id}", "armies": armies}


@router.post("", status_code=201, response_model=EventCreated, dependencies=[Depends(json_body)],
             responses={**_MISSING, **NOT_JSON_ANSWER, **TOO_MANY,
                        **CROSS_SITE_ANSWER})
def create_event(request: Request, session: SessionDep, response: Response,
                 rules: Annotated[EventRules, Body()], lang: LangDep = "en") -> Any:
    """Make an event. The answer holds its two keys, once: keep `organiser_url`, send
    `hand_in_url` to the players, and `view_url` to anyone."""
    created = events.create_event(
        session, rules, admit=lambda: take_creation(request, session))
    event, base = created.event, site(request)
    response.headers["Location"] = f"{router.prefix}/{event.id}"
    response.headers["Cache-Control"] = "no-store"
    return {**public_json(session, event, lang, base),
            "organiser_key": created.organiser_key,
            "organiser_url": f"{base}/e/{event.id}/organise?key={created.organiser_key}",
            "hand_in_key": created.hand_in_key,
            "hand_in_url": f"{base}/e/{event.id}/hand-in?key={created.hand_in_key}"}


@router.get("/{event_id}", response_model=EventPublic, responses=_MISSING)
def read_event(request: Request, event_id: EventId, session: SessionDep, response: Response,
               lang: LangDep = "en") -> Any:
    """The event's rules and how many lists are in; every army once published."""
    response.headers["Cache-Control"] = "no-cache"
    return public_json(session, events.get_event(session, event_id), lang, site(request))


@router.post("/{event_id}/lists", status_code=201, response_model=HandedInList,
             dependencies=[Depends(json_body)],
             responses={**_KEYED, **NOT_JSON_ANSWER, **CROSS_SITE_ANSWER, **TOO_MANY,
                        200: {"model": HandedInList,
                              "description": "The player's list replaced (with its key)"},
                        409: {"model": Failure, "description": "The deadline has passed, "
                              "hand-ins are closed, the event is full, or the name has a "
                              "list already and its key did not come"},
                        410: {"model": Failure, "description": "The roster was deleted"}})
def hand_in(request: Request, event_id: HandInEvent, session: SessionDep, response: Response,
            handed: Annotated[HandInRoster | HandInDocument, Body()],
            lang: LangDep = "en") -> Any:
    """Hand in a roster version (or a roster document) as the player's list; the answer says
    at once whether it keeps the event's rules and its nation's, and why not. A new list
    (201) comes with its `list_key`, once; the same name again replaces it (200) only with
    that key as `list_key`."""
    roster_id = getattr(handed, "roster_id", None)
    version = getattr(handed, "version", None)
    try:
        with named_roster(lang, roster_id, version):
            kept = events.hand_in(
                session, event_id, handed.player, roster_id, version,
                document=getattr(handed, "document", None),
                list_keys=[handed.list_key] if handed.list_key else [],
                admit=lambda: take_creation(request, session))
    except events.EventClosed as error:
        raise refusal(409, tr(lang, "the deadline has passed: lists are no longer "
                                    "handed in")) from error
    except events.HandInsClosed as error:
        raise refusal(409, tr(lang, "the organiser has closed hand-ins")) from error
    except events.EventFull as error:
        raise refusal(409, tr(lang, "the event holds as many lists as it may")) from error
    except events.NameTaken as error:
        raise refusal(409, "player: " + tr(
            lang, "a list is handed in under this name already; only its list_key replaces "
                  "it")) from error
    response.headers["Cache-Control"] = "no-store"
    if kept.key is None:
        response.status_code = 200
    rules = events.get_event(session, event_id).rules
    judged = kept.handed.judged(rules, lang)
    return {**judged_json(event_id, kept.handed, judged, site(request)), "list_key": kept.key}


ListId = Annotated[str, Path(pattern=ROSTER_ID, max_length=64, description="the list's id")]


def _list_key(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
              lang: LangDep = "en") -> str:
    return bearer(credentials, tr(lang, "Authorization: send the list's key as "
                                        "`Bearer <list_key>`"))


@router.delete("/{event_id}/lists/{list_id}", status_code=204, response_class=Response,
               responses={**_KEYED, **CROSS_SITE_ANSWER,
                          409: {"model": Failure, "description": "The deadline has passed"}})
def withdraw(event_id: EventId, list_id: ListId, session: SessionDep,
             key: Annotated[str, Depends(_list_key)], lang: LangDep = "en") -> Response:
    """Withdraw a list with its own key (`Authorization: Bearer <list_key>`), until the
    deadline: its name is free again."""
    try:
        events.withdraw(session, event_id, list_id, [key])
    except events.ListNotFound as error:
        raise refusal(404, tr(lang, "no list %(id)s in this event", id=list_id)) from error
    except KeyRejected as error:
        raise refusal(403, tr(lang, "Authorization: this is not the list's key")) from error
    except events.EventClosed as error:
        raise refusal(409, tr(lang, "the deadline has passed: lists are no longer "
                                    "handed in")) from error
    return Response(status_code=204)


@router.get("/{event_id}/lists", response_model=list[JudgedList], responses=_KEYED)
def read_lists(request: Request, event_id: OrganiserEvent, session: SessionDep,
               response: Response, lang: LangDep = "en") -> Any:
    """Every list handed in, with its player, nation, points, verdict and reasons, and what
    each replaced."""
    response.headers["Cache-Control"] = "no-store"
    return _judged_all(session, events.get_event(session, event_id), lang, site(request),
                       history=True)


@router.get("/{event_id}/lists.csv", response_class=Response,
            responses={**_KEYED, 200: {"content": {"text/csv": {"schema": {"type": "string"}}},
                                       "description": "The lists as CSV"}})
def download_lists(request: Request, event_id: OrganiserEvent, session: SessionDep,
                   lang: LangDep = "en") -> Response:
    """The lists as a spreadsheet: player, army, nation, points, verdict, reasons."""
    rows = _judged_all(session, events.get_event(session, event_id), lang, site(request))
    return Response(lists_csv(rows, lang), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="event-{event_id}.csv"',
        "Cache-Control": "no-store"})


@router.post("/{event_id}/publish", response_model=EventPublic,
             responses={**_KEYED, **CROSS_SITE_ANSWER,
                        409: {"model": Failure, "description": "The deadline has not passed"}})
def publish(request: Request, event_id: OrganiserEvent, session: SessionDep,
            lang: LangDep = "en") -> Any:
    """Publish every list: the public page and read show them from now on."""
    try:
        event = events.publish(session, event_id)
    except events.EventOpen as error:
        raise refusal(409, tr(lang, "the deadline has not passed: lists are still handed "
                                    "in")) from error
    return public_json(session, event, lang, site(request))


class HandIns(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    open: bool = Field(description="false: no new list is taken (a list's key still replaces "
                                   "or withdraws it until the deadline); true: taken again")


@router.post("/{event_id}/hand-ins", response_model=EventPublic,
             dependencies=[Depends(json_body)],
             responses={**_KEYED, **NOT_JSON_ANSWER, **CROSS_SITE_ANSWER})
def set_hand_ins(request: Request, event_id: OrganiserEvent, session: SessionDep,
                 hand_ins: Annotated[HandIns, Body()], lang: LangDep = "en") -> Any:
    """Close hand-ins (or open them again): the organiser's answer to a flood of lists."""
    event = events.set_hand_ins(session, event_id, open_=hand_ins.open)
    return public_json(session, event, lang, site(request))
