"""HTML pages: home and "my rosters", the editor, the share view, language, about.

Every page route renders the whole page, or for htmx only the fragment that changed (with the
totals and the rules panel refreshed out of band). Every action is a plain form too, so the
builder works with JavaScript off (post, redirect, get).
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import secrets
from collections.abc import Callable
from typing import Any, NamedTuple
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.deps import ROSTER_ID, SessionDep
from app.domain import RULESETS, Evaluation, get_ruleset
from app.domain.stored_documents import DOCUMENT
from app.domain.words import counted
from app.imports import ImportRefused, parse_roster
from app.services import creation_limit, devices, revisions, rosters
from app.services.errors import (
    DocumentTooLarge,
    EditRefused,
    KeyRejected,
    RevisionNotFound,
    RosterDeleted,
    RosterNotFound,
    UnknownDevice,
    VersionConflict,
)
from app.services.records import RESTORE_DAYS, StoredRoster
from app.storage.db import open_session
from app.storage.tables import utcnow
from app.web import conditional, editing, i18n
from app.web.problems import edit_problem, problem_text
from app.web.security import csrf_ok, same_origin
from app.web.systems import SYSTEMS
from app.web.templating import VARY, is_htmx, render, site_address

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])
DEVICE_COOKIE = "muster_device"
CSRF_COOKIE = "muster_csrf"
NEW_KEY_COOKIE = "muster_new_key"
# An edit link's key, from the link to the editor's page that exchanges it (see editor).
LINK_KEY_COOKIE = "muster_link_key"
LINK_KEY_SECONDS = 120
YEAR = 365 * 24 * 3600
EDITOR_BLOCKS = ["editor", "version", "summary", "rules"]
STATUS_ORDER = {"broken": 0, "warning": 1, "kept": 2}


# ---------------------------------------------------------------- cookies and context

def _cookie_flags(request: Request) -> dict[str, Any]:
    settings = request.app.state.settings
    return {"httponly": True, "samesite": "lax", "secure": settings.secure_cookies, "path": "/"}


def _csrf_value(request: Request) -> str:
    """The page's CSRF token: the browser's csrf cookie, or a new one set with this answer."""
    token = request.cookies.get(CSRF_COOKIE)
    if not token or len(token) > 64:
        token = getattr(request.state, "new_csrf", None) or secrets.token_urlsafe(18)
        request.state.new_csrf = token
    return token


def _finish(request: Request, response: Response) -> Response:
    new = getattr(request.state, "new_csrf", None)
    if new:
        response.set_cookie(CSRF_COOKIE, new, max_age=YEAR, **_cookie_flags(request))
    new_device = getattr(request.state, "new_device", None)
    if new_device:
        response.set_cookie(DEVICE_COOKIE, new_device, max_age=YEAR, **_cookie_flags(request))
    return response


def _device(request: Request, session: Any, create: bool = False) -> int | None:
    # A device made for this request is the browser's from now on (its cookie is on the way).
    token = getattr(request.state, "new_device", None) or request.cookies.get(DEVICE_COOKIE, "")
    device_id = devices.find_device(session, token) if token else None
    if device_id is None and create:
        device_id, token = devices.new_device(session)
        request.state.new_device = token
    return device_id


def _remember(request: Request, session: Any, roster_id: str, *, by_key: bool = False) -> int:
    """Note a roster this browser may edit in its "my rosters" (`by_key`: opened with its edit
    key, devices.open_with_key); the browser's device, made now if it has none. A device
    forgotten between reading the cookie and writing the note (a bound on a roster's browsers,
    or the purge) makes this browser a new one, rather than leaving the roster unreachable
    (a new one's edit key is shown only on the editor, which asks for the note)."""
    for _ in range(2):
        device_id = _device(request, session, create=True)
        assert device_id is not None
        try:
            if by_key:
                devices.open_with_key(session, device_id, roster_id)
            else:
                devices.remember(session, device_id, roster_id, True)
            return device_id
        except UnknownDevice:
            request.state.new_device = None  # the cookie's device is gone: the next is new
    raise RuntimeError("a new device was forgotten at once")


@functools.cache
def _names(lang: str, ruleset: str = "chainmail") -> dict[str, dict[str, str]]:
    """Display names of every catalogue list of a rule system, by id, in `lang`."""
    system = get_ruleset(ruleset)
    catalogue = system.catalogue() if system else {}
    key = "name_ru" if lang == "ru" else "name_en"
    return {group: {item["id"]: item[key] for item in items}
            for group, items in catalogue.items()
            if isinstance(items, list) and items and isinstance(items[0], dict)
            and "id" in items[0] and key in items[0]}


def page(request: Request, name: str, context: dict[str, Any], **kwargs: Any) -> Response:
    lang = i18n.request_lang(request)
    ruleset = context["doc"]["ruleset"] if "doc" in context else "chainmail"
    context = {"csrf": _csrf_value(request), "names": _names(lang, ruleset),
               "systems": {i: s.name_ru if lang == "ru" else s.name_en
                           for i, s in RULESETS.items() if i in SYSTEMS}, **context}
    return _finish(request, render(request, name, context, **kwargs))


def _redirect(request: Request, url: str) -> Response:
    return _finish(request, RedirectResponse(url, status_code=303))


async def _form(request: Request) -> editing.Form:
    """The page's form fields (its files, the import's, are read by import_file). What the
    parser refuses comes out as editing's own refusals, so that a page answers it on a page in
    the player's language (Starlette would answer a bare English 400)."""
    data = await _multipart(request)
    return editing.Form([(k, v) for k, v in data.multi_items() if isinstance(v, str)])


async def _multipart(request: Request) -> FormData:
    """A form's fields and files, as Starlette reads them (python-multipart)."""
    try:
        return await request.form(max_fields=editing.MAX_FIELDS)
    except StarletteHTTPException as exc:
        if exc.status_code != 400:
            raise
        if str(exc.detail).startswith("Too many fields"):
            raise editing.TooManyFields(str(exc.detail)) from exc
        raise editing.UnreadableForm(str(exc.detail)) from exc


def _unreadable(request: Request, refused: ValueError) -> Response:
    """The refusal of a form that was not read: nothing was done with it."""
    if isinstance(refused, editing.TooManyFields):
        return _refuse(request, 400, i18n.gettext(
            "Too many fields: a form takes at most %(n)s.") % {"n": editing.MAX_FIELDS})
    return _refuse(request, 400, i18n.gettext(
        "This form could not be read. Reload the page and try again."))


async def _in_thread(request: Request, work: Callable[..., Response], *args: Any) -> Response:
    """`work(request, session, *args)` in one trip to a worker thread, with a session opened
    and closed there: the routes that read a form on the event loop do everything else in one
    trip (a session dependency would add two more, to open and to close it)."""
    def run() -> Response:
        with open_session(request) as session:
            return work(request, session, *args)

    return await run_in_threadpool(run)


async def _with_form(request: Request, work: Callable[..., Response], *args: Any) -> Response:
    """`work(request, session, *args, form)` with the page's form, read on the event loop (see
    _in_thread); a form of more fields than any page has, or one that cannot be read, is
    refused before anything is read from the database."""
    try:
        form = await _form(request)
    except (editing.TooManyFields, editing.UnreadableForm) as refused:
        return _unreadable(request, refused)
    return await _in_thread(request, work, *args, form)


async def _roster_form(request: Request, roster_id: str,
                       work: Callable[..., Response]) -> Response:
    """A form posted to one roster's address: `work(request, session, roster_id, form)`, as
    _with_form runs it; an id that cannot name a roster is answered at once, unread."""
    if _no_such_id(roster_id):
        return _missing(request)
    return await _with_form(request, work, roster_id)


def _refuse(request: Request, status: int, message: str, roster_id: str | None = None) -> Response:
    """A refusal page; with `roster_id`, it links the roster's share view, where anyone may
    read it and copy it to their own rosters."""
    share = f"/r/{quote(roster_id)}" if roster_id else None
    return page(request, "rosters/refused.html", {"message": message, "share": share},
                status_code=status)


# A roster id as the API's RosterId reads it: anything else names no roster and is not looked
# up (a NUL reaches PostgreSQL as an error).
_ROSTER_ID = re.compile(ROSTER_ID)


def _no_such_id(roster_id: str) -> bool:
    return _ROSTER_ID.fullmatch(roster_id) is None


def _missing(request: Request) -> Response:
    return _refuse(request, 404, i18n.gettext("There is no roster at this address."))


def _deleted(request: Request) -> Response:
    """The share view of a roster that was deleted: said to anyone who has its link, without
    how to restore it (its owner is told that on the editor, with the key)."""
    return _refuse(request, 410, i18n.gettext("This roster was deleted by its owner."))


def deleted_page(request: Request) -> Response:
    """A browser's answer for a page of a deleted roster that no page route words itself (the
    print sheet refuses as the API does): the share view's, in the page's language."""
    i18n.use_lang(i18n.request_lang(request))
    return _deleted(request)


def _gone(request: Request, error: RosterNotFound) -> Response:
    return _deleted(request) if isinstance(error, RosterDeleted) else _missing(request)


def nothing_here(request: Request) -> Response:
    """A browser's answer for an address no route has: the site's page, in its language (no
    route ran, so no dependency chose the language yet)."""
    i18n.use_lang(i18n.request_lang(request))
    return _refuse(request, 404, i18n.gettext("There is nothing at this address."))


def _not_editable(request: Request) -> Response:
    return _refuse(request, 403, i18n.gettext("This browser may not edit this roster."))


def _expired(request: Request) -> Response:
    return _refuse(request, 403, i18n.gettext(
        "This form has expired. Reload the page and try again."))


def _over_limit(request: Request, session: Any) -> Response | None:
    """Count a roster about to be created; the refusal page when this address is over the
    creation limit (app/creation_limit.py)."""
    try:
        creation_limit.take_creation(request, session)
    except creation_limit.CreationRefused as refused:
        return _limit_refusal(request, refused)
    return None


def _limit_refusal(request: Request, refused: creation_limit.CreationRefused) -> Response:
    response = _refuse(request, 429, refused.message(i18n.request_lang(request)))
    response.headers["Retry-After"] = str(refused.retry_after)
    return response


def _created(request: Request, created: rosters.Created) -> Response:
    """Open the new roster's editor; its edit link is shown there once, then forgotten."""
    response = _redirect(request, f"/r/{created.roster.id}/edit?created=1")
    _show_key_once(request, response, created.roster.id, created.edit_key)
    return response


def _show_key_once(request: Request, response: Response, roster_id: str, key: str) -> None:
    # A short-lived cookie scoped to the editor's path carries the key to the one page that
    # shows it; the editor deletes it at once. The key never enters the address bar or logs.
    response.set_cookie(NEW_KEY_COOKIE, key, max_age=600,
                        **{**_cookie_flags(request), "path": f"/r/{roster_id}/edit"})


def roster_context(request: Request, stored: StoredRoster,
                   evaluation: Evaluation | None = None) -> dict[str, Any]:
    """What every roster page shows; `evaluation` is the stored document's in the page's
    language, when the caller has it already."""
    lang = i18n.request_lang(request)
    system = RULESETS[stored.ruleset]
    evaluation = evaluation or system.evaluate(stored.document, lang)
    catalogue = system.catalogue()
    doc = stored.document.model_dump(mode="json")
    return {
        "roster": stored,
        "doc": doc,
        "result": evaluation.result,
        # What needs the player's attention first; the order within each status is the rules'.
        "checks": sorted(evaluation.checks, key=lambda c: STATUS_ORDER[c.status.value]),
        "catalogue": catalogue,
        "system": f"systems/{stored.ruleset}",
        "share_url": f"{site_address(request)}/r/{stored.id}",
        **SYSTEMS[stored.ruleset].page_context(doc, evaluation.result, catalogue, lang),
    }


# ---------------------------------------------------------------- home and my rosters

SORTS = ("updated", "name", "nation", "points")


@router.get("/")
def home(request: Request, session: SessionDep, q: str = "", sort: str = "updated",
         dir: str = "desc") -> Response:
    return _home(request, session, q=q[:120], sort=sort if sort in SORTS else "updated",
                 dir="asc" if dir == "asc" else "desc")


def _home(request: Request, session: Session, status_code: int = 200,
          **shown: Any) -> Response:
    """The home page: a new army's form (`form`, `error`), this browser's rosters (searched
    and sorted by `q`, `sort`, `dir`), the deleted ones it may restore, and the import's form
    (`import_error`); the same whether it answers a visit or a refused form."""
    context: dict[str, Any] = {"q": "", "sort": "updated", "dir": "desc", "form": {},
                               "error": None, **shown}
    device_id = _device(request, session)
    context["mine"] = devices.my_rosters(
        session, device_id, query=context["q"], sort=context["sort"],
        descending=context["dir"] == "desc") if device_id else []
    deleted = devices.deleted_rosters(session, device_id) if device_id else []
    # Just deleted from the editor (?deleted=id): said at the top of the list, if it is there.
    just = request.query_params.get("deleted", "")
    context["deleted"] = deleted
    context["just_deleted"] = next((d for d in deleted if d.id == just), None)
    return page(request, "rosters/home.html", context, blocks=["my_rosters"],
                status_code=status_code)


@router.post("/rosters/new")
async def create(request: Request) -> Response:
    return await _with_form(request, _create)


def _create(request: Request, session: Session, form: editing.Form) -> Response:
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), form.get("csrf")):
        return _expired(request)
    ruleset = form.get("ruleset", "chainmail")
    try:
        if ruleset not in SYSTEMS:
            raise editing.EditError("ruleset", f"unknown rule system {ruleset[:40]!r}")
        # A form's every field is text: here (not in the JSON API) "400" is read as 400.
        model = DOCUMENT.validate_python(SYSTEMS[ruleset].new_document(form), strict=False)
    except editing.EditError as exc:
        system = ruleset if ruleset in SYSTEMS else None
        return _refuse(request, 422, edit_problem(exc.field, exc.message, system=system))
    except ValidationError as exc:
        return _home(request, session, 422, form=form,
                     error=problem_text(exc.errors(), system=ruleset))
    if (refused := _over_limit(request, session)) is not None:
        return refused
    created = rosters.create_roster(session, model)
    _remember(request, session, created.roster.id)
    # The key is shown once, on the editor, right after creation.
    return _created(request, created)


