"""JSON API for games (the game-day companion): start one from a roster version, let the
opponent's army join it, read it, and change it — a turn, a test, a casualty, an undo.

As with rosters, the public id reads a game and a side's key (`Authorization: Bearer <key>`)
changes it: the turn for both sides, casualties, tests and undo for that side only. A change
names the version it was made against (`If-Match: "v3"`); a stale one is answered 412 with
the current version. No key is ever in a read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar, Union

from fastapi import APIRouter, Body, Depends, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlmodel import Session

from app.api.health import UNAVAILABLE_ANSWER
from app.api.models import TOO_MANY
from app.api.refusals import named_roster
from app.api.rosters import IF_MATCH, WEAK, etag, expected_version, site, stale
from app.domain import limits
from app.domain.base import Lang, whole_in
from app.domain.translations import tr
from app.http.cross_site import CROSS_SITE_ANSWER
from app.http.deps import (
    NOT_JSON_ANSWER,
    ROSTER_ID,
    LangDep,
    SessionDep,
    bearer,
    json_body,
    refusal,
    take_creation,
)
from app.http.errors import Failure, ValidationFailure, refusal_body
from app.http.query import DOCUMENTED_QUERY
from app.services import games
from app.services.errors import KeyRejected
from app.services.stored_rosters import MAX_VERSION
from app.systems import SYSTEMS
from app.systems.game import GameRefused
from app.systems.game.refusals import refused_text
from app.systems.game.summary import game_json

router = APIRouter(prefix="/api/v1/games", tags=["games"], dependencies=[DOCUMENTED_QUERY])
GameId = Annotated[str, Path(pattern=ROSTER_ID, max_length=64, description="the game's public id")]
_bearer = HTTPBearer(auto_error=False, description="the game's key", scheme_name="GameKey")
T = TypeVar("T")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


UnitIndex = Annotated[whole_in(0, limits.MAX_UNITS - 1),
                      Field(description="the unit's index in `units`")]


class GameJoin(_Body):
    roster_id: str = Field(pattern=ROSTER_ID, max_length=64,
                           description="the roster's public id (from its share or edit link)")
    version: whole_in(1, MAX_VERSION) | None = Field(  # type: ignore[valid-type]
        default=None, description="the roster version to play; none: the current one")
    castle_defenders: bool = Field(
        default=False, description="Chainmail: the army defends a castle, so it makes no "
                                   "morale check for a third of it lost (the man-to-man "
                                   "rules' Morale: castle defenders need not test morale); "
                                   "Line and Square: ignored")


class GameStart(GameJoin):
    weather: Literal["rolled", "clear", "cloudy", "rain", "off"] = Field(
        default="rolled", description="Chainmail: the starting weather, rolled (Table 20's "
                                      "d6) or chosen, or off: no weather")


class CasualtyChange(_Body):
    unit: UnitIndex
    change: Literal[1, -1] = Field(description="1: a figure lost; -1: one given back")


def _tests_asked() -> object:
    """Every test any system's game rules take, told apart by `test`."""
    asks = tuple(ask for system in SYSTEMS.values() if system.game
                 for ask in system.game.ASKS)
    # Union[tuple] spells "any of these models"; the `|` operator cannot take a tuple.
    return Annotated[Union[asks], Field(discriminator="test")]  # type: ignore  # noqa: UP007


TestAsked = _tests_asked()


