"""What every HTML page shares: the cookies (device, CSRF, a new key shown once), the
page's context and rendering, the posted form (`PostedForm`: read, and its CSRF field
checked, before the route runs), the refusal pages, the roster pages' context.

Every page route renders the whole page, or for htmx only the fragment that changed (with the
totals and the rules panel refreshed out of band). Every action is a plain form too, so the
builder works with JavaScript off (post, redirect, get). The routes are by feature beside it:
home, share, editor, changes, deletion.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import Depends, Request
from fastapi.responses import RedirectResponse, Response
from sqlmodel import Session
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.domain import form_reading
from app.domain.base import Lang, RuleCheck
from app.http.cross_site import same_origin
from app.http.deps import is_id
from app.services import devices, rosters
from app.services.creation_limit import CreationRefused
from app.services.errors import (
    RosterDeleted,
    RosterNotFound,
    UnknownDevice,
)
from app.services.kept_evaluations import judgement
from app.services.stored_rosters import StoredRoster
from app.systems import DEFAULT_SYSTEM, SYSTEMS, get_system
from app.web import i18n
from app.web.templating import render, site_address

DEVICE_COOKIE = "muster_device"
CSRF_COOKIE = "muster_csrf"
NEW_KEY_COOKIE = "muster_new_key"
YEAR = 365 * 24 * 3600
STATUS_ORDER = {"broken": 0, "warning": 1, "kept": 2}


# ---------------------------------------------------------------- cookies and context

def cookie_flags(request: Request) -> dict[str, Any]:
    settings = request.app.state.settings
    return {"httponly": True, "samesite": "lax", "secure": settings.secure_cookies, "path": "/"}


# A game's and an event's secret links carry their keys in the address (`?key=`, a new
# game's `&join=`); opened, they are exchanged for cookies scoped to the game or the event.
SECRETS = ("key", "join")


def secret_link(request: Request, kind: str, scope: str) -> Response | None:
    """The page again without the secret link's keys (303), which this browser now keeps in
    cookies (`<kind>_key`, `<kind>_join`) for the addresses under `scope`, as a roster's edit
    link is kept: never in the address bar, the history, or the language links' `next=`. None
    when the address carries none."""
    found = {name: value for name, value in request.query_params.items() if name in SECRETS}
    if not found:
        return None
    rest = [(k, v) for k, v in request.query_params.multi_items() if k not in SECRETS]
    response = RedirectResponse(request.url.path + (f"?{urlencode(rest)}" if rest else ""),
                                status_code=303, headers={"Cache-Control": "no-store"})
    for name, value in found.items():
        keep_secret(request, response, kind, scope, value, name)
    return response


def keep_secret(request: Request, response: Response, kind: str, scope: str, value: str,
                name: str = "key") -> Response:
    """A key a form proved, kept as its link's would be, for the page the answer goes to."""
    response.set_cookie(f"{kind}_{name}", value[:200], **{**cookie_flags(request), "path": scope})
    return response


def secret(request: Request, kind: str, name: str = "key") -> str:
    """The key this browser keeps for the game's or the event's address (`secret_link`)."""
    return request.cookies.get(f"{kind}_{name}", "")


def csrf_value(request: Request) -> str:
    """The page's CSRF token: the browser's csrf cookie, or a new one set with this answer."""
    token = request.cookies.get(CSRF_COOKIE)
    if not token or len(token) > 64:
        token = getattr(request.state, "new_csrf", None) or secrets.token_urlsafe(18)
        request.state.new_csrf = token
    return token


def csrf_ok(request: Request, cookie_token: str | None, submitted: str | None) -> bool:
    """Double submit: the form must echo the browser's own CSRF cookie, from this site."""
    if not cookie_token or not submitted or not same_origin(request):
        return False
    return hmac.compare_digest(cookie_token.encode(), submitted.encode())


def finish(request: Request, response: Response) -> Response:
    new = getattr(request.state, "new_csrf", None)
    if new:
        response.set_cookie(CSRF_COOKIE, new, max_age=YEAR, **cookie_flags(request))
    new_device = getattr(request.state, "new_device", None)
    if new_device:
        response.set_cookie(DEVICE_COOKIE, new_device, max_age=YEAR, **cookie_flags(request))
    return response


