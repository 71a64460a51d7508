"""The editor's page: an edit link exchanged for this browser's right to edit, the page
itself, and a new edit link."""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlmodel import Session

from app.domain.translations import counted
from app.http.deps import SessionDep, is_id
from app.http.language import as_lang
from app.services import devices, opening, rosters
from app.services.errors import (
    EditRefused,
    KeyRejected,
    RosterDeleted,
    RosterNotFound,
    UnknownDevice,
)
from app.services.stored_rosters import RESTORE_DAYS
from app.web import i18n
from app.web.deletion import restorable_page
from app.web.pages import (
    NEW_KEY_COOKIE,
    PostedForm,
    RosterAddress,
    browser_device,
    browser_token,
    cookie_flags,
    editing_device,
    missing_roster,
    not_editable,
    page,
    redirect,
    refuse,
    remember_roster,
    roster_context,
    show_key_once,
)
from app.web.templating import is_htmx

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])
# An edit link's key, from the link to the editor's page that exchanges it (see editor).
LINK_KEY_COOKIE = "muster_link_key"
LINK_KEY_SECONDS = 120


def _link_refused(request: Request, session: Session, roster_id: str,
                  key: str) -> Response | None:
    """The refusal of an edit link whose key is not the roster's, or of a deleted roster;
    None for a good one."""
    try:
        rosters.check_edit_key(session, roster_id, key)
    except RosterNotFound:
        return missing_roster(request)
    except KeyRejected:
        # The share view is offered only while it is there to read.
        live = rosters.is_live(session, roster_id)
        return refuse(request, 403, i18n.gettext("This edit link is not valid."),
                       roster_id if live else None)
    try:  # the key of a deleted roster is still its key: it may restore it
        rosters.get_roster(session, roster_id)
    except RosterDeleted as gone:
        return restorable_page(request, roster_id, gone, key=key)
    except RosterNotFound:
        return missing_roster(request)
    return None


@router.get("/r/{roster_id}/edit")
def editor(request: Request, roster_id: str, session: SessionDep, key: str = "") -> Response:
    if not is_id(roster_id):
        return missing_roster(request)
    editor_path = f"/r/{roster_id}/edit"
    if key:
        # Exchange the edit link for a device grant, so the key leaves the address bar.
        if (refused := _link_refused(request, session, roster_id, key)) is not None:
            return refused
        # The key leaves the address; a language asked for in it stays.
        lang = as_lang(request.query_params.get("lang"))
        response = redirect(request, quote(editor_path) + (f"?lang={lang}" if lang else ""))
        device_id = browser_device(request, session)
        try:
            if device_id is not None:
                devices.open_with_key(session, device_id, roster_id)
        except UnknownDevice:  # forgotten meanwhile: remembered anew, as below
            device_id = None
        if device_id is None:
            # A browser not remembered yet is remembered when it comes back with the key in
            # a cookie: a client that keeps no cookies (a script, a link's preview) stores
            # nothing, where it left a device and a grant behind each time it asked.
            response.set_cookie(LINK_KEY_COOKIE, key, max_age=LINK_KEY_SECONDS,
                                **{**cookie_flags(request), "path": editor_path})
        return response
    linked = request.cookies.get(LINK_KEY_COOKIE, "")[:64]
    if linked:
        refused = _link_refused(request, session, roster_id, linked)
        if refused is None:
            # Deleted since the key was checked: the editor's page says so (and offers it back).
            with contextlib.suppress(RosterNotFound):
                remember_roster(request, session, roster_id, by_key=True)
        response = refused or _editor_page(request, session, roster_id)
        response.delete_cookie(LINK_KEY_COOKIE, path=editor_path)
        return response
    return _editor_page(request, session, roster_id)


def editing_context(request: Request) -> dict[str, Any]:
    """What the editor's whole page shows to a browser that may edit (its cards for a new edit
    link and for deleting), whether it answers a visit or a refused plain form."""
    # How long the home page offers it back once deleted: "30 days", «30 дней».
    return {"editing": True, "restore_period": counted(RESTORE_DAYS, "day",
                                                       i18n.request_lang(request))}


def _undo_chain(request: Request, version: int) -> int | None:
    """How far the editor's undo goes back after undoing (`?undo_to=` of the address an undo
    left), or None for the version before the current one; a value that cannot be one is
    ignored."""
    text = request.query_params.get("undo_to", "")
    if text.isascii() and text.isdigit() and len(text) < 10 and int(text) < version:
        return int(text)
    return None


def _editor_page(request: Request, session: Session, roster_id: str) -> Response:
    try:
        stored = opening.open_for_editing(session, roster_id, browser_token(request))
    except opening.RestorableRoster as gone:
        return restorable_page(request, roster_id, gone)
    except EditRefused:
        return refuse(request, 403, i18n.gettext(
            "This browser may not edit this roster. "
            "Open its edit link, or copy it to your rosters."), roster_id)
    context = roster_context(request, stored)
    new_key = request.cookies.get(NEW_KEY_COOKIE)
    context["edit_url"] = (context["share_url"] + f"/edit?key={new_key}") if new_key else None
    context.update(editing_context(request))
    # Back from "Restore" (its redirect): said once, where the keyboard's focus starts.
    context["restored"] = request.query_params.get("restored") == "1"
    context["undo_to"] = _undo_chain(request, stored.version)
    asked = request.query_params.get("suggest") == "1" and "suggest" in context
    fill = asked and request.query_params.get("fill") == "1"
    if asked:
        context["fill" if fill else "suggestion"] = context["suggest"](fill=fill)
    # "Make it legal" (or "Fill to the limit") asked for by htmx: its card alone.
    card = "_fill.html" if fill else "_make_legal.html"
    name = f"{context['system']}/{card}" if asked and is_htmx(request) else "rosters/edit.html"
    response = page(request, name, context)
    # The editor may show the edit key (once, after creation or a new link), and is this
    # browser's own: no cache, the browser's disk or back-forward cache included, keeps it.
    response.headers["Cache-Control"] = "no-store"
    if new_key:
        response.delete_cookie(NEW_KEY_COOKIE, path=f"/r/{roster_id}/edit")
    return response


@router.post("/r/{roster_id}/link")
def new_link(request: Request, roster_id: RosterAddress, form: PostedForm,
             session: SessionDep) -> Response:
    """A new edit link for an owner editing in this browser; the old link stops working."""
    device_id = editing_device(request, session, roster_id)
    if device_id is None:
        return not_editable(request)
    key = rosters.new_edit_key(session, roster_id, keep_device=device_id)
    response = redirect(request, f"/r/{quote(roster_id)}/edit")
    show_key_once(request, response, roster_id, key)
    return response