class GamePublic(BaseModel):
    id: str
    roster_version: int = Field(description="the version of side 0's roster the game froze "
                                            "(its setup is in `units`; the live roster's id is "
                                            "never answered: it reads the roster's later edits)")
    ruleset: str
    name: str
    version: int = Field(description="1 at the start, +1 per change; the ETag is \"v<version>\"")
    view_url: str = Field(description="read-only link for the opponent and spectators")
    turn: int = Field(description="0 before the first turn")
    weather: dict[str, Any] | None = Field(description="Chainmail's Table 20 weather, if played")
    units: list[dict[str, Any]] = Field(description="each unit as it began, and as it stands")
    castle_defenders: bool = Field(description="Chainmail: the army defends a castle and "
                                               "makes no morale check for losses "
                                               "(`thresholds.morale_at` is null)")
    thresholds: dict[str, Any] = Field(description="the army's morale thresholds and state")
    can_undo: bool
    sides: list[dict[str, Any]] = Field(
        description="each side in the order it joined (`side` 0, then 1): its roster's "
                    "name and version, units, thresholds and `can_undo`; the fields above "
                    "`sides` are side 0's")
    joinable: bool = Field(description="the second side may still join")
    log: list[dict[str, Any]] = Field(description="every entry, oldest first; only grows")
    created_at: Any
    updated_at: Any


class GameCreated(GamePublic):
    edit_key: str = Field(description="shown only now: send it as `Authorization: Bearer <key>`")
    edit_url: str = Field(description="the secret link to play the game")
    join_key: str = Field(description="shown only now: the opponent joins with it "
                                      "(`POST /api/v1/games/{id}/sides`)")
    join_url: str = Field(description="the secret link for the opponent to join")


class SideJoined(GamePublic):
    side: int = Field(description="the joined side's index in `sides`")
    edit_key: str = Field(description="shown only now: the side's key")
    edit_url: str = Field(description="the secret link to play this side")


_ETAG = {"ETag": {"description": 'The version, for If-Match: "v3"', "required": True,
                  "schema": {"type": "string"}}}
_MISSING: dict[int | str, dict[str, Any]] = {
    404: {"model": Failure, "description": "No game (or roster, version, unit) by this id"},
    422: {"model": ValidationFailure, "description": "A field is invalid; the message names it"}}
_CHANGE: dict[int | str, dict[str, Any]] = {
    200: {"headers": _ETAG}, **_MISSING, **UNAVAILABLE_ANSWER,
    401: {"model": Failure, "description": "No key (`Authorization: Bearer <edit_key>`)"},
    403: {"model": Failure, "description": "Not this game's key, or sent from another site"},
    409: {"model": Failure, "description": "This game refuses it (nothing to undo, a test "
                                           "the unit does not take); the message names the "
                                           "field"},
    412: {"model": Failure, "description": "The game changed since that version"},
    428: {"model": Failure, "description": "No If-Match header"}}
_WITH_BODY: dict[int | str, dict[str, Any]] = {
    **_CHANGE, **NOT_JSON_ANSWER,
    413: {"model": Failure, "description": "Body over the size limit"}}

def game_key(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
             lang: LangDep = "en") -> str:
    return bearer(credentials,
                  tr(lang, "Authorization: send the game's key as `Bearer <edit_key>`"))


def keyed_game(game_id: GameId, session: SessionDep, key: Annotated[str, Depends(game_key)],
               lang: LangDep = "en") -> tuple[str, int]:
    """The game id from the path and the side whose key the request has shown."""
    try:
        side = games.check_key(session, game_id, key)
    except KeyRejected as error:
        raise refusal(403, tr(lang, "Authorization: this is not the game's key")) from error
    return game_id, side


KeyedSide = Annotated[tuple[str, int], Depends(keyed_game)]


def view_url(game_id: str, base: str = "") -> str:
    return f"{base}/g/{game_id}"


def edit_url(game_id: str, key: str, base: str = "") -> str:
    return f"{base}/g/{game_id}/play?key={key}"


def join_url(game_id: str, key: str, base: str = "") -> str:
    return f"{base}/g/{game_id}/join?key={key}"


def public(game: games.StoredGame, base: str = "") -> dict[str, Any]:
    state = game_json(game.setup, game.state())
    for side, (_, version) in zip(state["sides"], game.rosters, strict=True):
        side.update(roster_version=version)
    return {"id": game.id, "roster_version": game.roster_version,
            "ruleset": game.ruleset, "name": game.name, "version": game.version,
            "view_url": view_url(game.id, base), **state, "joinable": game.joinable,
            "log": game.log, "created_at": game.created_at, "updated_at": game.updated_at}