@router.post("/rosters/import")
async def import_file(request: Request) -> Response:
    """The home page's upload form: a file exported from Muster becomes a new roster."""
    try:
        data = await _multipart(request)
    except (editing.TooManyFields, editing.UnreadableForm) as refused:
        return _unreadable(request, refused)
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), str(data.get("csrf") or "")):
        return _expired(request)
    upload = data.get("file")
    lang = i18n.request_lang(request)
    try:
        if upload is None or isinstance(upload, str):
            raise ImportRefused([{"field": "file", "type": "missing", "loc": [],
                                  "message": i18n.gettext("choose a file to import")}])
        model = parse_roster(await upload.read(), lang)
    except ImportRefused as refused:
        return await _in_thread(request, _import_refused, refused)
    return await _in_thread(request, _import, model)


def _import_refused(request: Request, session: Session, refused: ImportRefused) -> Response:
    why = problem_text(refused.errors) if refused.errors else refused.message
    message = i18n.gettext("The file was not imported: %(why)s") % {"why": why}
    return _home(request, session, 422, import_error=message)


def _import(request: Request, session: Session, model: Any) -> Response:
    try:
        # Counted once the roster is accepted, its size too: a refused file costs nothing.
        created = rosters.create_roster(
            session, model, admit=lambda: creation_limit.take_creation(request, session))
    except DocumentTooLarge:
        return _refuse(request, 413, i18n.gettext(
            "This roster is too large to store: it could not be sent back as read or "
            "exported."))
    except creation_limit.CreationRefused as refused:
        return _limit_refusal(request, refused)
    _remember(request, session, created.roster.id)
    return _created(request, created)


