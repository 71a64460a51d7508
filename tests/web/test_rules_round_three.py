"""Rules round three (issue #54) through the API and on the pages, in both languages: the
commander's +1 on Table 17, Line and Square's break points at the exact share, the officer's
own unit, a majority that is more than half, the sheet's one-third line and its source, and
the seed's other rolls in the game companion.

The Chainmail army (tests/helpers/games.py): 0 the commander's knights, 1 Swiss mercenaries,
2 peasants."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from tests.helpers.games import chainmail_army, line_and_square_force
from tests.web.test_games_api import GAMES, send, start
from tests.web.test_games_morale import faces
from tests.web.test_games_pages import post, started
from tests.web.test_weather import RU, text_of


def commanded_peasants() -> dict[str, Any]:
    army = chainmail_army()
    army["units"][0]["flags"] = ["knights"]
    army["units"][2]["flags"] = ["commander"]
    return army


def test_peasants_with_the_commander_move_on_2d6_plus_2_through_the_api(
        api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(api, commanded_peasants(), weather="off")
    faces(monkeypatch, 2, 3, 1, 3)
    keeps = send(api, game, "tests", {"unit": 2, "test": "move"}).json()["log"][-1]
    breaks = send(api, game, "tests", {"unit": 2, "test": "move"}).json()["log"][-1]
    assert (keeps["result"], keeps["modifier"], keeps["chance"]) == (
        "pass", 2, {"numerator": 5, "denominator": 6})  # 5 + 2 = 7
    assert (breaks["result"], breaks["outcome"]) == ("fail", "halted")  # 4 + 2 = 6


def test_near_commander_on_a_peasant_test_is_taken_not_refused(
        api: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(api, chainmail_army(), weather="off")
    faces(monkeypatch, 3, 3)
    answer = send(api, game, "tests", {"unit": 2, "test": "attack", "enemy": "heavy_foot",
                                       "near_commander": True})
    assert answer.status_code == 200, answer.text
    entry = answer.json()["log"][-1]
    assert entry["modifiers"] == [{"source": "near_commander", "value": 2}]
    assert entry["result"] == "pass"  # 6 + 2 = 8
    assert entry["chance"] == {"numerator": 13, "denominator": 18}
    bad = send(api, game, "tests", {"unit": 2, "test": "move", "near_commander": "yes"})
    assert bad.status_code == 422 and "near_commander" in bad.json()["message"]


@pytest.mark.parametrize(("headers", "own", "near"), [
    ({}, "2d6+2 ≥ 7 · 83%", "Within 12″ of the commander (2d6+2): move 83%."),
    (RU, "2d6+2 ≥ 7 · 83%", "В пределах 12″ от главнокомандующего (2d6+2): движение 83%."),
])
def test_the_game_page_prints_the_odds_of_the_roll_it_makes(
        client: TestClient, headers: dict[str, str], own: str, near: str) -> None:
    game_id, key, _ = started(client)
    plain = text_of(client.get(f"/g/{game_id}/play?key={key}", headers=headers).text)
    assert "7+ · 58%" in plain and near in plain  # peasants without the commander
    roster = client.post("/api/v1/rosters", json=commanded_peasants()).json()
    csrf = str(client.cookies["muster_csrf"])
    answer = client.post("/g/new", data={"csrf": csrf, "roster_id": roster["id"],
                                         "version": "1", "weather": "off"},
                         follow_redirects=False)
    page = text_of(client.get(answer.headers["location"], headers=headers).text)
    assert own in page and "7+ · 58%" not in page


@pytest.mark.parametrize(("headers", "logged"), [
    ({}, "Peasants move (7+) · modifier +2: within 12″ of the commander +2 · chance 5/6"),
    (RU, "модификатор +2: в пределах 12″ от главнокомандующего +2 · шанс 5/6"),
])
def test_the_log_names_the_commanders_bonus_on_table_17(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, headers: dict[str, str],
        logged: str) -> None:
    game_id, key, csrf = started(client)
    faces(monkeypatch, 2, 3)
    rolled = post(client, game_id, key, csrf, version="1", action="test", unit="2",
                  test="move", near_commander="1")
    assert rolled.status_code == 303, rolled.text
    assert logged in text_of(client.get(f"/g/{game_id}", headers=headers).text)


def test_line_and_square_at_exactly_a_quarter_left_does_not_flee(api: TestClient) -> None:
    force = line_and_square_force()  # 10 + 20 points; make it 10: 12 figures, 5/6 a point
    force["units"] = force["units"][:1]
    force["units"][0]["figures"] = 4  # 2.5 points a figure
    game = start(api, force)
    assert game["thresholds"]["flight_below"] == 2.5
    for _ in range(3):
        answer = send(api, game, "casualties", {"unit": 0, "change": 1})
    assert answer.json()["thresholds"]["strength"] == 2.5
    assert answer.json()["thresholds"]["state"] == "morale_test"  # not below 2.5: no flight
    answer = send(api, game, "casualties", {"unit": 0, "change": 1})
    assert answer.json()["thresholds"]["state"] == "flight"


@pytest.mark.parametrize(("headers", "words"), [
    ({}, "Morale test once strength is below 15.5 pts"),
    (RU, "ниже 15,5"),
])
def test_a_31_point_force_tests_below_15_5_on_the_editor_and_the_sheet(
        client: TestClient, headers: dict[str, str], words: str) -> None:
    force = line_and_square_force()
    force["units"][1]["points"] = 21
    roster = client.post("/api/v1/rosters", json=force).json()
    points = roster["result"]["break_points"]
    assert (points["morale_below"], points["flight_below"]) == (15.5, 7.75)
    assert words in text_of(client.get(f"/r/{roster['id']}", headers=headers).text)
    sheet = text_of(client.get(f"/r/{roster['id']}/print", headers=headers).text)
    assert ("below 15.5 points (more than 15.5 lost)" if not headers else
            "ниже 15,5 очков (потеряно больше 15,5)") in sheet


@pytest.mark.parametrize(("headers", "own"), [({}, "The officer is with this unit: +1 always."),
                                              (RU, "Офицер в этом подразделении: +1 всегда.")])
def test_the_officers_own_unit_tests_with_him_on_the_game_page_and_through_the_api(
        client: TestClient, monkeypatch: pytest.MonkeyPatch,
        headers: dict[str, str], own: str) -> None:
    game = start(client, line_and_square_force())
    faces(monkeypatch, 1, 2)  # 3 + discipline 1 + close order 1 + officer 1 = 6: passes
    entry = send(client, game, "tests", {"unit": 0, "test": "order"}).json()["log"][-1]
    assert (entry["officer"], entry["modifier"], entry["result"]) == (True, 3, "pass")
    page = text_of(client.get(game["edit_url"], headers=headers).text)
    assert own in page


@pytest.mark.parametrize(("lang", "band"), [("en", "more than 50 % (a majority)"),
                                            ("ru", "более 50 % (большинство)")])
def test_half_the_russian_heavy_foot_with_polearms_is_not_a_majority(
        client: TestClient, lang: str, band: str) -> None:
    def russians(polearms: int) -> dict[str, Any]:
        return {"name": "Рать", "ruleset": "chainmail", "nation": "russians", "units": [
            {"name": "Пешцы", "lines": [
                {"troop": "heavy_foot", "figures": polearms, "weapon": "polearm"},
                {"troop": "heavy_foot", "figures": 50 - polearms}]}]}
    for polearms, broken in ((25, True), (26, False)):
        result = client.post(f"/api/v1/price?lang={lang}", json=russians(polearms)).json()
        found = [i for i in result["issues"] if i["code"] == "russians.polearms"]
        assert bool(found) is broken
        if found:
            assert found[0]["severity"] == "warning" and band in found[0]["message"]


@pytest.mark.parametrize(("headers", "label", "source"), [
    ({}, "Morale test for losses (man-to-man combat)",
     "(man-to-man combat, “Morale”: “if 33.3% of the whole army is destroyed”; castle "
     "defenders need not test)"),
    (RU, "Проверка морали из-за потерь (бой «Один на один»)",
     "(бой «Один на один», «Мораль»: «если уничтожено 33,3% всей армии»; защитникам замка "
     "проверять мораль не нужно)"),
])
def test_the_sheets_one_third_line_names_its_source_and_the_castle_defenders(
        client: TestClient, headers: dict[str, str], label: str, source: str) -> None:
    roster = client.post("/api/v1/rosters", json=chainmail_army()).json()
    sheet = text_of(client.get(f"/r/{roster['id']}/print", headers=headers).text)
    assert label in sheet and source in sheet


def test_the_about_page_gives_the_readings_of_round_three_in_both_languages(
        client: TestClient) -> None:
    english = text_of(client.get("/about").text)
    russian = text_of(client.get("/about", headers=RU).text)
    for words in ("Exactly half is not a majority", "2.5 of 10 tests but does not flee",
                  "The officer's own unit always has the order test's +1",
                  "his own peasants move on 5 or more, 5/6",
                  "Table 19: Melee Morale Rating, CKJ (China, Korea, Japan)",
                  "“militia are to be treated as heavy foot”"):
        assert words in english, words
    for words in ("Ровно половина — не большинство", "2,5 из 10 — проверка, но не бегство",
                  "Собственное подразделение офицера всегда получает +1",
                  "его собственные крестьяне двигаются на 5 и больше, 5/6",
                  "Таблица 19: Рукопашный моральный рейтинг ККЯ"):
        assert words in russian, words
    assert "militia are to be treated" not in russian


def test_the_man_to_man_rules_take_the_first_blow_from_a_flanked_defender_of_4c_and_4d(
        api: TestClient) -> None:
    from app.systems.chainmail.man_to_man import Fight, fight_json

    for attacked_from in ("left_flank", "rear"):
        fight = Fight.model_validate({"attacker": {"weapon_class": 10},
                                      "defender": {"weapon_class": 5},
                                      "attacked_from": attacked_from})
        parry = fight_json(fight)["sides"]["defender"]["parry"]  # type: ignore[index]
        assert (parry["rule"], parry["first_blow_lost"]) == ("4c", attacked_from)
    front = Fight.model_validate({"attacker": {"weapon_class": 10},
                                  "defender": {"weapon_class": 1}})
    assert fight_json(front)["sides"]["defender"]["parry"]["first_blow_lost"] is None  # type: ignore[index]


@pytest.mark.parametrize(("headers", "knights", "stakes"), [
    ({}, "Discipline die (holds on 6)", "Stakes: a die for each of 2 in the first rank"),
    (RU, "Кубик дисциплины (6 — сдерживаются)", "Колья: кубик за каждую из 2 фигур"),
])
def test_the_pages_discipline_die_stakes_and_melee_rolls(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, headers: dict[str, str],
        knights: str, stakes: str) -> None:
    army = chainmail_army()
    army["units"][0]["flags"] = ["commander", "knights"]
    army["units"].append({"name": "Лучники", "flags": ["stakes"],
                          "lines": [{"troop": "light_foot", "figures": 10,
                                     "weapon": "longbow"}]})
    roster = client.post("/api/v1/rosters", json=army).json()
    client.get(f"/r/{roster['id']}")  # the share view gives the form's CSRF cookie
    csrf = str(client.cookies["muster_csrf"])
    answer = client.post("/g/new", data={"csrf": csrf, "roster_id": roster["id"],
                                         "version": "1", "weather": "off"},
                         follow_redirects=False)
    play = urlsplit(answer.headers["location"])
    game_id, key = play.path.split("/")[2], parse_qs(play.query)["key"][0]
    faces(monkeypatch, 4, 3, 5)
    for version, fields in (("1", {"unit": "0", "test": "discipline"}),
                            ("2", {"unit": "3", "test": "stakes", "front_rank": "2"}),
                            ("3", {"unit": "1", "test": "melee", "in_melee": "1"})):
        sent = post(client, game_id, key, csrf, version=version, action="test", **fields)
        assert sent.status_code == 303, sent.text
    page = text_of(client.get(f"/g/{game_id}", headers=headers).text)
    # 4 + 1 (the commander is with the knights) = 5: no 6, they charge.
    assert knights in page and stakes in page
    assert re.search(r"chance 1/3|шанс 1/3", page)  # the discipline die with +1: 2 of 6
    assert re.search(r"chance 1/2|шанс 1/2", page)  # one of two stakes' dice: 2/4
    turned = post(client, game_id, key, csrf, version="4", action="turn")
    assert turned.status_code == 303
    log = client.get(f"{GAMES}/{game_id}").json()["log"]
    assert [(e["table"], e["dice"], e["result"]) for e in log if e.get("table") == "16"] == [
        ("16", [], "in_melee")]