def _from_roster(lang: Lang, roster_id: str, version: int | None, take: Callable[[], T]) -> T:
    """`take()`, with the refusals of the roster it plays answered as the API answers them;
    a roster the companion cannot play is a refusal of state (409), as every such one."""
    try:
        with named_roster(lang, roster_id, version):
            return take()
    except games.NotPlayable as error:
        raise refusal(409, "roster_id: " + tr(
            lang, "no game companion for this rule system yet")) from error


@router.post("", status_code=201, response_model=GameCreated, dependencies=[Depends(json_body)],
             responses={201: {"headers": _ETAG}, **_MISSING, **NOT_JSON_ANSWER,
                        **TOO_MANY, **CROSS_SITE_ANSWER, **UNAVAILABLE_ANSWER,
                        409: {"model": Failure,
                              "description": "The roster's rule system has no game companion"},
                        410: {"model": Failure, "description": "The roster was deleted"}})
def create_game(request: Request, session: SessionDep, response: Response,
                start: Annotated[GameStart, Body()], lang: LangDep = "en") -> Any:
    """Start a game of a roster version anyone with its link can read. The answer holds the
    first side's key and the join key, once: keep `edit_url` to play, give `join_url` (or
    `join_key`) to the opponent, share `view_url` with spectators."""
    created, key, join_key = _from_roster(lang, start.roster_id, start.version, lambda: (
        games.create_game(session, start.roster_id, start.version, start.weather,
                          castle_defenders=start.castle_defenders,
                          admit=lambda: take_creation(request, session))))
    response.headers["ETag"] = etag(created.version)
    response.headers["Location"] = f"{router.prefix}/{created.id}"
    response.headers["Cache-Control"] = "no-store"
    base = site(request)
    return {**public(created, base), "edit_key": key, "edit_url": edit_url(created.id, key, base),
            "join_key": join_key, "join_url": join_url(created.id, join_key, base)}


@router.get("/{game_id}", response_model=GamePublic,
            responses={200: {"headers": _ETAG}, **_MISSING, **UNAVAILABLE_ANSWER})
def read_game(request: Request, game_id: GameId, session: SessionDep, response: Response,
              lang: LangDep = "en") -> dict[str, Any]:
    """The game: its state, its units, its thresholds and the whole log (never the key)."""
    game = games.get_game(session, game_id)
    response.headers["ETag"] = etag(game.version)
    response.headers["Cache-Control"] = "no-cache"
    return public(game, site(request))


def apply(request: Request, session: Session, game_id: str, response: Response,
          change: games.Change, lang: Lang) -> Any:
    """One change at the version If-Match names: 412 when stale, 409 or 422 when refused."""
    version = expected_version(request.headers.get("if-match"), lang,
                               lambda: games.get_game(session, game_id).version)
    try:
        game = games.change(session, game_id, version, change)
    except games.GameConflict as conflict:
        now = conflict.current.version
        text = stale(lang, version, now) if version == WEAK else tr(
            lang, "If-Match: the game is at version %(now)s, not %(version)s; reload it",
            now=now, version=version)
        return JSONResponse(status_code=412, headers={"ETag": etag(now)}, content=refusal_body(
            text, version=now, etag=etag(now)))
    except GameRefused as refused:
        text = f"{refused.field}: {refused_text(refused.code, lang)}"
        if refused.code == "no_such_unit":
            raise refusal(404, text) from refused
        if refused.conflict:
            return JSONResponse(status_code=409, content=refusal_body(text))
        raise RequestValidationError([{"loc": ("body", refused.field), "type": "value_error",
                                       "msg": text}]) from refused
    response.headers["ETag"] = etag(game.version)
    return public(game, site(request))


@router.post("/{game_id}/turns", response_model=GamePublic, responses=_CHANGE,
             openapi_extra=IF_MATCH)
