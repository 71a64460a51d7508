"""The game companion's pages: start a game from a roster, play it (the secret link), watch
it (the read-only link, refreshed by htmx every few seconds, or by a reload without it).

Every action is a plain form (post, redirect, get), so the page works with JavaScript off;
with htmx the form swaps the game's block in place. A form proves its right with the game's
key (a hidden field, from the secret link), the CSRF cookie echoed and a same-site origin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.domain.game_rules import GameRefused, GameRules
from app.http.deps import SessionDep, is_id, take_creation
from app.services import games
from app.services.errors import KeyRejected, RevisionNotFound, RosterNotFound
from app.services.stored_rosters import MAX_VERSION
from app.systems import SYSTEMS
from app.systems.game.state import sides_of
from app.systems.game.summary import end_json, game_json
from app.web import game_join, i18n
from app.web.game_forms import GameAddress, missing
from app.web.pages import PostedData, keep_secret, page, refuse, secret, secret_link
from app.web.problems import N_
from app.web.sheet import share_qr
from app.web.templating import site_address

router = APIRouter(include_in_schema=False, dependencies=[Depends(i18n.page_language)])
NOW_SHOWN = 20
SHOWN_ENTRIES = 400  # the log drawn on the page, newest first; the API gives all of it


# What a refused change says on the page, by the domain's code (gettext'd when shown).
_REFUSED = {
    "no_such_unit": N_("The game has no such unit."),
    "not_peasants": N_("Only peasants test on Table 17."),
    "not_knights": N_("Only knights throw the discipline die."),
    "no_stakes": N_("Only longbowmen with stakes set take this roll."),
    "not_mercenary": N_("Only mercenaries roll Table 16."),
    "unknown_test": N_("This unit takes no such test here."),
    "unknown_enemy": N_("Choose the enemy for an attack or a defence (Table 17)."),
    "unknown_formation": N_("There is no such formation."),
    "out_of_range": N_("A value of this form is out of range. Reload the page and try again."),
    "plus_or_minus_one": N_("A value of this form is out of range. Reload the page and try again."),
    "none_left": N_("The unit has no figures left to lose."),
    "none_lost": N_("The unit has lost no figures to give back."),
    "nothing_to_undo": N_("Nothing to undo: no casualty change is left to take back."),
    "log_full": N_("The game's log is full."),
    "last_turn": N_("The game is at its last turn."),
}


def _refused_text(code: str) -> str:
    return i18n.gettext(_REFUSED.get(code, _REFUSED["out_of_range"]))


def _context(request: Request, game: games.StoredGame, key: str | None, side: int | None,
             notice: str | None = None) -> dict[str, Any]:
    base = site_address(request)
    state = game_json(game.setup, game.state())
    turn, armies = state["turn"], sides_of(game.setup)
    # The player's own side first, where the thumb is; the opponent's below it.
    order = sorted(range(len(armies)), key=lambda s: s != side)
    return {"game": game, "state": state, "key": key, "notice": notice, "side": side,
            "order": order, "own_last": _own_last(game.log, side) if side is not None else None,
            # This turn's rolls, tests and thresholds on top; each tap of +/− only in the log.
            "now": [e for e in reversed(game.log)
                    if e["turn"] == turn and e["kind"] not in ("casualty", "undo")][:NOW_SHOWN],
            "log": list(reversed(game.log))[:SHOWN_ENTRIES],
            # Each unit's last test this turn, shown in its own row, where it was asked.
            "rolls": {(e.get("side", 0), e["unit"]): e for e in game.log
                      if e["kind"] == "test" and e["turn"] == turn},
            "view_link": f"{base}/g/{game.id}", "view_qr": share_qr(f"{base}/g/{game.id}"),
            "play_link": f"{base}/g/{game.id}/play?key={quote(key)}" if key else None,
            **_rules(game).page_context(armies[side or 0], i18n.request_lang(request))}


def _rules(game: games.StoredGame) -> GameRules:
    rules = SYSTEMS[game.ruleset].game
    assert rules is not None, "a game is only ever set up for a system that plays"
    return rules


def _draw(request: Request, game: games.StoredGame, key: str | None, side: int | None = None,
          notice: str | None = None, status: int = 200, join: str | None = None) -> Response:
    name = "games/play.html" if key else "games/view.html"
    context = _context(request, game, key, side, notice)
    if join and game.joinable:
        context["join"] = join
        context["join_link"] = f"{site_address(request)}/g/{game.id}/join?key={quote(join)}"
        context["join_qr"] = share_qr(context["join_link"])
    response = page(request, name, context, blocks=["game"], status_code=status)
    response.headers["Cache-Control"] = "no-store" if key else "no-cache"
    return response


def _join_key(session: Any, game_id: str, side: int, join: str) -> str | None:
    """The join key the first side's page was given, while it still lets the opponent in:
    the page keeps showing the join link (the key is stored only as a hash)."""
    return join if join and side == 0 and games.joins(session, game_id, join) else None


def _unchanged(session: Any, game_id: str, since: str) -> bool:
    """A page following the game (htmx every few seconds) asks `since` the version it
    shows: the same version is answered 204, which htmx leaves as it is (the game's log is
    not read for it)."""
    return bool(since) and since == str(games.version_of(session, game_id))


@router.get("/g/{game_id}")
def view(request: Request, game_id: str, session: SessionDep, since: str = "") -> Response:
    """The read-only link: the same state and log as the players', without the forms."""
    if not is_id(game_id):
        return missing(request)
    if _unchanged(session, game_id, since):
        return Response(status_code=204, headers={"Cache-Control": "no-cache"})
    return _draw(request, games.get_game(session, game_id), None)


