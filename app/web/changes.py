"""The editor's changes (`POST /r/{id}/edit`): a form of the editor read as edits and made by
the one service for every change (app/services/edits.py), or an undo.

The form is read and its CSRF field checked on the event loop (PostedForm); the edits made,
stored and drawn in one worker thread, the roster read once: the form says its rule system (a
hidden `system` field), so that it can be read as edits before the roster is. A refused change
reads the roster again, to draw it with the problem."""

from __future__ import annotations

import re
from typing import Any, NamedTuple
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlmodel import Session

from app.domain import form_reading
from app.domain.base import Lang
from app.domain.edits import EditError
from app.domain.form_reading import Edits, Form, FormError
from app.domain.system import RuleSystem
from app.http.deps import SessionDep
from app.services import devices
from app.services import edits as service
from app.services.errors import (
    DocumentTooLarge,
    EditRefused,
    RevisionNotFound,
    VersionConflict,
)
from app.services.stored_rosters import StoredRoster
from app.systems import SYSTEMS
from app.web import i18n
from app.web.editor import editing_context
from app.web.pages import (
    DEVICE_COOKIE,
    PostedForm,
    RosterAddress,
    not_editable,
    page,
    redirect,
    roster_context,
)
from app.web.problems import edit_problem, form_problem
from app.web.templating import is_htmx

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])


EDITOR_BLOCKS = ["editor", "version", "summary", "rules"]
_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a unit's id, safe in an address's anchor


@router.post("/r/{roster_id}/edit")
def edit(request: Request, roster_id: RosterAddress, form: PostedForm,
         session: SessionDep) -> Response:
    """The editor's change, in a worker thread: the form's edits made by the edit service
    (which proves the browser's right and the page's version), or its undo."""
    change = _posted_change(request, form)
    edits: Edits = []
    undo_to: int | None = None  # after an undo, where the next one goes back to
    try:
        if change.action == "undo":
            done, undo_to = _undone(session, roster_id, change)
        else:
            edits = _form_edits(change.form)
            done = service.edit_roster(session, roster_id, edits, change.expected, change.lang,
                                       device_token=change.token)
    except EditRefused:  # by the read, or by the write (withdrawn since)
        return not_editable(request)
    except VersionConflict as exc:  # another tab, device or worker was first
        return _answer(request, change, exc.current, _conflict(exc.current), 409)
    except (FormError, EditError, ValidationError, DocumentTooLarge) as refused:
        return _refused(request, session, roster_id, change, edits, refused)
    return _answer(request, change, done.roster, None, 200, undo_to)


class _Posted(NamedTuple):
    """An editor's change as posted (its CSRF field checked by PostedForm)."""

    form: Form  # with the page's language, in which new units are named
    lang: Lang
    token: str  # the browser's device token: its right to edit is proved by the write
    expected: int  # the version the page shows
    action: str  # what was pressed: the form's `op`, or its button's `action`


def _posted_change(request: Request, form: Form) -> _Posted:
    try:
        # htmx sends the page's current version (kept fresh out of band) as version_now; a
        # plain form sends the version it was drawn at.
        expected = int(form.get("version_now") or form.get("version", ""))
    except ValueError:
        expected = -1
    lang = i18n.request_lang(request)
    return _Posted(Form([*form.items_list(), ("lang", lang)], lang), lang,
                   request.cookies.get(DEVICE_COOKIE, ""), expected, form_reading.pressed(form)[0])


def _form_edits(form: Form) -> Edits:
    """The form's edits, read by the rule system it names (the roster's, as the page drew
    it: an edit of another system is then refused by the roster's)."""
    system = SYSTEMS.get(form.get("system", ""))
    if system is None:
        raise FormError("ruleset", i18n.gettext("not one of the choices"))
    return form_reading.form_edits(form, system.editor.read)


def _undone(session: Session, roster_id: str, change: _Posted) -> tuple[service.Edited, int]:
    """Undo: the document of an earlier version (the form's `undo_to`, else the one before
    the current) stored again as the next version, so that undoing is itself a change that
    can be undone and no version is lost; with where the next undo goes back to. FormError
    if there is no such version to go back to."""
    target = form_reading.whole(change.form, "undo_to", required=False)
    if target is None:
        target = change.expected - 1
    try:
        done = service.revert_to(session, roster_id, target, change.expected, change.lang,
                                 device_token=change.token)
    except RevisionNotFound:
        if not 1 <= target < change.expected:
            raise FormError("undo_to", i18n.gettext(
                "there is no earlier version to go back to")) from None
        raise FormError("undo_to", i18n.gettext(
            "version %(v)s is no longer kept") % {"v": target}) from None
    return done, target - 1


def _conflict(current: StoredRoster) -> str:
    return i18n.gettext(
        "This roster was changed in another tab or by another device (now version "
        "%(v)s). Your last change was not saved: the list below is the current "
        "one; reload and make the change again.") % {"v": current.version}