def next_turn(request: Request, keyed: KeyedSide, session: SessionDep, response: Response,
              lang: LangDep = "en") -> Any:
    """Next turn, for the battle (either side's key): the counter advances and the server
    rolls what the rules roll now — Table 16 for every mercenary unit of each side, Table 20
    on every even turn for both — each roll logged."""
    return apply(request, session, keyed[0], response, games.next_turn(), lang)


@router.post("/{game_id}/tests", response_model=GamePublic, responses=_WITH_BODY,
             dependencies=[Depends(json_body)], openapi_extra=IF_MATCH)
def roll_test(request: Request, keyed: KeyedSide, session: SessionDep, response: Response,
              asked: Annotated[TestAsked, Body()], lang: LangDep = "en") -> Any:
    """A test a unit of the key's side makes when it comes up (Table 17, the order test,
    morale), logged."""
    ask = asked.model_dump(exclude={"unit"})  # type: ignore[attr-defined]
    unit = asked.unit  # type: ignore[attr-defined]
    return apply(request, session, keyed[0], response,
                 games.roll_test(unit, ask, side=keyed[1]), lang)


@router.post("/{game_id}/casualties", response_model=GamePublic, responses=_WITH_BODY,
             dependencies=[Depends(json_body)], openapi_extra=IF_MATCH)
def casualty(request: Request, keyed: KeyedSide, session: SessionDep, response: Response,
             change: Annotated[CasualtyChange, Body()], lang: LangDep = "en") -> Any:
    """A figure of the key's side lost or given back; a threshold it crosses is logged
    with it."""
    return apply(request, session, keyed[0], response,
                 games.casualty(change.unit, change.change, keyed[1]), lang)


@router.post("/{game_id}/undo", response_model=GamePublic, responses=_CHANGE,
             openapi_extra=IF_MATCH)
def undo(request: Request, keyed: KeyedSide, session: SessionDep, response: Response,
         lang: LangDep = "en") -> Any:
    """Take back the key's side's last casualty change (as a new log entry; rolls stay
    rolled)."""
    return apply(request, session, keyed[0], response, games.undo(keyed[1]), lang)


@router.post("/{game_id}/sides", status_code=201, response_model=SideJoined,
             dependencies=[Depends(json_body)],
             responses={201: {"headers": _ETAG}, **_WITH_BODY,
                        401: {"model": Failure, "description": "No join key"},
                        403: {"model": Failure, "description": "Not this game's join key"},
                        409: {"model": Failure, "description": "The second side has joined "
                                                               "already, or the army plays "
                                                               "another rule system"},
                        410: {"model": Failure, "description": "The roster was deleted"}})
def join_game(request: Request, game_id: GameId, session: SessionDep, response: Response,
              key: Annotated[str, Depends(game_key)], join: Annotated[GameJoin, Body()],
              lang: LangDep = "en") -> Any:
    """The opponent's army joins as the second side, with the join key (`Authorization:
    Bearer <join_key>`). The answer holds the side's own key, once."""
    try:
        joined, side_key = _from_roster(lang, join.roster_id, join.version, lambda: (
            games.join_game(session, game_id, key, join.roster_id, join.version,
                            join.castle_defenders)))
    except KeyRejected as error:
        raise refusal(403, tr(lang, "Authorization: this is not the game's join key")) from error
    except games.AlreadyJoined as error:
        raise refusal(409, tr(lang, "Both sides of this game have joined already.")) from error
    except games.OtherRuleset as error:
        raise refusal(409, "roster_id: " + tr(
            lang, "This army plays another rule system: both sides of a game play the same "
                  "rules. Choose an army of the game's rules.")) from error
    response.headers["ETag"] = etag(joined.version)
    response.headers["Cache-Control"] = "no-store"
    base = site(request)
    return {**public(joined, base), "side": 1, "edit_key": side_key,
            "edit_url": edit_url(joined.id, side_key, base)}