def browser_token(request: Request) -> str:
    """This browser's device token: one made for this request is the browser's from now on
    (its cookie is on the way), else its cookie's; "" when it has none."""
    return getattr(request.state, "new_device", None) or request.cookies.get(DEVICE_COOKIE, "")


def browser_device(request: Request, session: Any, create: bool = False) -> int | None:
    token = browser_token(request)
    device_id = devices.find_device(session, token) if token else None
    if device_id is None and create:
        device_id, token = devices.new_device(session)
        request.state.new_device = token
    return device_id


def remember_roster(request: Request, session: Any, roster_id: str, *, by_key: bool = False) -> int:
    """Note a roster this browser may edit in its "my rosters" (`by_key`: opened with its edit
    key, devices.open_with_key); the browser's device, made now if it has none. A device
    forgotten between reading the cookie and writing the note (a bound on a roster's browsers,
    or the purge) makes this browser a new one, rather than leaving the roster unreachable
    (a new one's edit key is shown only on the editor, which asks for the note)."""
    for _ in range(2):
        device_id = browser_device(request, session, create=True)
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
def _names(lang: Lang, ruleset: str = DEFAULT_SYSTEM) -> dict[str, dict[str, str]]:
    """Display names of every catalogue list of a rule system, by id, in `lang`."""
    system = get_system(ruleset)
    return system.names(lang) if system else {}


def page(request: Request, name: str, context: dict[str, Any], **kwargs: Any) -> Response:
    lang = i18n.request_lang(request)
    ruleset = context["doc"]["ruleset"] if "doc" in context else DEFAULT_SYSTEM
    context = {"csrf": csrf_value(request), "names": _names(lang, ruleset),
               "systems": {i: s.name(lang) for i, s in SYSTEMS.items()},
               **context}
    return finish(request, render(request, name, context, **kwargs))


def redirect(request: Request, url: str) -> Response:
    return finish(request, RedirectResponse(url, status_code=303))


class PageRefusal(Exception):
    """A page's refusal made before its route ran (by a dependency below); app/main.py answers
    with `response` as it is."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status_code)
        self.response = response


async def roster_address(request: Request, roster_id: str) -> str:
    """The roster id of the address a form is posted to, checked before the form is read: an
    id that cannot name a roster is answered at once (404), the form unread."""
    if not is_id(roster_id):
        raise PageRefusal(missing_roster(request))
    return roster_id


async def posted_form(request: Request) -> FormData:
    """Every cookie-based form's CSRF check, as a dependency: the posted form (fields and
    files), once its `csrf` field echoes the browser's own CSRF cookie from this site's page
    (csrf_ok). A form the parser refuses is refused as unreadable (400), one without that
    proof as expired (403), before the route reads or changes anything."""
    try:
        data = await read_multipart(request)
    except (form_reading.TooManyFields, form_reading.UnreadableForm) as refused:
        raise PageRefusal(unreadable_form(request, refused)) from refused
    if not csrf_ok(request, request.cookies.get(CSRF_COOKIE), str(data.get("csrf") or "")):
        raise PageRefusal(expired_form(request))
    return data


async def posted_fields(request: Request,
                        data: Annotated[FormData, Depends(posted_form)]) -> form_reading.Form:
    """The checked form's text fields (its files are PostedData's), in the page's language."""
    return form_reading.Form([(k, v) for k, v in data.multi_items() if isinstance(v, str)],
                             i18n.request_lang(request))


RosterAddress = Annotated[str, Depends(roster_address)]
PostedData = Annotated[FormData, Depends(posted_form)]
PostedForm = Annotated[form_reading.Form, Depends(posted_fields)]


async def read_multipart(request: Request) -> FormData:
    """A form's fields and files, as Starlette reads them (python-multipart)."""
    try:
        return await request.form(max_fields=form_reading.MAX_FIELDS)
    except StarletteHTTPException as exc:
        if exc.status_code != 400:
            raise
        if str(exc.detail).startswith("Too many fields"):
            raise form_reading.TooManyFields(str(exc.detail)) from exc
        raise form_reading.UnreadableForm(str(exc.detail)) from exc


def unreadable_form(request: Request, refused: ValueError) -> Response:
    """The refusal of a form that was not read: nothing was done with it."""
    if isinstance(refused, form_reading.TooManyFields):
        return refuse(request, 400, i18n.gettext(
            "Too many fields: a form takes at most %(n)s.") % {"n": form_reading.MAX_FIELDS})
    return refuse(request, 400, i18n.gettext(
        "This form could not be read. Reload the page and try again."))


