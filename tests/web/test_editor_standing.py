"""The editor's troop and weapon choices say how each stands in the army, on the real editor
page of every nation of the catalogue and in both languages: a troop as its best line ("Medium
Horse — only with a lance"), a weapon as the chosen troop's line with it ("Javelins — not in
this army" for a Polish medium horseman), Table 18's words for the Far East as before."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.domain.base import Lang
from app.domain.translations import tr
from app.systems.chainmail.catalogue import NATIONS, TROOPS, WEAPONS
from app.systems.chainmail.far_east import AVAILABILITY
from app.systems.chainmail.nations import NATIONAL_RULES, NoneRule, ShareRule
from app.systems.chainmail.standing import Standing, standing, troop_standing
from tests.web.test_pages import edit

HEADERS: dict[Lang, dict[str, str]] = {"en": {"Accept-Language": "en"},
                                       "ru": {"Accept-Language": "ru"}}
OUT = {"en": "not in this army", "ru": "не в этой армии"}
TABLE_18: dict[Standing, str] = {
    "yes": "Table 18: yes", "some": "Table 18: some", "possible": "Table 18: possible",
    "no": "Table 18: no", "unlisted": "not in Table 18", "excluded": "not in this army",
    "discouraged": "not usual in this army"}


def army(nation: str, lines: list[tuple[str, str]]) -> dict[str, Any]:
    return {"name": "Смотр", "ruleset": "chainmail", "nation": nation, "points_limit": 1000,
            "units": [{"name": f"{troop} {weapon}", "flags": [], "lines": [
                {"troop": troop, "figures": 4, "weapon": weapon}]} for troop, weapon in lines],
            "engines": []}


def editor(client: TestClient, nation: str, lines: list[tuple[str, str]], lang: Lang) -> str:
    """The editor page of a roster made through the API, opened by its edit link."""
    made = client.post("/api/v1/rosters", json=army(nation, lines))
    assert made.status_code == 201, made.text
    page = client.get(made.json()["edit_url"], headers=HEADERS[lang])
    assert page.status_code == 200
    return page.text


def options(page: str, select_id: str) -> dict[str, str]:
    """The option texts of one <select>, by value."""
    found = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', page, re.S)
    assert found, select_id
    return {value: html.unescape(text) for value, text in
            re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', found.group(1))}


def with_standing(nation: str) -> bool:
    return nation in AVAILABILITY or any(isinstance(r, NoneRule)
                                         for r in NATIONAL_RULES.get(nation, ()))


def said(name: str, words: str) -> str:
    return f"{name} — {words}" if words else name


def troop_text(nation: str, troop: str, weapon: str, lang: Lang) -> str:
    name = TROOPS[troop].name(lang)
    if nation in AVAILABILITY:  # Table 18 judges the line with its weapon, and says "yes" too
        return said(name, tr(lang, TABLE_18[standing(nation, troop, weapon)]))
    return said(name, troop_standing(nation, troop, weapon).text(lang))


def weapon_text(nation: str, troop: str, weapon: str, lang: Lang) -> str:
    name = tr(lang, "no weapon") if weapon == "none" else WEAPONS[weapon].name(lang)
    stands = standing(nation, troop, weapon)
    far_east = nation in AVAILABILITY
    return said(name, tr(lang, TABLE_18[stands]) if stands != "yes" or far_east else "")


def required_troops(nation: str) -> set[str]:
    """The troops a share of the nation's rules asks for by name (its band starts above 0 and
    it counts that troop alone): "three quarters … medium horse with lances"."""
    found = set()
    for rule in NATIONAL_RULES.get(nation, ()):
        if isinstance(rule, ShareRule) and rule.band.lo > 0:
            counted = {t for t in TROOPS for w in WEAPONS for k in (False, True)
                       if rule.counted.matches((t, w, k))}
            if len(counted) == 1:
                found |= counted
    return found


# Each troop on a line of its own, once with no weapon and once with a weapon of its class.
LINES = [(troop, "none") for troop in TROOPS] + [
    (troop, "lance" if TROOPS[troop].troop_class == "horse" else "bow") for troop in TROOPS]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("nation", list(NATIONS))
def test_every_nations_choices_say_how_they_stand(client: TestClient, nation: str,
                                                  lang: Lang) -> None:
    page = editor(client, nation, LINES, lang)
    for i, (troop, weapon) in enumerate(LINES, start=1):  # units u1, u2 … of one line l1
        troops, weapons = options(page, f"u{i}-l1-troop"), options(page, f"u{i}-l1-weapon")
        assert set(troops) == set(TROOPS) and set(weapons) == set(WEAPONS)
        for value, text in troops.items():
            expected = troop_text(nation, value, weapon, lang) if with_standing(nation) \
                else TROOPS[value].name(lang)
            assert text == expected, (nation, troop, weapon, value)
        for value, text in weapons.items():  # judged with the line's own troop
            expected = weapon_text(nation, troop, value, lang) if with_standing(nation) \
                else (tr(lang, "no weapon") if value == "none" else WEAPONS[value].name(lang))
            assert text == expected, (nation, troop, weapon, value)
        for needed in required_troops(nation):
            assert OUT[lang] not in troops[needed], (nation, needed, troops[needed])
    for needed in required_troops(nation):  # the form that adds a unit, too
        assert OUT[lang] not in options(page, "add-troop")[needed]


def test_the_troops_the_rules_ask_for_are_found() -> None:
    # The walk above checks something: the Poles' lancers, the steppe's and Russia's horse.
    assert "medium_horse" in required_troops("poles") & required_troops("mongols")
    assert "medium_horse" in required_troops("russians")


@pytest.mark.parametrize(("lang", "lancers", "light", "lance", "javelins_out", "javelins"), [
    ("en", "Medium Horse — only with a lance", "Light Horse", "Lance",
     "Javelins — not in this army", "Javelins"),
    ("ru", "Средний всадник — только с копьями", "Лёгкий всадник", "Кавалерийское копьё",
     "Метательные дротики — не в этой армии", "Метательные дротики"),
])
def test_a_polish_player_is_told_medium_horse_fit_with_a_lance(
        client: TestClient, lang: Lang, lancers: str, light: str, lance: str,
        javelins_out: str, javelins: str) -> None:
    page = editor(client, "poles", [("medium_horse", "none"), ("light_horse", "none")], lang)
    for select in ("u1-l1-troop", "u2-l1-troop", "add-troop"):
        troops = options(page, select)
        assert troops["medium_horse"] == lancers and troops["light_horse"] == light
    medium, light_arms = options(page, "u1-l1-weapon"), options(page, "u2-l1-weapon")
    assert medium["lance"] == lance and medium["javelins"] == javelins_out
    assert medium["none"].endswith(OUT[lang])  # the line as it stands: no weapon, not Polish
    assert light_arms["javelins"] == javelins and light_arms["lance"] == lance


def test_a_changed_troop_redraws_its_weapons_standing(client: TestClient) -> None:
    made = client.post("/api/v1/rosters", json=army("poles", [("light_horse", "javelins")]))
    roster_id = made.json()["id"]
    assert client.get(made.json()["edit_url"]).status_code == 200
    before = options(client.get(f"/r/{roster_id}/edit").text, "u1-l1-weapon")
    assert before["javelins"] == "Javelins"
    answer = edit(client, roster_id, htmx=True, op="update_unit", unit="u1", line="l1",
                  unit_name="", figures_l1="4", troop_l1="medium_horse", weapon_l1="javelins")
    assert answer.status_code == 200  # type: ignore[attr-defined]
    after = options(answer.text, "u1-l1-weapon")  # type: ignore[attr-defined]
    assert after["javelins"] == "Javelins — not in this army" and after["lance"] == "Lance"
    assert options(answer.text, "u1-l1-troop")["medium_horse"] == \
        "Medium Horse — only with a lance"  # type: ignore[attr-defined]
