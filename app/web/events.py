"""An event's pages: make one (from the home page), its public page, and each list's page and
printed sheet. Handing in and the organiser's page are in event_forms.py.

As the game pages, the secret links carry their key (`?key=`) and the forms a hidden field
with it beside the CSRF field; the keys made at creation reach the organiser's page once, in
a short-lived cookie scoped to it, never in the address bar. Every form works without script.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlmodel import Session

from app.domain import form_reading
from app.exports import sheet_of
from app.http.deps import SessionDep, is_id, take_creation
from app.services import events
from app.services.errors import KeyRejected
from app.systems import DEFAULT_SYSTEM, SYSTEMS
from app.systems.events import MAX_CAPS, EventRules, HandedIn, entries, reminder
from app.web import i18n
from app.web.pages import (
    PostedForm,
    cookie_flags,
    page,
    redirect,
    refuse,
    secret,
    secret_link,
)
from app.web.problems import problem_text
from app.web.sheet import MAX_BOXES, share_qr
from app.web.templating import render, site_address

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])
CAP_ROWS = min(3, MAX_CAPS)  # the form's rows of caps; the API takes more
CREATED_COOKIE = "muster_new_event"


def missing(request: Request) -> Response:
    return refuse(request, 404, i18n.gettext("There is no event at this address."))


def stored_event(session: Session, event_id: str) -> events.StoredEvent | None:
    if not is_id(event_id):
        return None
    try:
        return events.get_event(session, event_id)
    except events.EventNotFound:
        return None


def holds_key(session: Session, event_id: str, key: str, kind: events.KeyKind) -> bool:
    if not key:
        return False
    try:
        events.check_key(session, event_id, key, kind)
    except (events.EventNotFound, KeyRejected):
        return False
    return True


def rules_context(rules: EventRules, lang: Any) -> dict[str, Any]:
    """The event's rules as its pages word them."""
    nations = [entries("nations")[n].name(lang) for n in rules.nations] if rules.nations else None
    caps = [{"count": c.count, "troop": entries("troop_types")[c.troop].name(lang), "most": c.most}
            for c in rules.caps]
    return {"rules": rules, "ruleset_name": SYSTEMS[rules.ruleset].name(lang),
            "nation_names": nations, "caps": caps}


def _form_context(form: dict[str, Any], error: str | None) -> dict[str, Any]:
    lang = i18n.current_lang()
    return {"form": form, "error": error, "cap_rows": range(CAP_ROWS),
            "nations": {n.id: n.name(lang) for n in entries("nations").values()
                        if n.id != "generic"},
            "troops": {t.id: t.name(lang) for t in entries("troop_types").values()}}


@router.get("/e/new")
def new_event(request: Request) -> Response:
    return page(request, "events/new.html", _form_context({}, None))


def _deadline(text: str) -> datetime | str:
    """The form's date and time (datetime-local, read as UTC) as an aware moment."""
    try:
        return datetime.fromisoformat(text).replace(tzinfo=UTC)
    except ValueError:
        return text


def _whole(text: str) -> int | str | None:
    """A whole number's field: its number, or the text as it came for the rules to refuse by
    the field's name (a superscript digit, or more digits than int() reads, among them)."""
    text = text.strip()
    if not text:
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else text


def rules_of(form: form_reading.Form) -> dict[str, Any]:
    """The form's fields as the rules' data (what the API would be sent)."""
    caps = [{"count": form.get(f"cap_count_{i}", "units"), "troop": form.get(f"cap_troop_{i}"),
             "most": _whole(form.get(f"cap_most_{i}", ""))}
            for i in range(CAP_ROWS) if form.get(f"cap_troop_{i}")]
    nations = form.all("nations")
    return {"name": form.get("name", ""), "date": form.get("date", ""),
            "ruleset": form.get("ruleset", DEFAULT_SYSTEM),
            "points_limit": _whole(form.get("points_limit", "")),
            "nations": nations or None, "historical": bool(form.get("historical")),
            "deadline": _deadline(form.get("deadline", "")), "caps": caps,
            "no_engines": bool(form.get("no_engines")),
            "no_mercenaries": bool(form.get("no_mercenaries"))}


