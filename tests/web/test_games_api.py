"""The games API as a client uses it, on SQLite and PostgreSQL: start, turns, tests,
casualties and thresholds, undo, a stale version, a wrong key, a deleted roster."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.helpers.games import chainmail_army, line_and_square_force

GAMES = "/api/v1/games"


def roster(api: TestClient, document: dict[str, Any]) -> dict[str, Any]:
    created = api.post("/api/v1/rosters", json=document)
    assert created.status_code == 201, created.text
    return created.json()


def start(api: TestClient, document: dict[str, Any], **more: Any) -> dict[str, Any]:
    army = roster(api, document)
    started = api.post(GAMES, json={"roster_id": army["id"], "version": 1, **more})
    assert started.status_code == 201, started.text
    assert started.headers["etag"] == '"v1"'
    return started.json()


def send(api: TestClient, game: dict[str, Any], what: str, body: Any = None,
         etag: str | None = None, key: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {key or game['edit_key']}",
               "If-Match": etag or api.get(f"{GAMES}/{game['id']}").headers["etag"]}
    return api.post(f"{GAMES}/{game['id']}/{what}", json=body, headers=headers)


def test_a_game_starts_from_a_roster_version_with_links_of_its_own(api: TestClient) -> None:
    game = start(api, chainmail_army(), weather="cloudy")
    assert game["view_url"] == f"/g/{game['id']}"
    assert game["edit_url"] == f"/g/{game['id']}/play?key={game['edit_key']}"
    assert (game["turn"], game["version"], game["roster_version"]) == (0, 1, 1)
    assert [u["figures"] for u in game["units"]] == [6, 12, 20]
    assert game["thresholds"] == {"figures": 38, "lost": 0, "morale_at": 13, "state": "steady"}
    assert game["log"] == [{"seq": 1, "turn": 0, "kind": "roll", "table": "20", "dice": [],
                            "column": None, "result": "chosen", "weather": "cloudy"}]
    read = api.get(f"{GAMES}/{game['id']}")
    assert read.status_code == 200 and "edit_key" not in read.json()
    assert game["edit_key"] not in read.text and "edit_url" not in read.json()
    assert read.headers["content-security-policy"] and read.headers["x-frame-options"] == "DENY"


def test_a_games_read_names_the_versions_it_froze_never_a_live_roster(api: TestClient) -> None:
    first, second = roster(api, chainmail_army()), roster(api, chainmail_army())
    game = api.post(GAMES, json={"roster_id": first["id"], "version": 1}).json()
    joined = api.post(f"{GAMES}/{game['id']}/sides", json={"roster_id": second["id"]},
                      headers={"Authorization": f"Bearer {game['join_key']}"})
    assert joined.status_code == 201, joined.text
    for answer in (api.get(f"{GAMES}/{game['id']}"), api.get(f"/g/{game['id']}"), joined):
        assert answer.status_code in (200, 201)
        assert first["id"] not in answer.text and second["id"] not in answer.text
    read = api.get(f"{GAMES}/{game['id']}").json()
    assert [s["roster_version"] for s in read["sides"]] == [1, 1]
    assert [len(s["units"]) for s in read["sides"]] == [3, 3]  # the armies as they began


def test_each_turn_rolls_for_the_mercenaries_and_the_weather_on_even_turns(
        api: TestClient) -> None:
    game = start(api, chainmail_army())
    for turn in range(1, 6):
        answer = send(api, game, "turns")
        assert answer.status_code == 200, answer.text
        assert answer.json()["turn"] == turn and answer.headers["etag"] == f'"v{turn + 1}"'
    log = answer.json()["log"]
    assert [e["turn"] for e in log if e["kind"] == "turn"] == [1, 2, 3, 4, 5]
    merc = [e for e in log if e.get("table") == "16"]
    assert {e["unit"] for e in merc} == {1}
    assert [e["turn"] for e in log if e.get("table") == "20"][1:] == [2, 4]
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))
    assert api.get(f"{GAMES}/{game['id']}").json()["log"] == log


def test_casualties_cross_the_army_threshold_and_undo_takes_them_back(api: TestClient) -> None:
    game = start(api, chainmail_army(), weather="off")
    for _ in range(13):
        answer = send(api, game, "casualties", {"unit": 2, "change": 1})
        assert answer.status_code == 200, answer.text
    now = answer.json()
    assert now["thresholds"]["state"] == "morale_check"
    assert now["log"][-1] == {"seq": 14, "turn": 0, "kind": "threshold", "side": 0, "unit": None,
                              "result": "morale_check"}
    undone = send(api, game, "undo").json()
    assert undone["thresholds"] == {"figures": 38, "lost": 12, "morale_at": 13,
                                    "state": "steady"}
    assert undone["log"][:14] == now["log"]
    refused = send(api, game, "casualties", {"unit": 0, "change": -1})
    assert refused.status_code == 409 and "change" in refused.json()["message"]
    assert send(api, game, "casualties", {"unit": 9, "change": 1}).status_code == 404
    bad = send(api, game, "casualties", {"unit": 0, "change": 2})
    assert bad.status_code == 422 and "change" in bad.json()["message"]


def test_line_and_square_points_lost_against_its_break_points(api: TestClient) -> None:
    game = start(api, line_and_square_force())
    assert game["thresholds"]["morale_below"] == 15 and game["thresholds"]["flight_below"] == 7.5
    for _ in range(5):
        answer = send(api, game, "casualties", {"unit": 1, "change": 1})
    assert answer.json()["thresholds"]["state"] == "morale_test"
    # Unit 0 has the officer: his +1 is its own without the box ticked.
    order = send(api, game, "tests", {"unit": 0, "test": "order", "disorder": 1}).json()
    entry = order["log"][-1]
    assert (entry["table"], entry["modifier"], entry["formation"]) == ("order", 2, "close_order")
    assert entry["officer"] is True
    assert entry["result"] == ("pass" if sum(entry["dice"]) + 2 >= 6 or entry["dice"] == [6, 6]
                               else "fail") or entry["dice"] == [1, 1]


def test_peasants_test_on_table_17_and_a_knight_may_not(api: TestClient) -> None:
    game = start(api, chainmail_army())
    moved = send(api, game, "tests", {"unit": 2, "test": "defend", "enemy": "light_horse"})
    assert moved.status_code == 200, moved.text
    entry = moved.json()["log"][-1]
    assert (entry["table"], entry["target"], entry["unit"]) == ("17", 9, 2)
    assert entry["result"] == ("pass" if sum(entry["dice"]) >= 9 else "fail")
    refused = send(api, game, "tests", {"unit": 0, "test": "move"})
    assert refused.status_code == 409 and "unit" in refused.json()["message"]
    no_enemy = send(api, game, "tests", {"unit": 2, "test": "attack"})
    assert no_enemy.status_code == 422 and "enemy" in no_enemy.json()["message"]
    assert send(api, game, "tests", {"unit": 2, "test": "order"}).status_code == 409


def test_a_stale_version_a_missing_one_and_a_wrong_key_change_nothing(api: TestClient) -> None:
    game = start(api, chainmail_army())
    other = start(api, chainmail_army())
    assert send(api, game, "turns").status_code == 200
    stale = send(api, game, "turns", etag='"v1"')
    assert stale.status_code == 412 and stale.json()["version"] == 2
    assert stale.headers["etag"] == '"v2"'
    assert api.post(f"{GAMES}/{game['id']}/turns",
                    headers={"Authorization": f"Bearer {game['edit_key']}"}).status_code == 428
    assert send(api, game, "turns", key=other["edit_key"]).status_code == 403
    assert api.post(f"{GAMES}/{game['id']}/turns", headers={"If-Match": '"v2"'}).status_code == 401
    assert api.get(f"{GAMES}/{game['id']}").json()["turn"] == 1
    assert api.get(f"{GAMES}/nosuchgame").status_code == 404


def test_a_deleted_roster_leaves_its_games_readable_and_starts_no_more(api: TestClient) -> None:
    army = roster(api, chainmail_army())
    game = api.post(GAMES, json={"roster_id": army["id"]}).json()
    assert api.delete(f"/api/v1/rosters/{army['id']}",
                      headers={"Authorization": f"Bearer {army['edit_key']}"}).status_code == 204
    read = api.get(f"{GAMES}/{game['id']}")
    assert read.status_code == 200 and read.json()["name"] == "Войско графа"
    assert send(api, game, "turns").status_code == 200
    assert api.post(GAMES, json={"roster_id": army["id"]}).status_code == 410


def test_bad_starts_name_the_field(api: TestClient) -> None:
    army = roster(api, chainmail_army())
    missing = api.post(GAMES, json={"roster_id": army["id"], "version": 7})
    assert missing.status_code == 404 and "version" in missing.json()["message"]
    assert "weather" in api.post(GAMES, json={"roster_id": army["id"], "weather": "snow"}).json()[
        "message"]
    assert api.post(GAMES, json={"roster_id": "nosuchroster"}).status_code == 404
    fd = roster(api, {"name": "Фаланга", "ruleset": "formation_density"})
    refused = api.post(GAMES, json={"roster_id": fd["id"]})
    # A schema-valid start whose roster cannot be played: a refusal of state, not of the body.
    assert refused.status_code == 409 and "roster_id" in refused.json()["message"]
    assert api.get(f"/api/v1/rosters/{fd['id']}").status_code == 200
