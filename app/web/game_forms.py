"""What the game's pages share: the id's form, checked before a form posted to a game is
read (`GameAddress`), and the refusal of a game not there."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import Response

from app.http.deps import is_id
from app.web import i18n
from app.web.pages import PageRefusal, refuse


def missing(request: Request) -> Response:
    return refuse(request, 404, i18n.gettext("There is no game at this address."))


async def game_address(request: Request, game_id: str) -> str:
    """The game id of the address a form is posted to: one that cannot name a game is
    answered at once (404), the form unread."""
    if not is_id(game_id):
        raise PageRefusal(missing(request))
    return game_id


GameAddress = Annotated[str, Depends(game_address)]