@router.get("/lang/{lang}")
def switch_language(request: Request, lang: str, next: str = "/") -> Response:
    chosen = i18n.as_lang(lang)
    # Only local paths: the switch must not become an open redirect.
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if chosen:
        response.set_cookie(i18n.LANG_COOKIE, chosen, max_age=YEAR, **_cookie_flags(request))
    return response


@router.get("/about")
def about(request: Request) -> Response:
    return page(request, "rosters/about.html", {})


# ---------------------------------------------------------------- share view and copy

@router.get("/r/{roster_id}")
def view(request: Request, roster_id: str, session: SessionDep) -> Response:
    if _no_such_id(roster_id):
        return _missing(request)
    try:
        stored = rosters.get_roster(session, roster_id)
    except RosterNotFound as gone:
        return _gone(request, gone)
    _note_reader(request, session, roster_id)
    # The page differs by version, language and the browser's CSRF token (in its copy form);
    # the browser asks again each time (no-cache) and is answered 304 while it is the same.
    tag = conditional.etag(stored.version, i18n.request_lang(request), _csrf_value(request))
    cache = {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": VARY}
    if conditional.fresh(request, tag):
        return _finish(request, Response(status_code=304, headers=cache))
    # Drawn with no query string but a language asked for (where the language links return):
    # a visitor's `?utm_source=…` must not reach the page's links.
    asked = i18n.as_lang(request.query_params.get("lang"))
    shown = Request({**request.scope, "query_string": f"lang={asked}".encode() if asked else b""},
                    request.receive)
    response = page(shown, "rosters/view.html", roster_context(shown, stored))
    response.headers.update(cache)
    return response


def _note_reader(request: Request, session: Session, roster_id: str) -> None:
    """Note the roster in this browser's "my rosters", if it has one. A device forgotten
    meanwhile (a bound, the purge) notes nothing: the view is shown all the same, and the
    browser is a new one at its next roster. So does a roster deleted since it was read."""
    if not request.cookies.get(DEVICE_COOKIE):
        return
    device_id = _device(request, session)
    if device_id is not None:
        with contextlib.suppress(UnknownDevice, RosterNotFound):
            devices.remember(session, device_id, roster_id, False)


@router.post("/r/{roster_id}/copy")
async def copy(request: Request, roster_id: str) -> Response:
    return await _roster_form(request, roster_id, _copy)


def _copy(request: Request, session: Session, roster_id: str, form: editing.Form) -> Response:
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), form.get("csrf")):
        return _expired(request)
    try:
        rosters.get_roster(session, roster_id)  # a missing roster is 404, not a creation
        if (refused := _over_limit(request, session)) is not None:
            return refused
        created = rosters.copy_roster(session, roster_id)
    except RosterNotFound as error:
        return _gone(request, error)
    _remember(request, session, created.roster.id)
    return _created(request, created)