def _refused(request: Request, session: Session, roster_id: str, change: _Posted,
             edits: Edits, refused: Exception) -> Response:
    """A change that was not made, drawn with its problem in the roster as it is: read now,
    proving the browser's right first (a form read before the roster may be anyone's), then
    the page's version (a stale page's change is a conflict, whatever it asked)."""
    try:
        stored = devices.editable_roster(session, change.token, roster_id)
    except EditRefused:
        return not_editable(request)
    if stored.version != change.expected:
        return _answer(request, change, stored, _conflict(stored), 409)
    doc = stored.document.model_dump(mode="json")
    if isinstance(refused, DocumentTooLarge):
        problem = i18n.gettext(
            "This change would make the roster too large to store. It was not saved.")
    elif isinstance(refused, FormError):
        problem = form_problem(refused.field, refused.message, doc, change.form.get("unit"),
                               stored.ruleset)
    else:
        assert isinstance(refused, EditError | ValidationError)
        problem = edit_problem(refused, edits, doc, stored.ruleset, change.lang)
    return _answer(request, change, stored, problem, 422)


def _answer(request: Request, change: _Posted, stored: StoredRoster, problem: str | None,
            status: int, undo_to: int | None = None) -> Response:
    """The answer to a change: a redirect for a plain form, else the changed unit alone or
    the whole editor (each form's controls say which they swap), with the problem if there
    was one."""
    form, action = change.form, change.action
    path = f"/r/{quote(stored.id)}/edit"
    if problem is None and not is_htmx(request):
        # Back at the unit (after a removal, at the one that took its place); after an undo
        # the editor's next one goes on back (its address says how far), not to the version
        # just undone.
        unit = form.get("next_unit" if action == "remove_unit" else "unit", "")
        anchor = f"#unit-{unit}" if _ID.fullmatch(unit) else ""
        chain = f"?undo_to={undo_to}" if undo_to is not None else ""
        return redirect(request, f"{path}{chain}{anchor}")
    context = roster_context(request, stored)
    # announce: the short line for screen readers, put into the page's live region out of band
    context.update(problem=problem, edit_url=None, announce=True, undo_to=undo_to)
    if not is_htmx(request):  # a plain form's refusal: the whole editor page
        context.update(editing_context(request))
    system = SYSTEMS[stored.ruleset]
    units = context["doc"]["units"]
    if problem is None:
        context.update(_focus(action, form, units, system, undo_to))
    place = next((i for i, u in enumerate(units) if u["id"] == form.get("unit")), None)
    if problem is None and action in system.editor.UNIT_ACTIONS and place is not None:
        # Only this unit changed: send it alone, with totals, rules and version out of band.
        context.update(i=place, unit=units[place], priced=context["result"]["units"][place],
                       folded=action == "step_figures")
        response = page(request, "rosters/unit_changed.html", context)
    else:
        if action == "add_unit" and problem is None and units:
            context["fresh"] = units[-1]["id"]  # marked for a moment
        response = page(request, "rosters/edit.html", context, blocks=EDITOR_BLOCKS,
                        status_code=status)
    if undo_to is not None or "undo_to=" in request.headers.get("hx-current-url", ""):
        # The address says how far undo goes back, as a plain form's redirect does: a reload
        # keeps it after an undo and drops it after any other change.
        response.headers["HX-Replace-Url"] = path + (
            f"?undo_to={undo_to}" if undo_to is not None else "")
    return response


def _focus(action: str, form: Form, units: list[dict[str, Any]], system: RuleSystem,
           undo_to: int | None) -> dict[str, str]:
    """Where the keyboard's focus goes once the answer is in (`focus`: the id of the element
    drawn with `autofocus`, which htmx focuses after the swap), and the unit whose row is
    drawn open to show it (`open_unit`): the button pressed is gone or belongs to another
    place now. Undo again after an undo (the editor's heading once nothing is left to undo);
    the moved unit's same button (its other one at an end of the list); the copy's name; the
    next unit's row after a removal (never its Remove, one keypress from removing it too),
    else the list's heading; a new line's first field; a unit's "Add a line" after one of
    its lines is removed; the engines' heading after an engine's removal; a new unit's name
    where its folded row cannot change it. Nothing after any other change: the control used
    stays, and htmx gives it its focus back by its id."""
    ids = [unit["id"] for unit in units]
    unit = form.get("unit", "")
    place = ids.index(unit) if unit in ids else None
    if action == "undo":
        return {"focus": "undo-button" if undo_to is None or undo_to >= 1
                else "settings-heading"}
    if action == "remove_engine":
        return {"focus": "engines-heading"}
    if action == "remove_unit":
        after = form.get("next_unit", "")
        return {"focus": f"{after}-summary" if after in ids else "units-heading"}
    if action == "add_unit" and system.editor.NEW_UNIT_OPENS and ids:
        return {"focus": f"{ids[-1]}-name", "open_unit": ids[-1]}
    if place is None:
        return {}
    if action in ("move_up", "move_down"):
        up = action == "move_up"
        at_end = place == (0 if up else len(ids) - 1)
        button = "move-up" if up != at_end else "move-down"
        return {"focus": f"{unit}-{button}", "open_unit": unit}
    if action == "duplicate" and place + 1 < len(ids):
        return {"focus": f"{ids[place + 1]}-name", "open_unit": ids[place + 1]}
    if action == "add_line" and units[place].get("lines"):
        line = units[place]["lines"][-1]["id"]
        return {"focus": system.editor.LINE_FIELD.format(unit=unit, line=line)}
    if action == "remove_line":
        return {"focus": f"{unit}-add-line"}
    return {}
