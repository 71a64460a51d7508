"""The game companion's pages as a browser without JavaScript uses them (plain forms, post,
redirect, get), and as htmx asks for them (the game's block alone)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from tests.helpers.games import chainmail_army


def started(client: TestClient) -> tuple[str, str, str]:
    roster = client.post("/api/v1/rosters", json=chainmail_army()).json()
    share = client.get(f"/r/{roster['id']}")
    assert 'action="/g/new"' in share.text
    csrf = str(client.cookies["muster_csrf"])
    answer = client.post("/g/new", data={"csrf": csrf, "roster_id": roster["id"],
                                         "version": "1", "weather": "clear"},
                         follow_redirects=False)
    assert answer.status_code == 303, answer.text
    play = urlsplit(answer.headers["location"])
    return play.path.split("/")[2], parse_qs(play.query)["key"][0], csrf


def post(client: TestClient, game_id: str, key: str, csrf: str, **fields: Any) -> Any:
    return client.post(f"/g/{game_id}/play", data={"csrf": csrf, "key": key, **fields},
                       follow_redirects=False)


def test_a_game_started_from_the_share_view_plays_with_plain_forms(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    turned = post(client, game_id, key, csrf, version="1", action="turn")
    # The key stays out of the address: the answer keeps it in a cookie for the game's pages.
    assert turned.status_code == 303 and turned.headers["location"] == f"/g/{game_id}/play#game"
    assert f"game_key={key}" in turned.headers["set-cookie"]
    page = client.get(turned.headers["location"])
    assert '<strong class="turn-number">1</strong>' in page.text
    lost = post(client, game_id, key, csrf, version="2", action="casualty", unit="2", change="1")
    assert lost.status_code == 303
    view = client.get(f"/g/{game_id}")
    assert view.status_code == 200 and 'hx-trigger="every 3s"' in view.text
    assert "1 of 38 figures lost" in view.text and 'name="key"' not in view.text
    assert "/static/css/game.css" in view.text


def test_a_stale_page_is_told_and_shown_the_game_as_it_stands(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    assert post(client, game_id, key, csrf, version="1", action="turn").status_code == 303
    stale = post(client, game_id, key, csrf, version="1", action="turn")
    assert stale.status_code == 409 and "changed meanwhile" in stale.text
    assert '<strong class="turn-number">1</strong>' in stale.text


def test_htmx_gets_the_game_block_alone(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    swapped = client.post(f"/g/{game_id}/play", headers={"HX-Request": "true"},
                          data={"csrf": csrf, "key": key, "version": "1", "action": "test",
                                "unit": "2", "test": "move"})
    assert swapped.status_code == 200
    assert swapped.text.lstrip().startswith('<div id="game"') and "<html" not in swapped.text
    assert "Peasants move (7+)" in swapped.text
    polled = client.get(f"/g/{game_id}", headers={"HX-Request": "true"})
    assert polled.text.lstrip().startswith('<div id="game"')
    assert "Peasants move (7+)" in polled.text


def test_a_refused_change_names_what_is_wrong_on_the_page(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    refused = post(client, game_id, key, csrf, version="1", action="test", unit="0",
                   test="move")
    assert refused.status_code == 422 and "Only peasants test on Table 17." in refused.text
    missing = client.get("/g/nosuchgame")
    assert missing.status_code == 404


def test_the_game_speaks_russian(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    post(client, game_id, key, csrf, version="1", action="turn")
    page = client.get(f"/g/{game_id}?lang=ru")
    assert "Следующий ход" not in page.text  # the view has no buttons
    assert "Ход" in page.text and "Таблица 16" in page.text


def test_the_opponent_joins_by_the_join_link_and_plays_their_own_side(
        client: TestClient) -> None:
    answer = client.post("/g/new", data={
        "csrf": started(client)[2], "weather": "clear", "version": "1",
        "roster_id": client.post("/api/v1/rosters", json=chainmail_army()).json()["id"]},
        follow_redirects=False)
    first = urlsplit(answer.headers["location"])
    game_id, asked = first.path.split("/")[2], parse_qs(first.query)
    page = client.get(answer.headers["location"]).text
    join = f"/g/{game_id}/join?key={asked['join'][0]}"
    assert join in page and 'data-copy="#join-link"' in page and page.count("<svg") == 2
    assert 'data-copy="#watch-link"' in page
    turned = post(client, game_id, asked["key"][0], str(client.cookies["muster_csrf"]),
                  version="1", action="turn", join=asked["join"][0])
    assert join in client.get(turned.headers["location"]).text  # kept until the opponent joins
    opponent = client.post("/api/v1/rosters", json={**chainmail_army(), "name": "Орда"}).json()
    assert client.get(join).status_code == 200
    csrf = str(client.cookies["muster_csrf"])
    joined = client.post(f"/g/{game_id}/join", follow_redirects=False, data={
        "csrf": csrf, "key": asked["join"][0], "link": f"http://x/r/{opponent['id']}"})
    assert joined.status_code == 303, joined.text
    second = parse_qs(urlsplit(joined.headers["location"]).query)["key"][0]
    assert client.get(join).status_code == 403  # one army only
    mine = client.get(joined.headers["location"]).text
    assert mine.index('id="side-1"') < mine.index('id="side-0"')  # own side first
    assert "Орда" in mine and join not in mine
    lost = post(client, game_id, second, csrf, version="3", action="casualty", unit="0",
                change="1")
    assert lost.status_code == 303
    state = client.get(f"/api/v1/games/{game_id}").json()["sides"]
    assert [s["units"][0]["lost"] for s in state] == [0, 1]
    # The first side's page, made before the opponent's tap, is no conflict for its own tap;
    # a page of the first side made before its own last tap is.
    log = client.get(f"/api/v1/games/{game_id}").json()["log"]
    mine = str(max(e["seq"] for e in log if e.get("side") == 0 and "unit" in e))
    own = post(client, game_id, asked["key"][0], csrf, version="3", mine=mine,
               action="casualty", unit="1", change="1")
    assert own.status_code == 303
    stale = post(client, game_id, asked["key"][0], csrf, version="4", mine=mine,
                 action="casualty", unit="1", change="1")
    assert stale.status_code == 409 and "changed meanwhile" in stale.text
    assert client.get(f"/g/{game_id}?since=5").status_code == 204
    assert client.get(f"/g/{game_id}?since=4").status_code == 200


def test_a_morale_roll_answers_in_the_row_of_the_unit_that_rolled(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    swapped = client.post(f"/g/{game_id}/play", headers={"HX-Request": "true"}, data={
        "csrf": csrf, "key": key, "version": "1", "action": "test", "unit": "1",
        "test": "morale", "needed": "8"}).text
    row = swapped[swapped.index('id="unit-0-1"'):]
    row = row[:row.index("</li>")]
    rolled = client.get(f"/api/v1/games/{game_id}").json()["log"][-1]
    assert 'data-testid="unit-roll"' in row and f"total {rolled['total']} · needs 8" in row
    assert ("Falls back" in row) == (rolled["total"] < 8)
    assert 'hx-swap="outerHTML show:#unit-0-1:top"' in row
    assert client.get(f"/api/v1/games/{game_id}").json()["units"][1]["needed"] == 8
    again = client.get(f"/g/{game_id}/play?key={key}").text
    assert 'name="needed" min="2" max="20" inputmode="numeric" value="8"' in again


def test_the_end_of_game_summary_says_turns_losses_and_who_broke(client: TestClient) -> None:
    game_id, key, csrf = started(client)
    for version in range(1, 14):
        post(client, game_id, key, csrf, version=str(version), action="casualty", unit="2",
             change="1")
    post(client, game_id, key, csrf, version="14", action="turn")
    assert f'href="/g/{game_id}/summary"' in client.get(f"/g/{game_id}").text
    end = client.get(f"/g/{game_id}/summary")
    assert end.status_code == 200 and "Turns played: 1" in end.text
    assert "13 of 38 figures lost" in end.text and "A third of the army is lost" in end.text
    assert 'data-copy="#summary-link"' in end.text and "<svg" in end.text
    ru = client.get(f"/g/{game_id}/summary", headers={"Accept-Language": "ru"}).text
    assert "Turns played" not in ru
    assert client.get("/g/nosuchgame/summary").status_code == 404


def test_two_presses_of_next_turn_from_one_page_move_it_once_and_say_so(
        client: TestClient) -> None:
    game_id, key, csrf = started(client)
    assert post(client, game_id, key, csrf, version="1", action="turn", turn="0"
                ).status_code == 303
    again = post(client, game_id, key, csrf, version="1", action="turn", turn="0")
    assert again.status_code == 409 and "The turn has moved on already" in again.text
    assert client.get(f"/api/v1/games/{game_id}").json()["turn"] == 1
    ru = client.get(f"/g/{game_id}/join?key=x", headers={"Accept-Language": "ru"})
    assert ru.status_code == 403 and "ссылка для вступления" in ru.text


def test_the_opponent_joins_with_an_exported_file(client: TestClient) -> None:
    answer = client.post("/g/new", data={
        "csrf": started(client)[2], "weather": "off", "version": "1",
        "roster_id": client.post("/api/v1/rosters", json=chainmail_army()).json()["id"]},
        follow_redirects=False)
    first = urlsplit(answer.headers["location"])
    game_id, join = first.path.split("/")[2], parse_qs(first.query)["join"][0]
    horde = client.post("/api/v1/rosters", json={**chainmail_army(), "name": "Орда"}).json()
    exported = client.get(f"/api/v1/rosters/{horde['id']}/export.json").content
    fields = {"csrf": str(client.cookies["muster_csrf"]), "key": join}
    bad = client.post(f"/g/{game_id}/join", data=fields,
                      files={"file": ("army.json", b"{not json", "application/json")})
    assert bad.status_code == 422 and "The file was not imported" in bad.text
    joined = client.post(f"/g/{game_id}/join", data=fields, follow_redirects=False,
                         files={"file": ("army.json", exported, "application/json")})
    assert joined.status_code == 303, joined.text
    sides = client.get(f"/api/v1/games/{game_id}").json()["sides"]
    assert [s["name"] for s in sides] == ["Войско графа", "Орда"]
    assert "roster_id" not in sides[1] and horde["id"] not in str(sides)
    assert "Орда" in client.get("/").text  # a new roster of the file's, in My rosters


def test_a_form_posted_to_an_id_that_cannot_name_a_game_is_missing_unread(
        client: TestClient) -> None:
    client.get("/")
    csrf = str(client.cookies["muster_csrf"])
    for raw in ("%00", "x" * 65):
        for action in ("join", "play"):
            answer = client.post(f"/g/{raw}/{action}", data={"csrf": csrf, "key": "k"},
                                 files={"file": ("army.json", b"{}", "application/json")},
                                 follow_redirects=False)
            assert answer.status_code == 404, (raw, action, answer.status_code)
            assert "There is no game at this address." in answer.text


@pytest.mark.parametrize("field, value, said", [
    ("version", "x", "version: enter a whole number from 1 to"),
    ("version", "0", "version: enter a whole number from 1 to"),
    ("version", "²", "version: enter a whole number from 1 to"),
    ("weather", "snow", "Weather: not one of the choices")])
def test_a_game_asked_for_with_a_value_its_form_cannot_send_is_refused_naming_it(
        client: TestClient, field: str, value: str, said: str) -> None:
    roster = client.post("/api/v1/rosters", json=chainmail_army()).json()
    client.get(f"/r/{roster['id']}")
    data = {"csrf": str(client.cookies["muster_csrf"]), "roster_id": roster["id"],
            "version": "1", "weather": "clear", field: value}
    answer = client.post("/g/new", data=data, follow_redirects=False)
    assert answer.status_code == 422 and said in answer.text
    kept = {**data, "version": "", "weather": "rolled"}  # the latest version, weather rolled
    assert client.post("/g/new", data=kept, follow_redirects=False).status_code == 303