# ---------------------------------------------------------------- the editor

def _link_refused(request: Request, session: Session, roster_id: str,
                  key: str) -> Response | None:
    """The refusal of an edit link whose key is not the roster's, or of a deleted roster;
    None for a good one."""
    try:
        rosters.check_edit_key(session, roster_id, key)
    except RosterNotFound:
        return _missing(request)
    except KeyRejected:
        # The share view is offered only while it is there to read.
        live = rosters.is_live(session, roster_id)
        return _refuse(request, 403, i18n.gettext("This edit link is not valid."),
                       roster_id if live else None)
    try:  # the key of a deleted roster is still its key: it may restore it
        rosters.get_roster(session, roster_id)
    except RosterDeleted as gone:
        return _restorable(request, roster_id, gone, key=key)
    except RosterNotFound:
        return _missing(request)
    return None


@router.get("/r/{roster_id}/edit")
def editor(request: Request, roster_id: str, session: SessionDep, key: str = "") -> Response:
    if _no_such_id(roster_id):
        return _missing(request)
    editor_path = f"/r/{roster_id}/edit"
    if key:
        # Exchange the edit link for a device grant, so the key leaves the address bar.
        if (refused := _link_refused(request, session, roster_id, key)) is not None:
            return refused
        # The key leaves the address; a language asked for in it stays.
        lang = i18n.as_lang(request.query_params.get("lang"))
        response = _redirect(request, quote(editor_path) + (f"?lang={lang}" if lang else ""))
        device_id = _device(request, session)
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
                                **{**_cookie_flags(request), "path": editor_path})
        return response
    linked = request.cookies.get(LINK_KEY_COOKIE, "")[:64]
    if linked:
        refused = _link_refused(request, session, roster_id, linked)
        if refused is None:
            # Deleted since the key was checked: the editor's page says so (and offers it back).
            with contextlib.suppress(RosterNotFound):
                _remember(request, session, roster_id, by_key=True)
        response = refused or _editor_page(request, session, roster_id)
        response.delete_cookie(LINK_KEY_COOKIE, path=editor_path)
        return response
    return _editor_page(request, session, roster_id)


