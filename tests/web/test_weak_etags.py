"""If-Match compares strongly (RFC 9110, 13.1.1): a weak ETag names no version, so a change
sent with W/"v1" is answered 412 with the current version and changes nothing, on a roster
and on a game alike."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.helpers.documents import army
from tests.helpers.games import chainmail_army
from tests.web.test_games_api import GAMES, send, start

ROSTERS = "/api/v1/rosters"


def test_a_weak_etag_changes_no_roster_and_the_strong_one_does(api: TestClient) -> None:
    created = api.post(ROSTERS, json=army()).json()
    changed = army() | {"name": "Другое имя"}
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    weak = api.put(f"{ROSTERS}/{created['id']}", json=changed,
                   headers=key | {"If-Match": 'W/"v1"'})
    assert weak.status_code == 412, weak.text
    assert weak.headers["etag"] == '"v1"' and weak.json()["version"] == 1
    assert "weak ETag" in weak.json()["message"] and '"v1"' in weak.json()["message"]
    assert api.get(f"{ROSTERS}/{created['id']}").json()["document"]["name"] == army()["name"]
    strong = api.put(f"{ROSTERS}/{created['id']}", json=changed, headers=key | {"If-Match": '"v1"'})
    assert strong.status_code == 200 and strong.headers["etag"] == '"v2"'


def test_a_weak_etag_moves_no_game(api: TestClient) -> None:
    game = start(api, chainmail_army())
    weak = send(api, game, "turns", etag='W/"v1"')
    assert weak.status_code == 412, weak.text
    assert weak.json()["version"] == 1 and "weak ETag" in weak.json()["message"]
    assert api.get(f"{GAMES}/{game['id']}").headers["etag"] == '"v1"'
    assert send(api, game, "turns", etag='"v1"').status_code == 200
