"""The event's secret pages: handing in a list (the hand-in link) and the organiser's page with
its CSV, closing hand-ins and the publish button (the organiser's link). See events.py for the
others.

A list's key is kept in the browser that handed it in (an HttpOnly cookie scoped to the
event, as an edit link's grant is kept), and shown once: this browser replaces or withdraws
the list with it; another one, with the key typed into the form."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import TypeAdapter, ValidationError
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.domain import form_reading
from app.domain.base import Verdict
from app.domain.player_text import RosterName
from app.exports.event_lists import judged_json, lists_csv
from app.exports.imports import ImportRefused, parse_roster
from app.http.deps import SessionDep, is_id, pasted_roster_id, take_creation
from app.services import devices, events
from app.services.errors import KeyRejected, RevisionNotFound, RosterNotFound
from app.systems.events import reminder
from app.web import i18n
from app.web.events import CREATED_COOKIE, holds_key, missing, rules_context, stored_event
from app.web.pages import (
    YEAR,
    PostedData,
    PostedForm,
    browser_device,
    cookie_flags,
    keep_secret,
    page,
    redirect,
    refuse,
    secret,
    secret_link,
)
from app.web.problems import problem_text
from app.web.templating import site_address

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])
_NAME: TypeAdapter[str] = TypeAdapter(RosterName)
LISTS_COOKIE = "muster_lists"  # the keys of the lists this browser handed in, "key.key…"
NEW_LIST_COOKIE = "muster_new_list"  # a new list's key, until its page has shown it once
MAX_KEPT = 20  # list keys a browser keeps for one event (the newest)
SORTS = {"player": lambda r: r["player"].casefold(), "nation": lambda r: r["nation"] or "",
         "points": lambda r: r["points"],
         "verdict": lambda r: {"broken": 0, "warnings": 1, "legal": 2}[r["verdict"]]}


def _not_this_link(request: Request) -> Response:
    return refuse(request, 403, i18n.gettext(
        "This is not the event's secret link. Ask the organiser for it again."))


def kept_keys(request: Request) -> list[str]:
    """The list keys this browser keeps for the event of the address (the cookie's path)."""
    found = request.cookies.get(LISTS_COOKIE, "").split(".")
    return [key for key in found if is_id(key)][-MAX_KEPT:]


def _keep_key(request: Request, response: Response, event_id: str, key: str) -> None:
    keys = [k for k in kept_keys(request) if k != key] + [key]
    response.set_cookie(LISTS_COOKIE, ".".join(keys[-MAX_KEPT:]), max_age=YEAR,
                        **{**cookie_flags(request), "path": f"/e/{event_id}"})


def _hand_in_page(request: Request, session: Session, event: events.StoredEvent, key: str,
                  status: int = 200, **more: Any) -> Response:
    device_id = browser_device(request, session)
    mine = [r for r in devices.my_rosters(session, device_id) if r.ruleset ==
            event.rules.ruleset] if device_id else []
    lang = i18n.current_lang()
    held = [{"handed": h, "judgement": h.judged(event.rules, lang)}
            for h in events.held(session, event.id, kept_keys(request))]
    response = page(request, "events/hand_in.html", {
        "event": event, **rules_context(event.rules, lang), "key": key, "mine": mine,
        "held": held, "form": {}, "error": None, "closed": event.closed(),
        "open_to_new": event.open_to_new(), **more}, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/e/{event_id}/hand-in")
def hand_in_page(request: Request, event_id: str, session: SessionDep) -> Response:
    """The hand-in link: pick one of My rosters (or paste a link) and a name; after handing
    in, the same page says at once how each list this browser handed in stands, and shows
    a new list's key once."""
    event = stored_event(session, event_id)
    if event is None:
        return missing(request)
    if (exchanged := secret_link(request, "hand_in", f"/e/{event.id}")) is not None:
        return exchanged
    key = secret(request, "hand_in")
    if not holds_key(session, event.id, key, "hand_in"):
        return _not_this_link(request)
    fresh = request.cookies.get(NEW_LIST_COOKIE, "")
    response = _hand_in_page(request, session, event, key,
                             new_key=fresh if is_id(fresh) else None)
    if fresh:
        response.delete_cookie(NEW_LIST_COOKIE, path=f"/e/{event.id}")
    return response


def _player(text: str) -> str | None:
    """The name as the API takes it (a roster's name's rules: visible, at most 120), or None."""
    try:
        return _NAME.validate_python(text)
    except ValidationError:
        return None


def roster_of(form: form_reading.Form) -> str | None:
    """The roster the form names: one of My rosters, or a link pasted (a link wins)."""
    pasted = form.get("link", "").strip()
    if pasted:
        return pasted_roster_id(pasted)
    chosen = form.get("roster", "")
    return chosen if is_id(chosen) else None


@router.post("/e/{event_id}/hand-in")
async def hand_in(request: Request, event_id: str, data: PostedData, form: PostedForm,
                  session: SessionDep) -> Response:
    """The form, with its exported file if one was chosen (read here, on the event loop)."""
    upload = data.get("file")
    content = None
    if upload is not None and not isinstance(upload, str) and upload.filename:
        content = await upload.read()
    return await run_in_threadpool(_hand_in, request, session, event_id, form, content)


def _keyed_event(request: Request, session: Session, event_id: str, form: form_reading.Form,
                 kind: events.KeyKind) -> tuple[Any, str] | Response:
    """The event a form changes and the key its field holds, or the page refusing it: no such
    event, or not the event's key of this kind."""
    event = stored_event(session, event_id)
    if event is None:
        return missing(request)
    key = form.get("key", "")
    if not holds_key(session, event.id, key, kind):
        return _not_this_link(request)
    return event, key


def _hand_in(request: Request, session: Session, event_id: str, form: form_reading.Form,
             content: bytes | None) -> Response:
    found = _keyed_event(request, session, event_id, form, "hand_in")
    if isinstance(found, Response):
        return found
    event, key = found
    player, roster_id = _player(form.get("player", "")), roster_of(form)

    def again(message: str, status: int) -> Response:
        return _hand_in_page(request, session, event, key, error=message, form=dict(form),
                             status=status)

    if player is None:
        return again(i18n.gettext("Write your name (at most 120 characters)."), 422)
    document = None
    if content is not None:
        try:
            document, roster_id = parse_roster(content, i18n.current_lang()), None
        except ImportRefused as refused:
            why = problem_text(refused.errors) if refused.errors else refused.message
            return again(i18n.gettext("The file was not read: %(why)s") % {"why": why}, 422)
    elif roster_id is None:
        return again(i18n.gettext(
            "Choose one of your rosters, paste its link, or choose its exported file."), 422)
    try:
        handed = events.hand_in(
            session, event.id, player, roster_id, document=document,
            list_keys=[*kept_keys(request), form.get("list_key", "").strip()],
            admit=lambda: take_creation(request, session))
    except events.EventClosed:
        return again(i18n.gettext("The deadline has passed: lists are no longer handed in."),
                     409)
    except events.HandInsClosed:
        return again(i18n.gettext("The organiser has closed hand-ins."), 409)
    except events.EventFull:
        return again(i18n.gettext("The event holds as many lists as it may."), 409)
    except events.NameTaken:
        return again(i18n.gettext(
            "A list is handed in under this name already. Only the browser that handed it "
            "in, or its list key, can replace it; otherwise choose another name."), 409)
    except (RosterNotFound, RevisionNotFound):
        return again(i18n.gettext("There is no roster at this link."), 404)
    response = keep_secret(request, redirect(request, f"/e/{event.id}/hand-in#verdict"),
                           "hand_in", f"/e/{event.id}", key)
    if handed.key is not None:
        _keep_key(request, response, event.id, handed.key)
        response.set_cookie(NEW_LIST_COOKIE, handed.key, max_age=600,
                            **{**cookie_flags(request), "path": f"/e/{event.id}"})
    elif form.get("list_key", "").strip():
        _keep_key(request, response, event.id, form.get("list_key", "").strip())
    return response


@router.post("/e/{event_id}/withdraw")
def withdraw(request: Request, event_id: str, form: PostedForm, session: SessionDep) -> Response:
    """Withdraw a list this browser handed in (its key is in the browser's cookie)."""
    found = _keyed_event(request, session, event_id, form, "hand_in")
    if isinstance(found, Response):
        return found
    event, key = found
    try:
        events.withdraw(session, event.id, form.get("list", ""), kept_keys(request))
    except (events.ListNotFound, KeyRejected):
        return refuse(request, 403, i18n.gettext(
            "This browser did not hand in this list: only the browser that did may withdraw it."))
    except events.EventClosed:
        return refuse(request, 409, i18n.gettext(
            "The deadline has passed: lists are no longer handed in."))
    return keep_secret(request, redirect(request, f"/e/{event.id}/hand-in"), "hand_in",
                       f"/e/{event.id}", key)


def _rows(request: Request, session: Session, event: events.StoredEvent) -> list[dict[str, Any]]:
    lang = i18n.current_lang()
    rows = []
    for handed in events.lists(session, event.id, history=True):
        judgement = handed.judged(event.rules, lang)
        row = judged_json(event.id, handed, judgement, site_address(request), history=True)
        row["reminder"] = (reminder(event.rules, handed.player, judgement, lang)
                           if judgement.verdict is not Verdict.legal else "")
        rows.append(row)
    return rows


@router.get("/e/{event_id}/organise")
def organise(request: Request, event_id: str, session: SessionDep,
             sort: str = "player", dir: str = "asc") -> Response:  # noqa: A002
    """The organiser's page: every list, sortable, each opening with the event's rules
    applied; the CSV; the reminders; publishing once the deadline has passed."""
    event = stored_event(session, event_id)
    if event is None:
        return missing(request)
    if (exchanged := secret_link(request, "organiser", f"/e/{event.id}")) is not None:
        return exchanged
    key = secret(request, "organiser")
    created = request.cookies.get(CREATED_COOKIE, "") if request.query_params.get("created") else ""
    fresh = created.split(".") if created.count(".") == 1 else None
    if fresh and not key:
        key = fresh[0]
    if not holds_key(session, event.id, key, "organiser"):
        return _not_this_link(request)
    rows = _rows(request, session, event)
    sort = sort if sort in SORTS else "player"
    rows.sort(key=SORTS[sort], reverse=dir == "desc")
    base = site_address(request)
    links = None
    if fresh and holds_key(session, event.id, fresh[1], "hand_in"):
        links = {"organiser": f"{base}/e/{event.id}/organise?key={quote(fresh[0])}"}
    # The hand-in link, drawn again from the organiser's key (events made before: never).
    hand_in_key = events.hand_in_key_of(key)
    hand_in_link = (f"{base}/e/{event.id}/hand-in?key={quote(hand_in_key)}"
                    if holds_key(session, event.id, hand_in_key, "hand_in") else None)
    response = page(request, "events/organise.html", {
        "event": event, **rules_context(event.rules, i18n.current_lang()), "key": key,
        "rows": rows, "sort": sort, "dir": "desc" if dir == "desc" else "asc",
        "links": links, "hand_in_link": hand_in_link, "public_link": f"{base}/e/{event.id}",
        "closed": event.closed()})
    response.headers["Cache-Control"] = "no-store"
    if fresh:
        response.delete_cookie(CREATED_COOKIE, path=f"/e/{event.id}")
    return response


@router.get("/e/{event_id}/lists.csv")
def csv_download(request: Request, event_id: str, session: SessionDep) -> Response:
    """The organiser's page's CSV (the API's, for a link that cannot send a header)."""
    event = stored_event(session, event_id)
    if event is None:
        return missing(request)
    if not holds_key(session, event.id, secret(request, "organiser"), "organiser"):
        return _not_this_link(request)
    text = lists_csv(_rows(request, session, event), i18n.current_lang())
    return Response(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="event-{event.id}.csv"',
        "Cache-Control": "no-store"})


@router.post("/e/{event_id}/publish")
def publish(request: Request, event_id: str, form: PostedForm, session: SessionDep) -> Response:
    found = _keyed_event(request, session, event_id, form, "organiser")
    if isinstance(found, Response):
        return found
    event, key = found
    try:
        events.publish(session, event.id)
    except events.EventOpen:
        return refuse(request, 409, i18n.gettext(
            "The lists are published once the deadline has passed."))
    return keep_secret(request, redirect(request, f"/e/{event.id}/organise"), "organiser",
                       f"/e/{event.id}", key)


@router.post("/e/{event_id}/hand-ins")
def set_hand_ins(request: Request, event_id: str, form: PostedForm,
                 session: SessionDep) -> Response:
    """The organiser closes hand-ins (`open=0`) or opens them again (`open=1`)."""
    found = _keyed_event(request, session, event_id, form, "organiser")
    if isinstance(found, Response):
        return found
    event, key = found
    events.set_hand_ins(session, event.id, open_=form.get("open") == "1")
    return keep_secret(request, redirect(request, f"/e/{event.id}/organise"), "organiser",
                       f"/e/{event.id}", key)
