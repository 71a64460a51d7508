"""The home page and "my rosters", creating and importing a roster, the language switch,
the about page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import ValidationError
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool

from app.domain import form_reading
from app.exports.imports import ImportRefused, parse_roster
from app.http.deps import SessionDep, take_creation
from app.http.language import LANG_COOKIE, as_lang
from app.services import devices, rosters
from app.services.errors import (
    DocumentTooLarge,
)
from app.systems import DEFAULT_SYSTEM, SYSTEMS, get_system
from app.systems.stored_documents import DOCUMENT
from app.web import i18n
from app.web.pages import (
    YEAR,
    PostedData,
    PostedForm,
    browser_device,
    cookie_flags,
    open_created,
    page,
    refuse,
    remember_roster,
)
from app.web.problems import form_problem, problem_text

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])


SORTS = ("updated", "name", "ruleset", "nation", "points", "verdict")


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
    device_id = browser_device(request, session)
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
def create(request: Request, form: PostedForm, session: SessionDep) -> Response:
    ruleset = form.get("ruleset", DEFAULT_SYSTEM)
    if not form.get("name", "").strip():
        named = ("name", _default_name(request, ruleset, form))
        form = form_reading.Form([*form.items_list(), named], form.lang)
    try:
        if ruleset not in SYSTEMS:
            raise form_reading.FormError("ruleset", f"unknown rule system {ruleset[:40]!r}")
        # A form's every field is text: here (not in the JSON API) "400" is read as 400.
        model = DOCUMENT.validate_python(SYSTEMS[ruleset].editor.new_document(form), strict=False)
    except form_reading.FormError as exc:
        system = ruleset if ruleset in SYSTEMS else None
        return refuse(request, 422, form_problem(exc.field, exc.message, system=system))
    except ValidationError as exc:
        return _home(request, session, 422, form=form,
                     error=problem_text(exc.errors(), system=ruleset))
    # Counted once the roster is accepted, as an import is: a refused form costs nothing.
    created = rosters.create_roster(session, model, lang=i18n.request_lang(request),
                                    admit=lambda: take_creation(request, session))
    remember_roster(request, session, created.roster.id)
    # The key is shown once, on the editor, right after creation.
    return open_created(request, created)


def _default_name(request: Request, ruleset: str, form: form_reading.Form) -> str:
    """A new army's name when none was typed: its nation's ("Mongols"), else "New army"."""
    system = get_system(ruleset) if ruleset in SYSTEMS else None
    nations = system.names(i18n.request_lang(request)).get("nations", {}) if system else {}
    nation = form.get("nation", "generic")
    return nations[nation] if nation != "generic" and nation in nations else \
        i18n.gettext("New army")


@router.post("/rosters/import")
async def import_file(request: Request, data: PostedData, session: SessionDep) -> Response:
    """The home page's upload form: a file exported from Muster becomes a new roster."""
    upload = data.get("file")
    lang = i18n.request_lang(request)
    try:
        if upload is None or isinstance(upload, str):
            raise ImportRefused([{"field": "file", "type": "missing", "loc": [],
                                  "message": i18n.gettext("choose a file to import")}])
        model = parse_roster(await upload.read(), lang)
    except ImportRefused as refused:
        return await run_in_threadpool(_import_refused, request, session, refused)
    return await run_in_threadpool(_import, request, session, model)


def _import_refused(request: Request, session: Session, refused: ImportRefused) -> Response:
    why = problem_text(refused.errors) if refused.errors else refused.message
    message = i18n.gettext("The file was not imported: %(why)s") % {"why": why}
    return _home(request, session, 422, import_error=message)


def _import(request: Request, session: Session, model: Any) -> Response:
    try:
        # Counted once the roster is accepted, its size too: a refused file costs nothing.
        created = rosters.create_roster(session, model, lang=i18n.request_lang(request),
                                        admit=lambda: take_creation(request, session))
    except DocumentTooLarge:
        return refuse(request, 413, i18n.gettext(
            "This roster is too large to store: it could not be sent back as read or "
            "exported."))
    remember_roster(request, session, created.roster.id)
    return open_created(request, created)


@router.get("/lang/{lang}")
def switch_language(request: Request, lang: str, next: str = "/") -> Response:
    chosen = as_lang(lang)
    # Only local paths: the switch must not become an open redirect.
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if chosen:
        response.set_cookie(LANG_COOKIE, chosen, max_age=YEAR, **cookie_flags(request))
    return response


@router.get("/about")
def about(request: Request) -> Response:
    return page(request, "rosters/about.html", {})
