"""The man-to-man calculator's API and page, in both languages, with and without htmx."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import HX, RU, text_of

API = "/api/v1/rulesets/chainmail/man-to-man"


def test_the_api(client: TestClient) -> None:
    answer = client.post(API, json={"attacker": {"weapon_class": 10, "mounted": True},
                                    "defender": {"weapon_class": 1, "foot_weight": "heavy"}})
    body = answer.json()
    assert body["first"]["1"] == {"side": "defender", "rule": "4d"}
    assert body["sides"]["defender"]["blows"] == 3
    assert body["sides"]["attacker"]["horse_blow"] == {"blows": 2, "as": "flail"}
    assert body["dismount"]["3"] == {"numerator": 1, "denominator": 6}


@pytest.mark.parametrize(("body", "field"), [
    ({"attacker": {"weapon_class": 0}, "defender": {"weapon_class": 1}}, "attacker.weapon_class"),
    ({"attacker": {"weapon_class": 2}, "defender": {"weapon_class": 1, "foot_weight": "x"}},
     "defender.foot_weight"),
    ({"attacker": {"weapon_class": 2}, "defender": {"weapon_class": 1},
      "attacked_from": "above"}, "attacked_from"),
    ({"attacker": {"weapon_class": 2}}, "defender"),
])
def test_the_api_refuses_bad_input_by_name(client: TestClient, body: dict[str, object],
                                           field: str) -> None:
    response = client.post(API, json=body)
    assert response.status_code == 422
    assert field in response.json()["message"], response.json()["message"]


def test_the_page_is_a_plain_get_form(client: TestClient) -> None:
    page = client.get("/calc/man-to-man", params={"a_class": "5", "d_class": "9",
                                                  "from": "rear"}).text
    assert '<form method="get" action="/calc/man-to-man"' in page
    words = text_of(page)
    assert "Round 1: first blow: Attacker — attacked from the rear" in words
    assert "Strikes in round 1 yes no" in words
    mounted = text_of(client.get("/calc/man-to-man", params={
        "a_class": "4", "a_mounted": "on", "d_class": "4", "d_weight": "light"}).text)
    assert "as 1 mace(s)" in mounted and "Table 23: Dismounting" in mounted


def test_htmx_gets_only_the_result(client: TestClient) -> None:
    response = client.get("/calc/man-to-man", params={"a_class": "3"}, headers=HX)
    assert "<html" not in response.text and "<form" not in response.text
    assert response.text.lstrip().startswith('<section id="m2m-result"')


@pytest.mark.parametrize(("params", "field"), [
    ({"a_class": "0"}, "Attacker: weapon class"), ({"d_class": "x"}, "Defender: weapon class"),
    ({"from": "above"}, "Attacked from"), ({"d_weight": "huge"}, "Defender: foot"),
])
def test_the_page_refuses_a_bad_field_by_name(client: TestClient, params: dict[str, str],
                                              field: str) -> None:
    response = client.get("/calc/man-to-man", params=params)
    assert response.status_code == 422
    error = re.search(r'<p class="error" role="alert">(.*?)</p>', response.text, re.S)
    assert error and unescape(error.group(1)).startswith(f"{field}:")


def test_the_page_speaks_russian(client: TestClient) -> None:
    words = text_of(client.get("/calc/man-to-man", params={"a_mounted": "on"},
                               headers=RU).text)
    for term in ("Бой «Один на один»", "Таблица 23: Спешивание", "Оглушён на 1 Ход",
                 "Атакующий", "Защитник", "Берсерк"):
        assert term in words, term
    about = client.get("/about").text
    assert 'href="/calc/man-to-man"' in about and 'id="about-man-to-man"' in about


def _cell(page: str, side: str) -> str:
    found = re.search(rf'data-side="{side}-parry">(.*?)</td>', page, re.S)
    assert found, side
    return unescape(found.group(1)).strip()


def _first(page: str) -> str:
    found = re.search(r'<p id="m2m-first-1">(.*?)</p>', page, re.S)
    assert found
    return text_of(found.group(1))


NO_PARRY = "No parry: his weapon is two or more classes higher (4 a)."
NO_RULE = "No parry rule applies."
RULE_4B = "May parry, taking 2 from the attacker's roll, but then cannot strike back (4 b)."
RULE_4C = ("May strike first OR parry, taking 2 from the attacker's roll; if the attacker's "
           "unmodified roll would have killed, his weapon breaks; after a successful parry he "
           "may strike back once (4 c).")
RULE_4C_CHARGE = ("In round 1 the charging pike, spear or lance strikes first: he may only "
                  "parry, taking 2 from the attacker's roll (if the attacker's unmodified roll "
                  "would have killed, his weapon breaks; after a successful parry he may strike "
                  "back once), or strike second (4 c and the note to 4 d).")
RULE_4D = ("Strikes first, and may parry second (taking 1 from the attacker's roll; a roll "
           "equal to the kill number breaks his weapon) or strike second (4 d).")
RULE_4D_CHARGE = ("In round 1 the charging pike, spear or lance strikes first: he may only "
                  "parry (taking 1 from the attacker's roll; a roll equal to the kill number "
                  "breaks his weapon) or strike second (4 d and its note).")
FIRST_1A = "Round 1: first blow: Attacker — the attacker strikes first (1 a)"
FIRST_1B = ("Round 1: first blow: Defender — the defender's weapon is two or more classes "
            "higher (1 b)")
FIRST_4D = ("Round 1: first blow: Defender — the defender's weapon is eight or more classes "
            "lower (4 d)")
FIRST_CHARGE = ("Round 1: first blow: Attacker — the attacker charges with a pike, spear or "
                "lance at a lower class (the note to 4 d)")


@pytest.mark.parametrize(("a", "d", "plain", "charged"), [
    # (classes, [first, defender, attacker] without the charge, and with it)
    (3, 5, (FIRST_1B, NO_PARRY, NO_RULE), (FIRST_1B, NO_PARRY, NO_RULE)),  # 4 a: lower
    (5, 5, (FIRST_1A, NO_RULE, NO_RULE), (FIRST_1A, NO_RULE, NO_RULE)),  # even: no charge
    (5, 4, (FIRST_1A, NO_RULE, NO_RULE), (FIRST_CHARGE, NO_RULE, NO_RULE)),
    (6, 3, (FIRST_1A, RULE_4B, NO_PARRY), (FIRST_CHARGE, RULE_4B, NO_PARRY)),  # 4 b
    (9, 4, (FIRST_1A, RULE_4C, NO_PARRY), (FIRST_CHARGE, RULE_4C_CHARGE, NO_PARRY)),  # 4 c
    (11, 4, (FIRST_1A, RULE_4C, NO_PARRY), (FIRST_CHARGE, RULE_4C_CHARGE, NO_PARRY)),
    (12, 4, (FIRST_4D, RULE_4D, NO_PARRY), (FIRST_CHARGE, RULE_4D_CHARGE, NO_PARRY)),  # 4 d
])
@pytest.mark.parametrize("flags", [{}, {"a_charge": "on"}, {"a_long": "on"},
                                   {"a_charge": "on", "a_long": "on"}])
def test_each_case_of_4_a_to_d_reads_right_on_both_sides(
        client: TestClient, a: int, d: int, plain: tuple[str, str, str],
        charged: tuple[str, str, str], flags: dict[str, str]) -> None:
    page = client.get("/calc/man-to-man", params={"a_class": str(a), "d_class": str(d),
                                                  **flags}).text
    first, defender, attacker = charged if len(flags) == 2 else plain
    assert (_first(page), _cell(page, "defender"), _cell(page, "attacker")) == (
        first, defender, attacker)
    for box in ("a_charge", "a_long"):
        assert (f'name="{box}" checked' in page) == (box in flags)


def test_the_charge_over_the_api_and_in_russian(client: TestClient) -> None:
    body = {"attacker": {"weapon_class": 9, "charging": True, "long_weapon": True},
            "defender": {"weapon_class": 4}}
    answer = client.post(API, json=body).json()
    assert answer["first"]["1"] == {"side": "attacker", "rule": "charge"}
    assert answer["sides"]["defender"]["parry"] == {
        "rule": "4c", "allowed": True, "minus": 2, "counter": "once", "charge": True,
        "first_blow_lost": "charge"}
    older = client.post(API, json={"attacker": {"weapon_class": 9, "long_weapon_charge": True},
                                   "defender": {"weapon_class": 4}}).json()
    assert older == answer
    sword = client.post(API, json={"attacker": {"weapon_class": 9, "charging": True},
                                   "defender": {"weapon_class": 4}}).json()
    assert sword["first"]["1"]["rule"] == "1a"
    assert sword["sides"]["defender"]["parry"]["charge"] is False
    page = client.get("/calc/man-to-man", params={"a_class": "9", "d_class": "4",
                                                  "a_charge": "on", "a_long": "on"},
                      headers=RU).text
    defender = _cell(page, "defender")
    assert "ИЛИ" not in defender and "только парировать" in defender, defender
    assert "второй удар" in defender and "примечание к 4 d" in defender