def refuse(request: Request, status: int, message: str, roster_id: str | None = None) -> Response:
    """A refusal page; with `roster_id`, it links the roster's share view, where anyone may
    read it and copy it to their own rosters."""
    share = f"/r/{quote(roster_id)}" if roster_id else None
    return page(request, "rosters/refused.html", {"message": message, "share": share},
                status_code=status)


def missing_roster(request: Request) -> Response:
    return refuse(request, 404, i18n.gettext("There is no roster at this address."))


def deleted_roster(request: Request) -> Response:
    """The share view of a roster that was deleted: said to anyone who has its link, without
    how to restore it (its owner is told that on the editor, with the key)."""
    return refuse(request, 410, i18n.gettext("This roster was deleted by its owner."))


def gone_roster(request: Request, error: RosterNotFound) -> Response:
    return deleted_roster(request) if isinstance(error, RosterDeleted) else missing_roster(request)


def nothing_here(request: Request) -> Response:
    """A browser's answer for an address no route has: the site's page, in its language (no
    route ran, so no dependency chose the language yet)."""
    i18n.use_lang(i18n.request_lang(request))
    return refuse(request, 404, i18n.gettext("There is nothing at this address."))


def not_editable(request: Request) -> Response:
    return refuse(request, 403, i18n.gettext("This browser may not edit this roster."))


def expired_form(request: Request) -> Response:
    return refuse(request, 403, i18n.gettext(
        "This form has expired. Reload the page and try again."))


def limit_refusal(request: Request, refused: CreationRefused) -> Response:
    """The page's answer to a creation over the limit (app/services/creation_limit.py)."""
    response = refuse(request, 429, refused.message(i18n.request_lang(request)))
    response.headers["Retry-After"] = str(refused.retry_after)
    return response


def open_created(request: Request, created: rosters.Created) -> Response:
    """Open the new roster's editor; its edit link is shown there once, then forgotten."""
    response = redirect(request, f"/r/{created.roster.id}/edit?created=1")
    show_key_once(request, response, created.roster.id, created.edit_key)
    return response


def show_key_once(request: Request, response: Response, roster_id: str, key: str) -> None:
    # A short-lived cookie scoped to the editor's path carries the key to the one page that
    # shows it; the editor deletes it at once. The key never enters the address bar or logs.
    response.set_cookie(NEW_KEY_COOKIE, key, max_age=600,
                        **{**cookie_flags(request), "path": f"/r/{roster_id}/edit"})


def roster_context(request: Request, stored: StoredRoster) -> dict[str, Any]:
    """What every roster page shows, by the stored version's kept evaluation in the page's
    language."""
    lang = i18n.request_lang(request)
    system = SYSTEMS[stored.ruleset]
    evaluation = judgement(stored, lang)
    doc = stored.document.model_dump(mode="json")
    catalogue = system.catalogue()
    # What needs the player's attention first; the order within each status is the rules'.
    checks = sorted(evaluation.checks, key=lambda c: STATUS_ORDER[c.status.value])
    problems = [c for c in checks if not c.holds]
    return {
        "roster": stored,
        "doc": doc,
        "result": evaluation.result,
        "checks": checks,
        # The rules not kept, and those of each unit (by its place): found once for the
        # totals, the rules panel and every unit's badge.
        "problems": problems,
        "unit_problems": _by_unit(problems),
        "catalogue": catalogue,
        "system": f"systems/{stored.ruleset}",
        "share_url": f"{site_address(request)}/r/{stored.id}",
        **system.editor.page_context(doc, evaluation.result, catalogue, lang),
    }


def _by_unit(checks: list[RuleCheck]) -> dict[int, list[RuleCheck]]:
    found: dict[int, list[RuleCheck]] = {}
    for check in checks:
        if check.unit is not None:
            found.setdefault(check.unit, []).append(check)
    return found


def editing_device(request: Request, session: Session, roster_id: str) -> int | None:
    """This browser's device when it may edit the roster, else None."""
    device_id = browser_device(request, session)
    if device_id is None or not devices.can_edit(session, device_id, roster_id):
        return None
    return device_id