@router.get("/g/{game_id}/summary")
def summary(request: Request, game_id: str, session: SessionDep) -> Response:
    """The end of the game, for anyone with the watch link: turns, losses, who broke."""
    if not is_id(game_id):
        return missing(request)
    game = games.get_game(session, game_id)
    link = f"{site_address(request)}/g/{game.id}/summary"
    response = page(request, "games/summary.html", {
        "game": game, "end": end_json(game.setup, game.state()), "link": link,
        "qr": share_qr(link)})
    response.headers["Cache-Control"] = "no-cache"
    return response


def _keyed(session: Any, game_id: str, key: str) -> tuple[games.StoredGame, int] | None:
    """The game and the side whose key `key` is; None for any other key."""
    try:
        side = games.check_key(session, game_id, key)
    except (games.GameNotFound, KeyRejected):
        return None
    return games.get_game(session, game_id), side


@router.get("/g/{game_id}/play")
def play(request: Request, game_id: str, session: SessionDep, since: str = "") -> Response:
    """A side's secret link: the game with that side's buttons (and, given the join key
    it was made with, the first side's page shows the join link until the opponent joins).
    The link's keys are exchanged for cookies first (`secret_link`)."""
    if not is_id(game_id):
        return missing(request)
    if (exchanged := secret_link(request, "game", f"/g/{game_id}")) is not None:
        return exchanged
    key, join = secret(request, "game"), secret(request, "game", "join")
    try:
        side = games.check_key(session, game_id, key) if key else None
    except (games.GameNotFound, KeyRejected):
        side = None
    if side is None:
        return refuse(request, 403, i18n.gettext(
            "This link does not play this game. Open the game's secret link, or watch it."))
    if _unchanged(session, game_id, since):
        return Response(status_code=204, headers={"Cache-Control": "no-store"})
    game, join_key = games.get_game(session, game_id), _join_key(session, game_id, side, join)
    return _draw(request, game, key, side, join=join_key)


def _whole(form: FormData, name: str, default: int = 0) -> int:
    try:
        return int(str(form.get(name, default)))
    except ValueError:
        raise GameRefused(name, "out_of_range") from None


def _page_turn(form: FormData) -> int:
    """The turn the page showed, -1 when the form's field is not a number: a stale tap is
    answered as such whatever came in it."""
    try:
        return _whole(form, "turn", -1)
    except GameRefused:
        return -1


def _change(form: FormData, side: int) -> games.Change:
    """The change a page's form asks for, for the side of its key; GameRefused naming the
    field for a bad one."""
    action = form.get("action")
    if action == "turn":
        return games.next_turn()
    if action == "undo":
        return games.undo(side)
    unit = _whole(form, "unit", -1)
    if action == "casualty":
        return games.casualty(unit, _whole(form, "change"), side)
    if action == "test":
        ask = {"test": form.get("test"), "enemy": form.get("enemy") or None,
               "formation": form.get("formation") or None, "officer": bool(form.get("officer")),
               "disorder": _whole(form, "disorder"),
               "near_commander": bool(form.get("near_commander")),
               "commander_lost": bool(form.get("commander_lost")),
               "needed": _whole(form, "needed") if form.get("needed") else None,
               "front_rank": _whole(form, "front_rank"), "climbers": _whole(form, "climbers"),
               "in_melee": str(form.get("in_melee", "1")) == "1"}
        return games.roll_test(unit, ask, side=side)
    raise GameRefused("action", "unknown_test")


