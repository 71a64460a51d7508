"""A game of two armies through the API, on SQLite and PostgreSQL: the opponent joins with
the join key; both sides see one turn, one weather and one log; each side's key changes only
its own army; "Next turn" pressed at once from many phones advances once; the watch link
changes nothing."""

from __future__ import annotations

import concurrent.futures
import threading
from typing import Any

from fastapi.testclient import TestClient

from app.systems.game.tables import MERCENARY_LOST
from tests.helpers.games import chainmail_army, line_and_square_force
from tests.web.test_games_api import GAMES, roster, send


def two_sided(api: TestClient, first: dict[str, Any], second: dict[str, Any],
              **more: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A game started from `first` and joined by `second`: (created, joined) answers."""
    created = api.post(GAMES, json={"roster_id": roster(api, first)["id"], "version": 1,
                                    **more})
    assert created.status_code == 201, created.text
    game = created.json()
    assert game["join_url"] == f"/g/{game['id']}/join?key={game['join_key']}"
    assert game["joinable"] and len(game["sides"]) == 1
    joined = api.post(f"{GAMES}/{game['id']}/sides",
                      json={"roster_id": roster(api, second)["id"], "version": 1},
                      headers={"Authorization": f"Bearer {game['join_key']}"})
    assert joined.status_code == 201, joined.text
    assert joined.headers["etag"] == '"v2"' and joined.json()["side"] == 1
    return game, joined.json()


def read(api: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    answer = api.get(f"{GAMES}/{game['id']}")
    assert answer.status_code == 200
    return answer.json()  # type: ignore[no-any-return]


def test_a_chainmail_game_of_two_armies(api: TestClient) -> None:
    mongols = {**chainmail_army(), "name": "Орда"}
    game, joined = two_sided(api, chainmail_army(), mongols, weather="rolled")
    one, two = game["edit_key"], joined["edit_key"]
    assert one != two and joined["edit_url"].endswith(f"?key={two}")
    now = read(api, game)
    assert [s["name"] for s in now["sides"]] == ["Войско графа", "Орда"]
    assert [s["thresholds"]["figures"] for s in now["sides"]] == [38, 38]
    assert not now["joinable"] and two not in str(now) and game["join_key"] not in str(now)
    # One turn and one weather for the battle, whichever side presses Next turn.
    for turn, key in enumerate([one, two, one, two], start=1):
        answer = send(api, game, "turns", key=key)
        assert answer.status_code == 200 and answer.json()["turn"] == turn
    log = read(api, game)["log"]
    weather = [e for e in log if e.get("table") == "20"]
    assert [e["turn"] for e in weather] == [0, 2, 4]  # once per even turn, for the game
    # Each side's mercenaries roll Table 16 every turn, until a roll loses them to the enemy
    # or the road (the dice are real: how soon that happens is theirs).
    for side in (0, 1):
        rolls = [e for e in log if e.get("table") == "16" and e["side"] == side]
        lost = [e["turn"] for e in rolls if e["result"] in MERCENARY_LOST]
        assert [e["turn"] for e in rolls] == list(range(1, (lost[0] if lost else 4) + 1))
    # Each key changes its own side only.
    assert send(api, game, "casualties", {"unit": 2, "change": 1}, key=two).status_code == 200
    sides = read(api, game)["sides"]
    assert [s["units"][2]["lost"] for s in sides] == [0, 1]
    assert (sides[0]["can_undo"], sides[1]["can_undo"]) == (False, True)
    assert send(api, game, "undo", key=one).status_code == 409  # side one has nothing to undo
    tested = send(api, game, "tests", {"unit": 2, "test": "move"}, key=one).json()["log"][-1]
    assert (tested["side"], tested["unit"], tested["table"]) == (0, 2, "17")
    assert send(api, game, "undo", key=two).status_code == 200
    assert [s["units"][2]["lost"] for s in read(api, game)["sides"]] == [0, 0]


def test_a_line_and_square_game_of_two_armies_and_the_joins_it_refuses(
        api: TestClient) -> None:
    game, joined = two_sided(api, line_and_square_force(), line_and_square_force())
    sides_of = f"{GAMES}/{game['id']}/sides"
    again = api.post(sides_of, json={"roster_id": roster(api, line_and_square_force())["id"]},
                     headers={"Authorization": f"Bearer {game['join_key']}"})
    assert again.status_code == 409 and "joined already" in again.json()["message"]
    for key in (game["edit_key"], "not-a-key"):
        wrong = api.post(sides_of, json={"roster_id": roster(api, line_and_square_force())["id"]},
                         headers={"Authorization": f"Bearer {key}"})
        assert wrong.status_code == 403
    for _ in range(5):
        lost = send(api, game, "casualties", {"unit": 1, "change": 1}, key=joined["edit_key"])
        assert lost.status_code == 200
    sides = lost.json()["sides"]
    assert [s["thresholds"]["state"] for s in sides] == ["steady", "morale_test"]
    order = send(api, game, "tests", {"unit": 0, "test": "order"}, key=joined["edit_key"])
    assert order.json()["log"][-1]["side"] == 1
    assert send(api, game, "turns", key=game["edit_key"]).json()["turn"] == 1
    assert read(api, game)["weather"] is None


def test_a_join_of_another_rule_system_is_refused_in_words(api: TestClient) -> None:
    game = api.post(GAMES, json={"roster_id": roster(api, chainmail_army())["id"]}).json()
    refused = api.post(f"{GAMES}/{game['id']}/sides",
                       json={"roster_id": roster(api, line_and_square_force())["id"]},
                       headers={"Authorization": f"Bearer {game['join_key']}",
                                "Accept-Language": "ru"})
    assert refused.status_code == 409
    assert refused.json()["message"].startswith("roster_id: ")
    assert read(api, game)["joinable"]


def test_twenty_next_turns_at_once_with_one_if_match_advance_once(api: TestClient) -> None:
    game, joined = two_sided(api, chainmail_army(), chainmail_army(), weather="off")
    start = threading.Barrier(20)

    def press(n: int) -> int:
        key = (game["edit_key"], joined["edit_key"])[n % 2]
        start.wait()
        return send(api, game, "turns", key=key, etag='"v2"').status_code

    with concurrent.futures.ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(press, range(20)))
    assert sorted(answers) == [200] + [412] * 19
    now = read(api, game)
    assert (now["turn"], now["version"]) == (1, 3)


def test_the_watch_link_changes_nothing(api: TestClient) -> None:
    game, _ = two_sided(api, chainmail_army(), chainmail_army(), weather="off")
    before = read(api, game)
    for what, body in (("turns", None), ("casualties", {"unit": 0, "change": 1}),
                       ("tests", {"unit": 2, "test": "move"}), ("undo", None)):
        anonymous = api.post(f"{GAMES}/{game['id']}/{what}", json=body,
                             headers={"If-Match": '"v2"'})
        assert anonymous.status_code == 401
    watch = game["view_url"]
    assert api.post(watch, data={"action": "turn", "version": "2"}).status_code == 405
    csrf = str(api.get(watch).cookies.get("muster_csrf") or api.cookies.get("muster_csrf"))
    for key in ("", game["join_key"]):
        page = api.post(f"{watch}/play", data={"csrf": csrf, "key": key, "version": "2",
                                               "action": "turn"}, follow_redirects=False)
        assert page.status_code == 403
    assert read(api, game) == before
