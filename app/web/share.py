"""The share view of a roster, and copying it to this browser's rosters."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlmodel import Session

from app.http import conditional
from app.http.deps import SessionDep, is_id, take_creation
from app.http.language import as_lang
from app.services import devices, rosters
from app.services.errors import (
    RosterNotFound,
    UnknownDevice,
)
from app.web import i18n
from app.web.pages import (
    DEVICE_COOKIE,
    PostedForm,
    RosterAddress,
    browser_device,
    csrf_value,
    finish,
    missing_roster,
    open_created,
    page,
    remember_roster,
    roster_context,
)
from app.web.templating import VARY

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])


@router.get("/r/{roster_id}")
def view(request: Request, roster_id: str, session: SessionDep) -> Response:
    if not is_id(roster_id):
        return missing_roster(request)
    stored = rosters.get_roster(session, roster_id)  # not there, deleted: the handler's page
    _note_reader(request, session, roster_id)
    # The page differs by version, language and the browser's CSRF token (in its copy form);
    # the browser asks again each time (no-cache) and is answered 304 while it is the same.
    tag = conditional.etag(stored.version, i18n.request_lang(request), csrf_value(request))
    cache = {"ETag": tag, "Cache-Control": "private, no-cache", "Vary": VARY}
    if conditional.fresh(request, tag):
        return finish(request, Response(status_code=304, headers=cache))
    # Drawn with no query string but a language asked for (where the language links return):
    # a visitor's `?utm_source=…` must not reach the page's links.
    asked = as_lang(request.query_params.get("lang"))
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
    device_id = browser_device(request, session)
    if device_id is not None:
        with contextlib.suppress(UnknownDevice, RosterNotFound):
            devices.remember(session, device_id, roster_id, False)


@router.post("/r/{roster_id}/copy")
def copy(request: Request, roster_id: RosterAddress, form: PostedForm,
         session: SessionDep) -> Response:
    rosters.get_roster(session, roster_id)  # a missing roster is 404, not a creation
    take_creation(request, session)
    created = rosters.copy_roster(session, roster_id, lang=i18n.request_lang(request))
    remember_roster(request, session, created.roster.id)
    return open_created(request, created)