def _editing(request: Request) -> dict[str, Any]:
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
    if text.isdigit() and len(text) < 10 and int(text) < version:
        return int(text)
    return None


def _opened_to_edit(session: Session, device_id: int | None, roster_id: str) -> bool:
    """Whether the device may edit the roster; if so, noted as opening it now. A device
    forgotten since its right was read (a bound, the purge) may not."""
    if device_id is None or not devices.can_edit(session, device_id, roster_id):
        return False
    try:
        devices.remember(session, device_id, roster_id, True)
    except UnknownDevice:
        return False
    return True


def _editor_page(request: Request, session: Session, roster_id: str) -> Response:
    try:
        stored = rosters.get_roster(session, roster_id)
    except RosterDeleted as gone:
        device_id = _device(request, session)
        if device_id is not None and devices.can_edit(session, device_id, roster_id):
            return _restorable(request, roster_id, gone)
        return _deleted(request)
    except RosterNotFound as error:
        return _gone(request, error)
    try:
        may_edit = _opened_to_edit(session, _device(request, session), roster_id)
    except RosterNotFound as error:  # deleted since it was read
        return _gone(request, error)
    if not may_edit:
        return _refuse(request, 403, i18n.gettext(
            "This browser may not edit this roster. "
            "Open its edit link, or copy it to your rosters."), roster_id)
    context = roster_context(request, stored)
    new_key = request.cookies.get(NEW_KEY_COOKIE)
    context["edit_url"] = (context["share_url"] + f"/edit?key={new_key}") if new_key else None
    context.update(_editing(request))
    # Back from "Restore" (its redirect): said once, where the keyboard's focus starts.
    context["restored"] = request.query_params.get("restored") == "1"
    context["undo_to"] = _undo_chain(request, stored.version)
    response = page(request, "rosters/edit.html", context)
    # The editor may show the edit key (once, after creation or a new link), and is this
    # browser's own: no cache, the browser's disk or back-forward cache included, keeps it.
    response.headers["Cache-Control"] = "no-store"
    if new_key:
        response.delete_cookie(NEW_KEY_COOKIE, path=f"/r/{roster_id}/edit")
    return response


