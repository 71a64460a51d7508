"""Exports of stored rosters (JSON, text, Markdown, BBCode) and imports of exported files.

An imported file becomes a new roster with its own id and edit key, exactly as if it had been
posted to `POST /api/v1/rosters`; a refused file stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException

from app.api.health import UNAVAILABLE_ANSWER
from app.api.models import TOO_MANY, RosterCreated
from app.api.rosters import created_answer
from app.domain.base import Lang
from app.domain.translations import tr
from app.exports import (
    content_disposition,
    export_bbcode,
    export_json,
    export_markdown,
    export_text,
)
from app.exports.imports import ImportRefused, import_schema, parse_roster
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import (
    NOT_JSON_ANSWER,
    LangDep,
    RosterId,
    SessionDep,
    is_json,
    not_json,
    take_creation,
)
from app.http.errors import Failure, ValidationFailure
from app.http.query import DOCUMENTED_QUERY
from app.services import rosters
from app.systems import SYSTEMS

router = APIRouter(prefix="/api/v1/rosters", tags=["exports"], dependencies=[DOCUMENTED_QUERY])

_MISSING: dict[int | str, dict[str, Any]] = {
    404: {"model": Failure, "description": "No roster by this id"},
    410: {"model": Failure, "description": "The roster was deleted (restorable for 30 days)"},
    422: {"model": ValidationFailure, "description": "A parameter is invalid"},
}
# The text exports answer in text, but their refusals in JSON like every other endpoint; a
# `model` would be documented under the route's text media type, so name the schemas here.
_MISSING_AS_JSON: dict[int | str, dict[str, Any]] = {
    code: {"description": answer["description"], "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{answer['model'].__name__}"}}}}
    for code, answer in (_MISSING | UNAVAILABLE_ANSWER).items()}


@router.get("/{roster_id}/export.json", responses=_MISSING | UNAVAILABLE_ANSWER)
def export_roster_json(roster_id: RosterId, session: SessionDep,
                       lang: LangDep = "en") -> JSONResponse:
    """The roster document plus `format`, `ruleset_version` and `exported_at`: import it back
    with `POST /api/v1/rosters/import`."""
    roster = rosters.get_roster(session, roster_id)
    body = export_json(roster.document, SYSTEMS[roster.ruleset].version, datetime.now(UTC))
    return JSONResponse(body, headers={
        "Content-Disposition": content_disposition(roster.name, "json")})


TextExport = Callable[[BaseModel, Lang], str]
TEXT_FORMATS: dict[str, tuple[TextExport, str]] = {
    "txt": (export_text, "text/plain; charset=utf-8"),
    "md": (export_markdown, "text/markdown; charset=utf-8"),
    "bbcode": (export_bbcode, "text/plain; charset=utf-8"),
}


def _text_export(ext: str) -> Callable[..., Response]:
    write, media_type = TEXT_FORMATS[ext]

    def export(roster_id: RosterId, session: SessionDep, lang: LangDep = "en") -> Response:
        roster = rosters.get_roster(session, roster_id)
        return PlainTextResponse(write(roster.document, lang), media_type=media_type, headers={
            "Content-Disposition": content_disposition(roster.name, ext)})

    export.__name__ = f"export_roster_{ext}"
    return export


for _ext, _doc in (("txt", "The roster as plain text: units, figures, weapons, costs, totals "
                           "and its legality in one line."),
                   ("md", "The roster as Markdown (a table of units); names are escaped."),
                   ("bbcode", "The roster as BBCode for forums; names cannot open tags.")):
    router.add_api_route(
        f"/{{roster_id}}/export.{_ext}", _text_export(_ext), methods=["GET"], description=_doc,
        response_class=PlainTextResponse, responses={
            200: {"content": {TEXT_FORMATS[_ext][1].split(";")[0]: {}}}, **_MISSING_AS_JSON})


_IMPORT_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {
                **import_schema(),
                "description": "an export.json (format muster-roster/1) or a roster document"}},
            # The upload is the same JSON: a file (or a plain field) sent as application/json.
            "multipart/form-data": {
                "schema": {"type": "object", "required": ["file"],
                           "properties": {"file": import_schema()}},
                "encoding": {"file": {"contentType": "application/json"}}},
        },
    },
}


def _refused(detail: list[dict[str, Any]]) -> JSONResponse:
    message = "; ".join(f"{d['field']}: {d['message']}" for d in detail[:10])
    return JSONResponse(status_code=422, content={"message": message, "detail": detail})


async def _uploaded_bytes(request: Request, lang: Lang) -> bytes | JSONResponse:
    """The file's bytes, from a multipart field `file` or from the body itself."""
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        body = await request.body()
        if body and not is_json(content_type):  # as every other route that takes JSON
            raise not_json(request)
        return body
    try:
        form = await request.form(max_files=1, max_fields=20)
    except HTTPException as error:  # Starlette answers a malformed upload with a bare 400
        return _refused([{"field": "file", "type": "multipart_invalid", "loc": ["file"],
                          "message": tr(lang, "the upload cannot be read: %(detail)s",
                                        detail=error.detail)}])
    upload = form.get("file")
    if isinstance(upload, UploadFile):
        return await upload.read()
    if isinstance(upload, str):  # a form that sent the file's text as a plain field
        return upload.encode("utf-8")
    return _refused([{"field": "file", "type": "missing", "loc": ["file"],
                      "message": tr(lang, "send the exported file as the multipart field `file`")}])


@router.post("/import", status_code=201, response_model=RosterCreated,
             openapi_extra=_IMPORT_BODY, responses={
                 413: {"model": Failure, "description": "Body over the size limit"},
                 422: {"model": ValidationFailure,
                       "description": "The file was refused whole; the message says why"},
                 **NOT_JSON_ANSWER, **TOO_MANY, **CROSS_SITE_ANSWER,
                 **UNAVAILABLE_ANSWER})
async def import_roster(request: Request, session: SessionDep, response: Response,
                        lang: LangDep = "en") -> Any:
    """Store a roster from an exported file (or a bare roster document), as JSON or as a
    multipart upload in the field `file`. Answers like roster creation: keep `edit_url`."""
    data = await _uploaded_bytes(request, lang)
    if isinstance(data, JSONResponse):
        return data
    try:
        document = parse_roster(data, lang)
    except ImportRefused as refused:
        return _refused(refused.detail)
    # Counted once the document is accepted, its size too: a refused one costs nothing.
    created = await run_in_threadpool(
        rosters.create_roster, session, document, lang=lang,
        admit=lambda: take_creation(request, session))
    return created_answer(request, created, lang, response)
