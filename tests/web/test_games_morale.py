"""The companion's morale roll, castle defenders and the game's words, as the API and the
pages give them: the commander's +1 to each die named in the log, the "within 12″ of the
commander" choice, castle defenders chosen at the start, the weather and Table 16 in Russian.

The army (tests/helpers/games.py): 0 the commander's knights, 1 Swiss mercenaries, 2 peasants.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.domain import game_rules as dice
from tests.helpers.games import chainmail_army
from tests.web.test_games_api import GAMES, send, start
from tests.web.test_games_pages import post, started
from tests.web.test_weather import RU, text_of


def faces(monkeypatch: pytest.MonkeyPatch, *shown: int) -> None:
    """The game's dice show these faces next, in order (the secure roller's source fixed)."""
    it = iter(shown)
    roll: Callable[[int], int] = lambda sides: next(it) - 1  # noqa: E731
    monkeypatch.setattr(dice.secrets, "randbelow", roll)


def test_the_api_adds_the_commanders_bonus_and_names_it(api: TestClient) -> None:
    game = start(api, chainmail_army(), weather="off")
    asked: list[tuple[dict[str, Any], int, list[dict[str, Any]]]] = [
        ({"unit": 0}, 2, [{"source": "commander", "value": 2}]),
        ({"unit": 2, "near_commander": True}, 2, [{"source": "near_commander", "value": 2}]),
        ({"unit": 2}, 0, []),
        ({"unit": 1, "near_commander": True}, 0, [{"source": "commander_mercenary",
                                                   "value": 0}]),
        ({"unit": 0, "commander_lost": True}, -2, [{"source": "commander_lost", "value": -2}]),
    ]
    for body, modifier, modifiers in asked:
        answer = send(api, game, "tests", {"test": "morale", **body})
        assert answer.status_code == 200, answer.text
        entry = answer.json()["log"][-1]
        assert (entry["modifier"], entry["modifiers"]) == (modifier, modifiers), body
        assert entry["total"] == sum(entry["dice"]) + modifier
    wrong = send(api, game, "tests", {"unit": 2, "test": "morale", "near_commander": "yes"})
    assert wrong.status_code == 422 and "near_commander" in wrong.json()["message"]


def test_castle_defenders_are_chosen_at_the_start_and_never_asked_the_check(
        api: TestClient) -> None:
    for defenders, state in ((True, "steady"), (False, "morale_check")):
        game = start(api, chainmail_army(), weather="off", castle_defenders=defenders)
        assert game["castle_defenders"] is defenders
        assert game["thresholds"]["morale_at"] == (None if defenders else 13)
        for _ in range(13):  # a third of 38 figures
            answer = send(api, game, "casualties", {"unit": 2, "change": 1})
        read = api.get(f"{GAMES}/{game['id']}").json()
        assert answer.json()["thresholds"]["state"] == read["thresholds"]["state"] == state
        assert read["castle_defenders"] is defenders
    assert "castle_defenders" in api.get("/openapi.json").json()["components"]["schemas"][
        "GameStart"]["properties"]


def _morale_form(page: str, unit: int) -> str:
    found = re.search(rf'name="unit" value="{unit}"><input type="hidden" name="test" '
                      rf'value="morale">(.*?)</form>', page, re.S)
    assert found, unit
    return found.group(1)


def test_the_page_offers_the_12_inch_choice_where_it_counts(client: TestClient) -> None:
    game_id, key, _ = started(client)
    for lang, headers in (("en", {}), ("ru", RU)):
        page = client.get(f"/g/{game_id}/play?key={key}", headers=headers).text
        commander, mercenary, peasants = (_morale_form(page, i) for i in range(3))
        assert 'name="near_commander"' in peasants
        assert 'name="near_commander"' not in commander + mercenary
        words = {"en": ("Within 12″ of the commander (+1 to each die)",
                        "The commander is with this unit: +1 to each die (+2 on 2d6).",
                        "Mercenaries gain nothing from the commander."),
                 "ru": ("В пределах 12″ от главнокомандующего (+1 к каждому кубику)",
                        "Главнокомандующий в этом отряде: +1 к каждому брошенному кубику "
                        "(2d6+2).",
                        "Наёмники не получают эффектов от влияния главнокомандующего.")}[lang]
        assert [w in text_of(f) for w, f in zip(words, (peasants, commander, mercenary),
                                                strict=True)] == [True, True, True]


@pytest.mark.parametrize(("unit", "near", "total", "en", "ru"), [
    ("0", False, 9, "Morale roll (modifier +2: commander +2)",
     "Бросок морали (модификатор +2: главнокомандующий +2)"),
    ("2", True, 9, "Morale roll (modifier +2: within 12″ of the commander +2)",
     "Бросок морали (модификатор +2: в пределах 12″ от главнокомандующего +2)"),
    ("2", False, 7, "Morale roll (modifier 0)", "Бросок морали (модификатор 0)"),
    ("1", True, 7, "Morale roll (modifier +0: mercenaries gain nothing from the commander)",
     "Бросок морали (модификатор +0: наёмники не получают эффектов от влияния "
     "главнокомандующего)"),
])
def test_the_pages_morale_roll_names_the_commanders_bonus(
        client: TestClient, monkeypatch: pytest.MonkeyPatch, unit: str, near: bool,
        total: int, en: str, ru: str) -> None:
    game_id, key, csrf = started(client)
    faces(monkeypatch, 3, 4)
    fields = {"near_commander": "1"} if near else {}
    rolled = post(client, game_id, key, csrf, version="1", action="test", unit=unit,
                  test="morale", **fields)
    assert rolled.status_code == 303, rolled.text
    assert f"{en} 3 4 total {total}" in text_of(client.get(f"/g/{game_id}").text)
    assert f"{ru} 3 4 итого {total}" in text_of(client.get(f"/g/{game_id}", headers=RU).text)


def test_the_start_form_marks_castle_defenders(client: TestClient) -> None:
    roster = client.post("/api/v1/rosters", json=chainmail_army()).json()
    share = client.get(f"/r/{roster['id']}", headers=RU).text
    assert 'name="castle_defenders"' in share
    assert "Защитники замка (без проверки морали из-за потерь)" in text_of(share)
    csrf = str(client.cookies["muster_csrf"])
    for box, shown in (({"castle_defenders": "1"}, "Castle defenders: no morale check"),
                       ({}, "Morale check once 13 figures are lost")):
        answer = client.post("/g/new", data={"csrf": csrf, "roster_id": roster["id"],
                                             "version": "1", "weather": "off", **box},
                             follow_redirects=False)
        assert answer.status_code == 303
        page = text_of(client.get(answer.headers["location"]).text)
        assert shown in page and "man-to-man combat, Morale" in page
        assert ("Morale check once" in page) is not bool(box)


def test_the_weather_and_table_16_speak_the_pages_language_whichever_came_first(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, key, csrf = started(client)  # clear weather; unit 1 is mercenaries
    faces(monkeypatch, 6, 3)  # Table 16 before turn 1: a 6, then 3, bribed
    assert post(client, game_id, key, csrf, version="1", action="turn").status_code == 303
    for _ in range(2):  # each language after the other: neither keeps the other's words
        english = text_of(client.get(f"/g/{game_id}").text)
        assert "Weather: Clear" in english
        assert ("Bribed: once within one march of the enemy line they turn and may attack "
                "you.") in english
        russian = text_of(client.get(f"/g/{game_id}", headers=RU).text)
        assert "Погода: Ясно" in russian and "Clear" not in russian
        assert ("Подкуп на расстоянии одного Марша (Как только они достигнут вражеской линии, "
                "они повернутся и могут атаковать Вас)") in russian
        assert "в одном Марше" not in russian
        played = text_of(client.get(f"/g/{game_id}/play?key={key}", headers=RU).text)
        assert "Тяжёлая Пехота" in played  # Table 17 enemies
        assert "Heavy foot" not in played


def test_the_about_page_says_where_the_third_comes_from_and_the_commanders_reading(
        client: TestClient) -> None:
    english = client.get("/about").text
    russian = client.get("/about", headers=RU).text
    for page, words in ((english, ("The rule is the man-to-man section's",
                                   "a game can mark its army as castle defenders",
                                   "for a unit the player marks as within 12″ of him",
                                   "Mercenaries gain nothing from him")),
                        (russian, ("Это правило раздела «Бой „Один на один“»",
                                   "отметить армию как защитников замка",
                                   "в пределах 12″ от него",
                                   "Наёмники не получают от него ничего"))):
        third = re.search(r'id="about-morale-third">(.*?)</li>', page, re.S)
        commander = re.search(r'id="about-commander">(.*?)</li>', page, re.S)
        assert third and commander
        assert "Вообще, защитникам замка не нужно проверять мораль" in text_of(third.group(1))
        said = text_of(third.group(1)) + text_of(commander.group(1))
        assert [w in said for w in words] == [True] * len(words)
