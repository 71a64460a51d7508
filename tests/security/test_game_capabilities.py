"""A game changes only with its own key: every game route that changes it (read from the
app, tests/security/test_capabilities.py) refuses no key, another game's key, a forged or
missing CSRF field and another site, changing nothing; and each is then called properly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.helpers.games import chainmail_army
from tests.security.test_capabilities import FOREIGN, GAME_FORM, GAME_KEYED, ROUTES

BODIES = {"tests": {"unit": 2, "test": "move"}, "casualties": {"unit": 0, "change": 1}}


@dataclass
class Games:
    client: TestClient
    game: dict[str, Any]
    other: dict[str, Any]

    def state(self) -> Any:
        read = self.client.get(f"/api/v1/games/{self.game['id']}")
        return read.status_code, read.json()


def _start(client: TestClient) -> dict[str, Any]:
    roster = client.post("/api/v1/rosters", json=chainmail_army()).json()
    started = client.post("/api/v1/games", json={"roster_id": roster["id"], "version": 1})
    assert started.status_code == 201, started.text
    return started.json()  # type: ignore[no-any-return]


@pytest.fixture
def games(client: TestClient) -> Games:
    return Games(client, _start(client), _start(client))


def _api(games: Games, path: str, prepare: bool = False) -> Any:
    what = path.rsplit("/", 1)[1]
    url = path.replace("{game_id}", games.game["id"])
    if prepare and what == "undo":  # something to undo, so that the proper call can succeed
        _api(games, "/api/v1/games/{game_id}/casualties")(
            {"Authorization": f"Bearer {games.game['edit_key']}"})

    def send(headers: dict[str, str] | None = None) -> httpx.Response:
        etag = games.client.get(f"/api/v1/games/{games.game['id']}").headers["etag"]
        return games.client.post(url, json=BODIES.get(what),
                                 headers={"If-Match": etag, **(headers or {})})

    return send


@pytest.mark.parametrize(("method", "path"), sorted(GAME_KEYED & set(ROUTES)))
def test_the_api_changes_a_game_only_with_its_own_key(games: Games, method: str,
                                                      path: str) -> None:
    send = _api(games, path, prepare=True)
    before = games.state()
    assert send().status_code == 401
    assert send({"Authorization": "Bearer not-the-key"}).status_code == 403
    assert send({"Authorization": f"Bearer {games.other['edit_key']}"}).status_code == 403
    for foreign in FOREIGN:
        assert send({**foreign,
                     "Authorization": f"Bearer {games.game['edit_key']}"}).status_code == 403
    assert games.state() == before, "a refused request changed something"
    proper = send({"Authorization": f"Bearer {games.game['edit_key']}"})
    assert proper.status_code == 200, proper.text


@pytest.mark.parametrize(("method", "path"), sorted(GAME_FORM & set(ROUTES)))
def test_the_play_form_changes_a_game_only_with_its_key_and_this_sites_csrf_field(
        games: Games, method: str, path: str) -> None:
    browser = TestClient(games.client.app)
    browser.get(f"/g/{games.game['id']}")
    csrf = str(browser.cookies["muster_csrf"])
    url = path.replace("{game_id}", games.game["id"])

    def post(headers: dict[str, str] | None = None, **fields: str) -> httpx.Response:
        form = {"csrf": csrf, "key": games.game["edit_key"], "version": "1", "action": "turn",
                **fields}
        return browser.post(url, data={k: v for k, v in form.items() if v is not None},
                            headers=headers or {}, follow_redirects=False)

    before = games.state()
    assert post(key="").status_code == 403
    assert post(key="not-the-key").status_code == 403
    assert post(key=games.other["edit_key"]).status_code == 403
    assert post(csrf="").status_code == 403
    assert post(csrf="forged-token").status_code == 403
    for foreign in FOREIGN:
        assert post(foreign).status_code == 403
    assert games.state() == before, "a refused request changed something"
    assert post().status_code == 303
    assert games.state()[1]["turn"] == 1


def test_the_play_page_needs_the_key_and_the_view_never_shows_it(games: Games) -> None:
    client, game = games.client, games.game
    assert client.get(f"/g/{game['id']}/play").status_code == 403
    assert client.get(f"/g/{game['id']}/play?key={games.other['edit_key']}").status_code == 403
    played = client.get(f"/g/{game['id']}/play?key={game['edit_key']}")
    assert played.status_code == 200 and played.headers["cache-control"] == "no-store"
    view = client.get(f"/g/{game['id']}")
    assert view.status_code == 200 and game["edit_key"] not in view.text
    for answer in (played, view):
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert "script-src 'self'" in answer.headers["content-security-policy"]


def test_the_watch_link_and_the_public_read_give_no_roster_a_capability(games: Games) -> None:
    """A roster's id reads the roster, its later edits and its whole history: a game names the
    version its sides froze, never the id."""
    roster = games.client.post("/api/v1/rosters", json=chainmail_army()).json()
    started = games.client.post("/api/v1/games", json={"roster_id": roster["id"]}).json()
    for url in (f"/api/v1/games/{started['id']}", f"/g/{started['id']}"):
        answer = games.client.get(url)
        assert answer.status_code == 200 and roster["id"] not in answer.text, url


def test_a_game_is_joined_only_with_its_join_key_once(games: Games) -> None:
    client, game = games.client, games.game
    army = client.post("/api/v1/rosters", json=chainmail_army()).json()["id"]
    url = f"/api/v1/games/{game['id']}/sides"

    def join(headers: dict[str, str] | None = None) -> httpx.Response:
        return client.post(url, json={"roster_id": army}, headers=headers or {})

    before = games.state()
    assert join().status_code == 401
    for key in ("not-the-key", game["edit_key"], games.other["join_key"]):
        assert join({"Authorization": f"Bearer {key}"}).status_code == 403
    for foreign in FOREIGN:
        assert join({**foreign, "Authorization": f"Bearer {game['join_key']}"}
                    ).status_code == 403
    browser = TestClient(client.app)
    browser.get(f"/g/{game['id']}")
    csrf = str(browser.cookies["muster_csrf"])
    form = {"csrf": csrf, "key": game["join_key"], "roster_id": army}
    for wrong in ({"csrf": ""}, {"key": game["edit_key"]}, {"key": games.other["join_key"]}):
        page = browser.post(f"/g/{game['id']}/join", data={**form, **wrong},
                            follow_redirects=False)
        assert page.status_code == 403
    assert browser.get(f"/g/{game['id']}/join?key={game['edit_key']}").status_code == 403
    assert games.state() == before, "a refused join changed something"
    joined = join({"Authorization": f"Bearer {game['join_key']}"})
    assert joined.status_code == 201 and joined.json()["edit_key"] not in str(games.state())
    assert browser.post(f"/g/{game['id']}/join", data=form,
                        follow_redirects=False).status_code == 403  # taken: one army only
