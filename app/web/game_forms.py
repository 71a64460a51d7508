"""What the game's pages share: the id's form, the refusal page, and a form read within
its bounds."""

from __future__ import annotations

import re

from fastapi import Request
from fastapi.responses import Response
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.http.deps import ROSTER_ID
from app.web import i18n
from app.web.pages import page

GAME_ID = re.compile(ROSTER_ID)
MAX_FIELDS = 20


def refuse(request: Request, status: int, message: str) -> Response:
    return page(request, "rosters/refused.html", {"message": message, "share": None},
                status_code=status)


def missing(request: Request) -> Response:
    return refuse(request, 404, i18n.gettext("There is no game at this address."))


async def form_of(request: Request, files: int = 0) -> FormData | None:
    try:
        return await request.form(max_fields=MAX_FIELDS, max_files=files)
    except StarletteHTTPException:
        return None


def expired(request: Request) -> Response:
    return refuse(request, 403, i18n.gettext(
        "This form has expired. Reload the page and try again."))