@router.post("/e/new")
def create(request: Request, form: PostedForm, session: SessionDep) -> Response:
    try:
        rules = EventRules.model_validate(rules_of(form))
    except ValidationError as exc:
        shown = {**dict(form.items()), "nations": form.all("nations")}
        return page(request, "events/new.html", _form_context(
            shown, problem_text(exc.errors(include_url=False))), status_code=422)
    created = events.create_event(session, rules, admit=lambda: take_creation(request, session))
    event_id = created.event.id
    response = redirect(request, f"/e/{event_id}/organise?created=1")
    # Both keys reach the organiser's page once; it shows the secret links and forgets them.
    response.set_cookie(CREATED_COOKIE, f"{created.organiser_key}.{created.hand_in_key}",
                        max_age=600, **{**cookie_flags(request), "path": f"/e/{event_id}"})
    return response


@router.get("/e/{event_id}")
def public(request: Request, event_id: str, session: SessionDep) -> Response:
    """The event's rules and how many lists are in; once published, every army."""
    event = stored_event(session, event_id)
    if event is None:
        return missing(request)
    lang = i18n.current_lang()
    armies = events.lists(session, event.id) if event.published_at else []
    response = page(request, "events/public.html", {
        "event": event, **rules_context(event.rules, lang),
        "armies": [(h, h.judged(event.rules, lang)) for h in armies]})
    response.headers["Cache-Control"] = "no-cache"
    return response


def _list(session: Session, event: events.StoredEvent, list_id: str,
          key: str) -> HandedIn | None:
    """The list, for the organiser (their key) or anyone once published."""
    organiser = holds_key(session, event.id, key, "organiser")
    if not (event.published_at or organiser):
        return None
    return next((h for h in events.lists(session, event.id, history=organiser)
                 if h.id == list_id), None)


@router.get("/e/{event_id}/l/{list_id}")
def list_view(request: Request, event_id: str, list_id: str, session: SessionDep) -> Response:
    """A handed-in list with the event's rules applied: its verdict, the reasons, the note
    to send its player, and its printed sheet."""
    if (exchanged := secret_link(request, "organiser", f"/e/{event_id}")) is not None:
        return exchanged
    key = secret(request, "organiser")
    event = stored_event(session, event_id)
    handed = _list(session, event, list_id, key) if event else None
    if event is None or handed is None:
        return missing(request)
    lang = i18n.current_lang()
    judgement = handed.judged(event.rules, lang)
    response = page(request, "events/list.html", {
        "event": event, **rules_context(event.rules, lang), "handed": handed,
        "judgement": judgement, "key": key,
        "reminder": reminder(event.rules, handed.player, judgement, lang)})
    response.headers["Cache-Control"] = "no-store" if key else "no-cache"
    return response


@router.get("/e/{event_id}/l/{list_id}/print")
def list_sheet(request: Request, event_id: str, list_id: str, session: SessionDep,
               paper: str = "a4") -> Response:
    """The list's printed army sheet, as handed in."""
    if (exchanged := secret_link(request, "organiser", f"/e/{event_id}")) is not None:
        return exchanged
    key = secret(request, "organiser")
    event = stored_event(session, event_id)
    handed = _list(session, event, list_id, key) if event else None
    if event is None or handed is None:
        return missing(request)
    lang = i18n.current_lang()
    ruleset = str(handed.document.ruleset)  # type: ignore[attr-defined]
    system = SYSTEMS[ruleset].writers
    sheet = sheet_of(handed.document, lang, [])
    here = f"/e/{event.id}/l/{handed.id}"
    share_url = f"{site_address(request)}/e/{event.id}"
    response = render(request, f"systems/{ruleset}/print.html", {
        "lang": lang, "words": system.print_words(lang), "sheet": sheet,
        "roster_id": handed.roster_id, "chosen": [], "paper": paper if paper == "letter"
        else "a4", "share_url": share_url, "qr": share_qr(share_url), "max_boxes": MAX_BOXES,
        "sheet_path": f"{here}/print", "back_path": here,
        **system.print_context(sheet)})
    response.headers["Content-Language"] = lang
    response.headers["Cache-Control"] = "no-store" if key else "no-cache"
    return response
