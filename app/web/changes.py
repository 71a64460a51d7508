"""The editor's changes (`POST /r/{id}/edit`): a unit's form, a roster's settings, undo.

Read on the event loop; the right to edit proved, the change applied, validated, stored and
drawn in one worker thread."""

from __future__ import annotations

import json
from typing import Any, NamedTuple
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlmodel import Session

from app.domain import RULESETS, Evaluation
from app.domain.stored_documents import DOCUMENT
from app.http.cross_site import same_origin
from app.services import devices, revisions, rosters
from app.services.errors import (
    DocumentTooLarge,
    EditRefused,
    RevisionNotFound,
    RosterNotFound,
    VersionConflict,
)
from app.services.records import StoredRoster
from app.web import editing, i18n
from app.web.editor import editing_context
from app.web.pages import (
    CSRF_COOKIE,
    DEVICE_COOKIE,
    csrf_ok,
    expired_form,
    gone_roster,
    not_editable,
    page,
    redirect,
    roster_context,
    roster_form,
)
from app.web.problems import edit_problem, problem_text
from app.web.systems import SYSTEMS
from app.web.templating import is_htmx

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])


EDITOR_BLOCKS = ["editor", "version", "summary", "rules"]


@router.post("/r/{roster_id}/edit")
async def edit(request: Request, roster_id: str) -> Response:
    # The form is read on the event loop; storing and drawing run in one worker thread, so a
    # write waiting for the database never holds up other requests.
    return await roster_form(request, roster_id, _edit)


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
        return expired_form(request)
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
        return not_editable(request)
    except RosterNotFound as error:  # deleted, whenever
        return gone_roster(request, error)
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
        return redirect(request, f"/r/{quote(roster_id)}/edit{chain}{anchor}")
    context = roster_context(request, stored,
                             evaluated if evaluated and stored.document is model else None)
    # announce: the short line for screen readers, put into the page's live region out of band
    context.update(problem=problem, edit_url=None, announce=True, undo_to=undo_to)
    if not is_htmx(request):  # a plain form's refusal: the whole editor page
        context.update(editing_context(request))
    action = (form.get("action") or form.get("op", "")).partition(":")[0]
    unit = form.get("unit", "")
    system = SYSTEMS[stored.ruleset]
    focus = _focus_after(action, unit, context["doc"]["units"],
                         getattr(system, "LINE_FIELD", "")) if problem is None else None
    if action == "add_unit" and focus is None and "step_figures" not in system.ACTIONS \
            and context["doc"]["units"]:
        # A system whose folded row cannot change figures opens the new unit to edit.
        focus = f"u{len(context['doc']['units']) - 1}-name"
    if focus == "undo-button" and undo_to is not None and undo_to < 1:
        focus = "settings-heading"  # the button is off now: the editor's own heading
    if (problem is None and action in getattr(SYSTEMS[stored.ruleset], "UNIT_ACTIONS", ())
            and unit.isdigit() and int(unit) < len(context["doc"]["units"])):
        # Only this unit changed: send it alone, with totals, rules and version out of band.
        i = int(unit)
        context.update(i=i, unit=context["doc"]["units"][i], priced=context["result"]["units"][i],
                       folded=action == "step_figures")
        response = page(request, "rosters/unit_changed.html", context)
    else:
        if action == "add_unit" and problem is None:
            context["fresh"] = len(context["doc"]["units"]) - 1  # marked for a moment
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


def _focus_after(action: str, unit: str, units: list[dict[str, Any]],
                 line_field: str = "") -> str | None:
    """The id to focus after a unit's action (static/js/app.js opens its row and scrolls it
    into view): none after a unit is added (it comes folded, and the Add control that keeps
    the focus is where the next one is added), the new line's first field (`line_field`,
    the system's pattern), the moved unit's same button (or its other one at an end of the
    list), the copy's name, the next unit's row after a removal (never its Remove, one
    keypress from removing it too), else the list's heading; the engines' heading after an engine's
    removal, a unit's "Add a line" after a line is removed. (A button that stays where it
    was keeps the focus by its id, as htmx gives it back.)"""
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
        j = min(i + 1, len(units) - 1)
        return f"u{j}-move-down" if j < len(units) - 1 else f"u{j}-move-up"
    if action == "duplicate":
        return f"u{i + 1}-name"
    if action == "remove_unit":
        return f"u{i}-summary" if i < len(units) else "units-heading"
    if action == "add_line" and line_field and i < len(units):
        return line_field.format(i=i, j=len(units[i]["lines"]) - 1)
    if action == "remove_line":
        return f"u{i}-add-line"
    return None