@router.post("/r/{roster_id}/link")
async def new_link(request: Request, roster_id: str) -> Response:
    """A new edit link for an owner editing in this browser; the old link stops working."""
    return await _roster_form(request, roster_id, _new_link)


def _granted(request: Request, session: Session, roster_id: str,
             form: editing.Form) -> tuple[int | None, Response | None]:
    """For a form of the editor's that only a browser that may edit the roster can send (a
    new edit link, deleting): this browser's device, or None with the refusal of one that may
    not: an expired form (no CSRF field of this site's) or a browser without the right."""
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), form.get("csrf")):
        return None, _expired(request)
    device_id = _editing_device(request, session, roster_id)
    return device_id, None if device_id is not None else _not_editable(request)


def _editing_device(request: Request, session: Session, roster_id: str) -> int | None:
    """This browser's device when it may edit the roster, else None."""
    device_id = _device(request, session)
    if device_id is None or not devices.can_edit(session, device_id, roster_id):
        return None
    return device_id


def _new_link(request: Request, session: Session, roster_id: str,
              form: editing.Form) -> Response:
    device_id, refused = _granted(request, session, roster_id, form)
    if refused is not None:
        return refused
    try:
        key = rosters.new_edit_key(session, roster_id, keep_device=device_id)
    except RosterNotFound as error:
        return _gone(request, error)
    response = _redirect(request, f"/r/{quote(roster_id)}/edit")
    _show_key_once(request, response, roster_id, key)
    return response


# ---------------------------------------------------------------- deleting and restoring

def _too_late() -> str:
    return i18n.gettext("This roster can no longer be restored: the time to restore it is over.")


def _restorable(request: Request, roster_id: str, gone: RosterDeleted,
                key: str = "") -> Response:
    """The page of a deleted roster for whoever may restore it: a browser that may edit it,
    or one holding its edit link (`key`, sent back with the form: the link has no grant to
    stand on). Kept by no cache: it may carry the key."""
    if gone.restorable_until <= utcnow():  # past it, until the purge removes it
        return _refuse(request, 410, _too_late())
    lang = i18n.request_lang(request)
    response = page(request, "rosters/refused.html", {
        "message": i18n.gettext("This roster was deleted. It can be restored before %(date)s.")
        % {"date": i18n.day(gone.restorable_until, lang)},
        "restore": {"action": f"/r/{quote(roster_id)}/restore", "key": key}},
        status_code=410)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/r/{roster_id}/delete")
async def delete(request: Request, roster_id: str) -> Response:
    """Delete a roster this browser may edit: its share link and editor answer 410, and this
    browser's home page offers it back for RESTORE_DAYS days (the API's DELETE)."""
    return await _roster_form(request, roster_id, _delete)


def _delete(request: Request, session: Session, roster_id: str,
            form: editing.Form) -> Response:
    if (refused := _granted(request, session, roster_id, form)[1]) is not None:
        return refused
    try:
        rosters.delete_roster(session, roster_id)  # twice keeps the first date
    except RosterNotFound:
        return _missing(request)
    # Its notice takes the focus (autofocus), which a #fragment in the address would prevent.
    return _redirect(request, f"/?deleted={quote(roster_id)}")


@router.post("/r/{roster_id}/restore")
async def restore(request: Request, roster_id: str) -> Response:
    """Restore a deleted roster, from a browser that may edit it or with its edit key."""
    return await _roster_form(request, roster_id, _restore)


def _restore(request: Request, session: Session, roster_id: str,
             form: editing.Form) -> Response:
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), form.get("csrf")):
        return _expired(request)
    # A browser that may edit it, as for _granted's forms; else the edit key the form holds.
    granted = _editing_device(request, session, roster_id) is not None
    key = form.get("key", "")[:64]
    if not granted:
        if not key:
            return _not_editable(request)
        try:
            rosters.check_edit_key(session, roster_id, key)
        except RosterNotFound:
            return _missing(request)
        except KeyRejected:  # a roster to restore has no share view to offer
            return _refuse(request, 403, i18n.gettext("This edit link is not valid."))
    try:
        rosters.get_roster(session, roster_id)
        deleted = False  # a live roster stays as it is
    except RosterDeleted:
        deleted = True
    except RosterNotFound:  # purged, or never stored
        return _missing(request)
    try:
        rosters.restore_roster(session, roster_id)
    except RosterNotFound:  # past the time to restore it: gone, as its pages say
        return _refuse(request, 410, _too_late())
    if not granted:
        # The key holder edits in this browser from now on, as after opening the link.
        _remember(request, session, roster_id, by_key=True)
    return _redirect(request, f"/r/{quote(roster_id)}/edit" + ("?restored=1" if deleted else ""))


