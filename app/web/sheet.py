"""The printable army sheet: `/r/{id}/print`, a standalone page made for paper (A4 or Letter).

The page carries no script: a small GET form ticks the optional reference sections, and the QR
code of the share link is drawn on the server as inline SVG.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import segno
from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from markupsafe import Markup
from starlette.responses import HTMLResponse, Response

from app.domain.base import Lang
from app.exports import sheet_of
from app.http import conditional
from app.http.deps import RosterId, SessionDep, not_found
from app.services import rosters
from app.services.errors import RosterNotFound
from app.systems import SYSTEMS
from app.web.i18n import request_lang
from app.web.templating import VARY, render, site_address

router = APIRouter(tags=["print"])

Paper = Literal["a4", "letter"]
# Past this many figures a unit's losses are tallied in numbers: a thousand tick boxes help
# nobody and would run the sheet onto many pages.
MAX_BOXES = 60


def _refuse(field: str, message: str) -> RequestValidationError:
    return RequestValidationError([{"loc": ("query", field), "msg": message,
                                    "type": "value_error"}])


def chosen_sections(values: list[str], offered: tuple[str, ...]) -> list[str]:
    """`?sections=baggage,weather` or the form's `?sections=baggage&sections=weather`."""
    chosen = [part.strip() for value in values for part in value.split(",") if part.strip()]
    unknown = sorted(set(chosen) - set(offered))
    if unknown:
        raise _refuse("sections", f"unknown section {', '.join(unknown)}; "
                                  f"known: {', '.join(offered) or 'none'}")
    return [section for section in offered if section in chosen]


def share_qr(url: str) -> Markup:
    """The share link as a QR code, inline SVG sized by the style sheet (viewBox, no size)."""
    svg = segno.make(url, error="m").svg_inline(scale=1, border=2, omitsize=True, dark="#000")
    return Markup(svg)  # segno's own markup: it holds path data only, never the URL's text


def _json(description: str, schema: str) -> dict[str, Any]:
    # The sheet is HTML, its refusals JSON; a `model` would be filed under text/html.
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{schema}"}}}}


# A page, not part of the JSON API: left out of its description (and so of its fuzzing, which
# would have every link carrying a parameter of its own refused); its refusals are tested by
# hand in tests/web/test_print_page.py.
@router.get("/r/{roster_id}/print", response_class=HTMLResponse, include_in_schema=False,
            responses={
    404: _json("No roster by this id", "Failure"),
    410: _json("The roster was deleted (restorable for 30 days)", "Failure"),
    422: _json("An unknown language, paper or section", "ValidationFailure")})
def print_sheet(
    request: Request,
    roster_id: RosterId,
    session: SessionDep,
    lang: Annotated[Lang | None, Query(description="en or ru; default: the lang cookie, "
                                                   "then Accept-Language, then en")] = None,
    sections: Annotated[list[str], Query(max_length=10, description="optional sections: "
                                         "baggage, weather (comma-separated or repeated)")
                        ] = [],  # noqa: B006 - FastAPI copies query defaults per request
    paper: Annotated[Paper, Query(description="a4 or letter")] = "a4",
) -> Response:
    """A clean army sheet for the table, made to be printed."""
    sheet_lang = lang or request_lang(request)
    try:
        roster = rosters.get_roster(session, roster_id)
    except RosterNotFound as error:
        raise not_found(sheet_lang, roster_id, error) from error
    system = SYSTEMS[roster.ruleset].writers
    optional = chosen_sections(sections, tuple(system.OPTIONAL_SECTIONS))
    # Its paper and sections are in the address; its language may come from the browser.
    cache = {"ETag": conditional.etag(roster.version, sheet_lang), "Cache-Control": "no-cache",
             "Vary": VARY}
    if conditional.fresh(request, cache["ETag"]):
        return Response(status_code=304, headers=cache)
    try:
        sheet = sheet_of(roster.document, sheet_lang, optional)
    except ValueError as error:  # sections are checked above; kept so none can 500
        raise _refuse("sections", str(error)) from error
    share_url = f"{site_address(request)}/r/{roster.id}"
    context: dict[str, Any] = {
        "lang": sheet_lang,
        "words": system.print_words(sheet_lang),
        "sheet": sheet,
        "roster_id": roster.id,
        "chosen": optional,
        "paper": paper,
        "share_url": share_url,
        "qr": share_qr(share_url),
        "max_boxes": MAX_BOXES,
        **system.print_context(sheet),
    }
    response = render(request, f"systems/{roster.ruleset}/print.html", context)
    response.headers["Content-Language"] = sheet_lang
    response.headers.update(cache)
    return response