def _own_last(log: list[dict[str, Any]], side: int) -> int:
    return max((e["seq"] for e in log if e.get("side", 0) == side and "unit" in e), default=0)


def _version(form: FormData, game: games.StoredGame, side: int) -> int:
    """The version a tap is made against. A change of one's own side made while only the
    other side played (its page had its last entry) goes on at the game's version: the
    other side's taps are no conflict. The turn, and a side changed meanwhile from another
    phone, keep the page's version, so a stale tap is told."""
    if form.get("action") != "turn" and str(form.get("mine")) == str(_own_last(game.log, side)):
        return game.version
    return _whole(form, "version")


@router.post("/g/{game_id}/play")
def act(request: Request, game_id: GameAddress, form: PostedData,
        session: SessionDep) -> Response:
    key = str(form.get("key", ""))
    keyed = _keyed(session, game_id, key) if key else None
    if keyed is None:
        return refuse(request, 403, i18n.gettext("This is not the game's secret link."))
    side, join = keyed[1], _join_key(session, game_id, keyed[1], str(form.get("join", "")))
    try:
        changed = games.change(session, game_id, _version(form, *keyed), _change(form, side))
    except games.GameConflict as conflict:
        moved = conflict.current.state().turn > _page_turn(form) >= 0
        return _draw(request, conflict.current, key, side, i18n.gettext(
            "The turn has moved on already (the other player pressed Next turn): here it "
            "is. Nothing more was done.") if moved else i18n.gettext(
            "The game changed meanwhile (another phone?): here it is as it stands now. "
            "Nothing was done; press again if it still applies."), 409, join)
    except GameRefused as refused:
        return _draw(request, games.get_game(session, game_id), key, side,
                     _refused_text(refused.code), 422, join)
    if request.headers.get("hx-request") == "true":
        return _draw(request, changed, key, side, join=join)
    response = keep_secret(request, RedirectResponse(f"/g/{game_id}/play#game", status_code=303),
                           "game", f"/g/{game_id}", key)
    return keep_secret(request, response, "game", f"/g/{game_id}", join, "join") if join \
        else response


@router.post("/g/new")
def start(request: Request, form: PostedData, session: SessionDep) -> Response:
    """The roster pages' "Start a game": a game of the version the page shows."""
    roster_id, weather = str(form.get("roster_id", "")), str(form.get("weather", "rolled"))
    if not is_id(roster_id):
        return refuse(request, 404, i18n.gettext("There is no roster at this address."))
    # No version: the roster's latest. A version or a weather the form cannot send is refused.
    version = str(form.get("version", "")).strip()
    if version and not (version.isascii() and version.isdigit() and len(version) < 10
                        and 1 <= int(version) <= MAX_VERSION):
        return refuse(request, 422, i18n.gettext(
            "%(field)s: enter a whole number from %(least)s to %(most)s") % {
            "field": i18n.gettext("version"), "least": 1, "most": MAX_VERSION})
    if weather not in ("rolled", "clear", "cloudy", "rain", "off"):
        return refuse(request, 422, i18n.gettext("%(field)s: not one of the choices") % {
            "field": i18n.gettext("Weather")})
    try:
        created, key, join_key = games.create_game(
            session, roster_id, int(version) if version else None, weather,
            castle_defenders=bool(form.get("castle_defenders")),
            admit=lambda: take_creation(request, session))
    except (RosterNotFound, RevisionNotFound):
        return refuse(request, 404, i18n.gettext("There is no roster at this address."))
    except games.NotPlayable:
        return refuse(request, 422, i18n.gettext(
            "The game companion plays Chainmail and Line and Square armies."))
    return RedirectResponse(f"/g/{created.id}/play?key={quote(key)}&join={quote(join_key)}",
                            status_code=303)


router.include_router(game_join.router)