@router.post("/r/{roster_id}/edit")
async def edit(request: Request, roster_id: str) -> Response:
    # The form is read on the event loop; storing and drawing run in one worker thread, so a
    # write waiting for the database never holds up other requests.
    return await _roster_form(request, roster_id, _edit)


class _Posted(NamedTuple):
    """An editor's change as posted, its right to be made proved as far as the form can."""

    form: editing.Form  # with the page's language, in which new units are named
    lang: str
    token: str  # the browser's device token: its right to edit is proved by the write
    expected: int  # the version the page shows
    undoing: bool


def _posted_change(request: Request, form: editing.Form) -> _Posted | None:
    """The change, or None for a form that is not this site's page's (CSRF)."""
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), form.get("csrf")) or \
            not same_origin(request):
        return None
    try:
        # htmx sends the page's current version (kept fresh out of band) as version_now; a
        # plain form sends the version it was drawn at.
        expected = int(form.get("version_now") or form.get("version", ""))
    except ValueError:
        expected = -1
    lang = i18n.request_lang(request)
    return _Posted(editing.Form([*form.items_list(), ("lang", lang)]), lang,
                   request.cookies.get(DEVICE_COOKIE, ""), expected,
                   (form.get("action") or form.get("op", "")) == "undo")


def _edit(request: Request, session: Session, roster_id: str, form: editing.Form) -> Response:
    """The editor's change, in a worker thread: read (proving the right), apply, validate,
    and one write that checks the version (rosters.replace_roster)."""
    change = _posted_change(request, form)
    if change is None:
        return _expired(request)
    form, lang, token, expected = change.form, change.lang, change.token, change.expected
    problem: str | None = None
    status = 200
    model: Any = None
    evaluated: Evaluation | None = None
    undo_to: int | None = None  # after an undo, where the next one goes back to
    try:
        stored = devices.editable_roster(session, token, roster_id)
        if expected != stored.version:
            problem = i18n.gettext(
                "This roster was changed in another tab or by another device (now version "
                "%(v)s). Your last change was not saved: the list below is the current "
                "one; reload and make the change again.") % {"v": stored.version}
            status = 409
        else:
            target = None
            if change.undoing:
                target, model, evaluated = _undone(session, stored, form, lang)
            else:
                model, evaluated = _changed(stored, form, lang)
            if model == stored.document:
                # Nothing changed (Save pressed again, a field left as it was): no new
                # version, which undo would then have to step over for nothing.
                model = stored.document
            else:
                stored = rosters.replace_roster(session, roster_id, model, expected,
                                                 evaluation=evaluated, device_token=token)
            if target is not None:
                undo_to = target - 1
    except EditRefused:  # by the read, or by the write (withdrawn since)
        return _not_editable(request)
    except RosterNotFound as error:  # deleted, whenever
        return _gone(request, error)
    except VersionConflict as exc:  # another tab, device or worker was first
        stored = exc.current
        problem = i18n.gettext(
            "This roster was changed in another tab or by another device (now version "
            "%(v)s). Your last change was not saved: reload and make it again."
        ) % {"v": stored.version}
        status = 409
    except editing.EditError as exc:
        problem = edit_problem(exc.field, exc.message, form.get("unit"), stored.ruleset)
        status = 422
    except DocumentTooLarge:
        problem, status = i18n.gettext(
            "This change would make the roster too large to store. It was not saved."), 422
    except ValidationError as exc:
        problem, status = problem_text(exc.errors(), system=stored.ruleset), 422
    return _edited(request, roster_id, form, stored, model, evaluated, problem, status,
                   undo_to)


def _undone(session: Session, stored: StoredRoster, form: editing.Form,
            lang: str) -> tuple[int, Any, Evaluation]:
    """Undo: the document of an earlier version (the form's `undo_to`, else the one before
    the current), stored again as the next version, so that undoing is itself a change that
    can be undone and no version is lost; its version, the document and its judgement.
    EditError if there is no such version to go back to."""
    target = editing.whole(form, "undo_to", required=False)
    if target is None:
        target = stored.version - 1
    if not 1 <= target < stored.version:
        raise editing.EditError("undo_to", i18n.gettext("there is no earlier version to go "
                                                        "back to"))
    try:
        revision = revisions.get_revision(session, stored.id, target)
    except RevisionNotFound:
        raise editing.EditError("undo_to", i18n.gettext(
            "version %(v)s is no longer kept") % {"v": target}) from None
    # Judged by its own rule system: the API may have changed the roster's since.
    document = revision.document
    return target, document, RULESETS[document.ruleset].evaluate(document, lang)


