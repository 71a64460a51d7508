"""Deleting and restoring a roster from its editor, and the page of a deleted one."""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from app.http.deps import SessionDep
from app.services import rosters
from app.services.errors import (
    KeyRejected,
    RosterDeleted,
    RosterNotFound,
)
from app.web import i18n
from app.web.pages import (
    PostedForm,
    RosterAddress,
    deleted_roster,
    editing_device,
    not_editable,
    page,
    redirect,
    refuse,
    remember_roster,
)

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])


def deleted_page(request: Request) -> Response:
    """A browser's answer for a page of a deleted roster that no page route words itself (the
    print sheet refuses as the API does): the share view's, in the page's language."""
    i18n.use_lang(i18n.request_lang(request))
    return deleted_roster(request)


def _too_late() -> str:
    return i18n.gettext("This roster can no longer be restored: the time to restore it is over.")


def restorable_page(request: Request, roster_id: str, gone: RosterDeleted,
                key: str = "") -> Response:
    """The page of a deleted roster for whoever may restore it: a browser that may edit it,
    or one holding its edit link (`key`, sent back with the form: the link has no grant to
    stand on). Kept by no cache: it may carry the key."""
    if gone.restorable_until <= datetime.now(UTC):  # past it, until the purge removes it
        return refuse(request, 410, _too_late())
    lang = i18n.request_lang(request)
    response = page(request, "rosters/refused.html", {
        "message": i18n.gettext("This roster was deleted. It can be restored before %(date)s.")
        % {"date": i18n.day(gone.restorable_until, lang)},
        "restore": {"action": f"/r/{quote(roster_id)}/restore", "key": key}},
        status_code=410)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/r/{roster_id}/delete")
def delete(request: Request, roster_id: RosterAddress, form: PostedForm,
           session: SessionDep) -> Response:
    """Delete a roster this browser may edit: its share link and editor answer 410, and this
    browser's home page offers it back for RESTORE_DAYS days (the API's DELETE)."""
    if editing_device(request, session, roster_id) is None:
        return not_editable(request)
    rosters.delete_roster(session, roster_id)  # twice keeps the first date
    # Its notice takes the focus (autofocus), which a #fragment in the address would prevent.
    return redirect(request, f"/?deleted={quote(roster_id)}")


@router.post("/r/{roster_id}/restore")
def restore(request: Request, roster_id: RosterAddress, form: PostedForm,
            session: SessionDep) -> Response:
    """Restore a deleted roster, from a browser that may edit it or with its edit key."""
    # A browser that may edit it, as for deleting; else the edit key the form holds.
    granted = editing_device(request, session, roster_id) is not None
    key = form.get("key", "")[:64]
    if not granted:
        if not key:
            return not_editable(request)
        try:
            rosters.check_edit_key(session, roster_id, key)
        except KeyRejected:  # a roster to restore has no share view to offer
            return refuse(request, 403, i18n.gettext("This edit link is not valid."))
    try:
        rosters.get_roster(session, roster_id)
        deleted = False  # a live roster stays as it is
    except RosterDeleted:
        deleted = True
    try:
        rosters.restore_roster(session, roster_id)
    except RosterNotFound:  # past the time to restore it: gone, as its pages say
        return refuse(request, 410, _too_late())
    if not granted:
        # The key holder edits in this browser from now on, as after opening the link.
        remember_roster(request, session, roster_id, by_key=True)
    return redirect(request, f"/r/{quote(roster_id)}/edit" + ("?restored=1" if deleted else ""))
