"""The join link's page: the opponent picks one of their armies (from "My rosters", or a
roster's share link) and it becomes the game's second side, with a secret link of its own."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlmodel import Session
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from app.exports.imports import ImportRefused, parse_roster
from app.http.deps import SessionDep, is_id, pasted_roster_id, take_creation
from app.services import devices, games, rosters
from app.services.creation_limit import CreationRefused
from app.services.errors import (
    DocumentTooLarge,
    KeyRejected,
    RevisionNotFound,
    RosterNotFound,
)
from app.web import i18n
from app.web.game_forms import GameAddress, missing
from app.web.pages import (
    PostedData,
    browser_device,
    page,
    redirect,
    refuse,
    remember_roster,
    secret,
    secret_link,
)
from app.web.problems import N_, problem_text

# Included by app/web/games.py, whose router gives every page its language.
router = APIRouter(include_in_schema=False)


def _roster_asked(form: FormData) -> str:
    """The army chosen: one of "My rosters", or a roster's share or edit link (or its id)."""
    link = str(form.get("link", "")).strip()
    if link:
        return pasted_roster_id(link) or ""
    chosen = str(form.get("roster_id", "")).strip()
    return chosen if is_id(chosen) else ""


def _join_page(request: Request, session: Any, game: games.StoredGame, key: str,
               error: str | None = None, status: int = 200) -> Response:
    device_id = browser_device(request, session)
    mine = [r for r in devices.my_rosters(session, device_id) if r.ruleset == game.ruleset
            ] if device_id else []
    return page(request, "games/join.html", {"game": game, "key": key, "mine": mine,
                                             "error": error}, status_code=status)


def _joinable(request: Request, session: Any, game_id: str, key: str) -> Response | None:
    """A refusal, unless `key` is the game's join key and its second side is free."""
    if not (is_id(game_id) and key and games.joins(session, game_id, key)):
        return refuse(request, 403, i18n.gettext(
            "This join link does not open this game, or the opponent has joined already."))
    return None


@router.get("/g/{game_id}/join")
def join_page(request: Request, game_id: str, session: SessionDep) -> Response:
    """The join link: the opponent picks one of their armies to play the second side."""
    if is_id(game_id) and (exchanged := secret_link(
            request, "joining", f"/g/{game_id}/join")) is not None:
        return exchanged
    key = secret(request, "joining")
    refused = _joinable(request, session, game_id, key)
    return refused or _join_page(request, session, games.get_game(session, game_id), key)


@router.post("/g/{game_id}/join")
async def join(request: Request, game_id: GameAddress, form: PostedData,
               session: SessionDep) -> Response:
    upload, model = form.get("file"), None
    if not isinstance(upload, str) and upload is not None and upload.filename:
        try:  # an exported file: stored as a new roster of this browser's, then it joins
            model = parse_roster(await upload.read(), i18n.request_lang(request))
        except ImportRefused as refused:
            model = refused
    return await run_in_threadpool(_join, request, session, game_id, form, model)


def _imported(request: Request, session: Any, model: Any) -> str:
    created = rosters.create_roster(session, model, lang=i18n.request_lang(request),
                                    admit=lambda: take_creation(request, session))
    remember_roster(request, session, created.roster.id, by_key=True)  # this browser made it
    return created.roster.id


def _join(request: Request, session: Session, game_id: str, form: FormData,
          model: Any) -> Response:
    key, roster_id = str(form.get("key", "")), _roster_asked(form)
    refused = _joinable(request, session, game_id, key)
    if refused is not None:
        return refused
    game = games.get_game(session, game_id)
    if isinstance(model, ImportRefused):
        why = problem_text(model.errors) if model.errors else model.message
        return _join_page(request, session, game, key, i18n.gettext(
            "The file was not imported: %(why)s") % {"why": why}, 422)
    try:
        roster_id = _imported(request, session, model) if model is not None else roster_id
    except CreationRefused as limited:
        return _join_page(request, session, game, key,
                          limited.message(i18n.current_lang()), 429)
    except DocumentTooLarge:
        return _join_page(request, session, game, key, i18n.gettext(
            "This roster is too large to store: it could not be sent back as read or "
            "exported."), 413)
    try:
        joined, side_key = games.join_game(session, game_id, key, roster_id, None,
                                           bool(form.get("castle_defenders")))
    except (RosterNotFound, RevisionNotFound):
        return _join_page(request, session, games.get_game(session, game_id), key,
                          i18n.gettext("There is no roster at this address."), 404)
    except (games.OtherRuleset, games.NotPlayable):
        return _join_page(request, session, games.get_game(session, game_id), key,
                          i18n.gettext(_OTHER_RULES), 409)
    except (games.AlreadyJoined, games.GameNotFound, KeyRejected):
        return _joinable(request, session, game_id, "") or missing(request)
    return redirect(request, f"/g/{joined.id}/play?key={quote(side_key)}")


_OTHER_RULES = N_("This army plays another rule system: both sides of a game play the same "
                  "rules. Choose an army of the game's rules.")