def _changed(stored: StoredRoster, form: editing.Form,
             lang: str) -> tuple[Any, Evaluation]:
    """The roster with the form's change applied, and judged once, in the page's language:
    for the stored summary and for the page. EditError or ValidationError if the change is
    not one."""
    changed = editing.apply(stored.document.model_dump(mode="json"), form,
                            SYSTEMS[stored.ruleset].ACTIONS)
    model = DOCUMENT.validate_python(changed, strict=False)  # form text, as above
    return model, RULESETS[model.ruleset].evaluate(model, lang)


def _edited(request: Request, roster_id: str, form: editing.Form,
            stored: StoredRoster, model: Any, evaluated: Evaluation | None,
            problem: str | None, status: int, undo_to: int | None = None) -> Response:
    """The answer to a change: a redirect for a plain form, else the changed unit alone or
    the whole editor, with the problem if there was one."""
    if problem is None and not is_htmx(request):
        anchor = f"#unit-{form['unit']}" if form.get("unit", "").isdigit() else ""
        # After an undo the editor's next one goes on back (its address says how far), not to
        # the version just undone.
        chain = f"?undo_to={undo_to}" if undo_to is not None else ""
        return _redirect(request, f"/r/{quote(roster_id)}/edit{chain}{anchor}")
    context = roster_context(request, stored,
                             evaluated if evaluated and stored.document is model else None)
    # announce: the short line for screen readers, put into the page's live region out of band
    context.update(problem=problem, edit_url=None, announce=True, undo_to=undo_to)
    if not is_htmx(request):  # a plain form's refusal: the whole editor page
        context.update(_editing(request))
    action = (form.get("action") or form.get("op", "")).partition(":")[0]
    unit = form.get("unit", "")
    focus = _focus_after(action, unit, len(context["doc"]["units"])) if problem is None else None
    if focus == "undo-button" and undo_to is not None and undo_to < 1:
        focus = "settings-heading"  # the button is off now: the editor's own heading
    if (problem is None and action in getattr(SYSTEMS[stored.ruleset], "UNIT_ACTIONS", ())
            and unit.isdigit() and int(unit) < len(context["doc"]["units"])):
        # Only this unit changed: send it alone, with totals, rules and version out of band.
        i = int(unit)
        context.update(i=i, unit=context["doc"]["units"][i], priced=context["result"]["units"][i])
        response = page(request, "rosters/unit_changed.html", context)
    else:
        response = page(request, "rosters/edit.html", context, blocks=EDITOR_BLOCKS,
                        status_code=status)
        # A unit's form targets its own list item; anything else redraws the whole editor.
        response.headers["HX-Retarget"] = "#editor"
        response.headers["HX-Reswap"] = "outerHTML"
    if undo_to is not None or "undo_to=" in request.headers.get("hx-current-url", ""):
        # The address says how far undo goes back, as a plain form's redirect does: a reload
        # keeps it after an undo and drops it after any other change.
        response.headers["HX-Replace-Url"] = f"/r/{quote(roster_id)}/edit" + (
            f"?undo_to={undo_to}" if undo_to is not None else "")
    if focus:
        # Where a keyboard's focus goes once the answer is in (static/js/app.js): the button
        # pressed is gone or belongs to another unit now, and focus would fall to the page.
        response.headers["HX-Trigger-After-Settle"] = json.dumps({"muster-focus": {"id": focus}})
    return response


def _focus_after(action: str, unit: str, units: int) -> str | None:
    """The id to focus after a unit's action: the moved unit's same button (or its other one
    at an end of the list), the copy's name, the list's heading after a removal (never the
    next unit's Remove, one keypress from removing it too; the engines' after an engine's), a
    unit's "Add a line" after a line is removed. (A button that stays where it was keeps the
    focus by its id, as htmx gives it back.)"""
    if action == "undo":
        return "undo-button"  # to undo again, one keypress away
    if action == "remove_engine":
        return "engines-heading"  # as after a unit's removal
    if not unit.isdigit():
        return None
    i = int(unit)
    if action == "move_up":
        return f"u{max(i - 1, 0)}-move-up" if i - 1 > 0 else "u0-move-down"
    if action == "move_down":
        j = min(i + 1, units - 1)
        return f"u{j}-move-down" if j < units - 1 else f"u{j}-move-up"
    if action == "duplicate":
        return f"u{i + 1}-name"
    if action == "remove_unit":
        return "units-heading"
    if action == "remove_line":
        return f"u{i}-add-line"
    return None
