"""Formation Density through the JSON API: catalogue, price, storage round trips, the melee
calculator with inline and stored units, and refusals that name the field."""

from __future__ import annotations

import copy
from fractions import Fraction as F
from typing import Any

import pytest
from fastapi.testclient import TestClient

MELEE = "/api/v1/rulesets/formation_density/melee"


def line(kind: str, weapon: str, count: int, **flags: bool) -> dict[str, Any]:
    return {"class": kind, "weapon": weapon, "count": count, **flags}


LEGION = {"name": "Легион", "ruleset": "formation_density", "points_limit": 50,
          "note": "Рим", "units": [
              {"name": "Гастаты", "density": 3, "files": 20, "points": 12.5, "note": "",
               "lines": [line("melee_specialists", "heavy_throwing", 20, shield=True,
                              armour=True),
                         line("melee_specialists", "sword", 20, shield=True, armour=True)]},
              {"name": "Всадники", "density": 2, "files": 10, "points": 7,
               "lines": [line("shock_cavalry", "cavalry_lance", 10, mounted=True,
                              armour=True, cavalry_armour=True, moved_straight=True)]},
          ]}

SWORDSMAN = {"density": 1, "files": 1, "lines": [line("melee_specialists", "sword", 1)]}
CLUBMAN = {"density": 3, "files": 1, "lines": [line("melee_specialists", "improvised", 1)]}


def distribution(stat: dict[str, Any]) -> dict[int, F]:
    return {d["value"]: F(d["probability"]) for d in stat["distribution"]}


def store(client: TestClient, document: dict[str, Any] = LEGION) -> dict[str, Any]:
    response = client.post("/api/v1/rosters", json=document)
    assert response.status_code == 201, response.text
    return response.json()


# ---------------------------------------------------------------- catalogue and price

def test_the_rule_system_is_listed_and_its_catalogue_is_bilingual(client: TestClient) -> None:
    listed = {r["id"]: r for r in client.get("/api/v1/rulesets").json()}
    assert listed["formation_density"]["name_ru"] == "Плотность строя"
    catalogue = client.get("/api/v1/rulesets/formation_density").json()
    axe = next(w for w in catalogue["weapons"] if w["id"] == "axe")
    assert (axe["name_ru"], axe["name_en"]) == ("Топор", "Axe")
    assert set(axe["features"]) == {"armour_piercing", "two_handed", "fast"}
    assert all(item["name_ru"] and item["name_en"]
               for group in ("classes", "weapons", "features", "protections")
               for item in catalogue[group])


def test_pricing_adds_the_players_points_and_shows_each_units_figures(
        client: TestClient) -> None:
    body = client.post("/api/v1/price", json=LEGION).json()
    assert (body["total"], body["points_limit"], body["remaining"]) == (19.5, 50, 30.5)
    assert body["valid"] and body["warriors"] == 50
    legion = body["units"][0]
    assert (legion["ranks"], legion["full_ranks"], legion["front_rank"]) == (2, 2, 20)
    assert legion["shield_wall"]["chance"]["exact"] == "1/3"  # rolls 1 and 2 below 3
    assert legion["lines"][0]["hit_chance"]["exact"] == "1/2"  # above 3
    assert body["units"][1]["lines"][0]["hit_chance"] is None  # above the enemy's density
    assert "horse_strike" in body["units"][1]["features"]


BROKEN_UNITS: dict[str, dict[str, Any]] = {
    "unit.weapon_class": {"density": 3, "files": 5, "lines": [line("shooters", "pike", 5)]},
    "unit.two_handed_shield": {"density": 3, "files": 5,
                               "lines": [line("shock_troops", "halberd", 5, shield=True)]},
    "unit.lance_on_foot": {"density": 3, "files": 5,
                           "lines": [line("shock_cavalry", "cavalry_lance", 5)]},
    "unit.cavalry_armour_on_foot": {"density": 3, "files": 5, "lines": [
        line("melee_specialists", "sword", 5, cavalry_armour=True)]},
    "unit.density_useless": {"density": 6, "files": 5,
                             "lines": [line("melee_specialists", "sword", 5)]},
}


@pytest.mark.parametrize("code", [*BROKEN_UNITS, "roster.over_limit"])
def test_every_rule_code_is_reported_by_the_price_api(client: TestClient, code: str) -> None:
    document = copy.deepcopy(LEGION)
    if code == "roster.over_limit":
        document["points_limit"] = 19
    else:
        document["units"].append(BROKEN_UNITS[code])
    body = client.post("/api/v1/price?lang=ru", json=document).json()
    found = [i for i in body["issues"] if i["code"] == code]
    assert len(found) == 1
    severity = "warning" if code == "unit.density_useless" else "error"
    assert found[0]["severity"] == severity
    assert found[0]["unit"] == (None if code == "roster.over_limit" else 2)
    assert body["valid"] is (severity == "warning")


@pytest.mark.parametrize(("change", "field"), [
    ({"density": 0}, "units[0].density"),
    ({"files": 51}, "units[0].files"),
    ({"points": 3.3}, "units[0].points"),
    ({"lines": []}, "units[0].lines"),
    ({"lines": [line("shock_troops", "spear", 501)]}, "units[0].lines[0].count"),
    ({"lines": [line("shock_troops", "gladius", 5)]}, "units[0].lines[0].weapon"),
    ({"lines": [{**line("shock_troops", "spear", 5), "shield": 1}]},
     "units[0].lines[0].shield"),
    ({"nation": "romans"}, "units[0].nation"),
])
def test_bad_documents_are_refused_naming_the_field(client: TestClient, change: dict[str, Any],
                                                    field: str) -> None:
    document = copy.deepcopy(LEGION)
    document["units"][0].update(change)
    response = client.post("/api/v1/price", json=document)
    assert response.status_code == 422
    assert field in [d["field"] for d in response.json()["detail"]]
    assert field in response.json()["message"]


# ---------------------------------------------------------------- storage round trips

def test_a_roster_is_stored_read_copied_exported_and_imported_unchanged(
        api: TestClient) -> None:
    created = store(api)
    read = api.get(f"/api/v1/rosters/{created['id']}").json()
    # Stored as sent, every default written out, each unit and each of its lines given its id.
    assert read["document"] == LEGION | {"units": [
        {"id": f"u{n}", **u, "note": u.get("note", ""), "lines": [
            {"id": f"l{j}", "shield": False, "armour": False, "mounted": False,
             "cavalry_armour": False, "moved_straight": False, **ln}
            for j, ln in enumerate(u["lines"], start=1)]}
        for n, u in enumerate(LEGION["units"], start=1)]}
    assert read["result"]["total"] == 19.5
    copied = api.post(f"/api/v1/rosters/{created['id']}/copy").json()
    assert copied["document"] == read["document"] and copied["id"] != created["id"]
    exported = api.get(f"/api/v1/rosters/{created['id']}/export.json").json()
    assert exported["ruleset"] == "formation_density" and exported["ruleset_version"] == "1.0"
    imported = api.post("/api/v1/rosters/import", json=exported)
    assert imported.status_code == 201, imported.text
    assert imported.json()["document"] == read["document"]


def test_a_stored_roster_is_replaced_and_keeps_its_revisions(client: TestClient) -> None:
    created = store(client)
    changed = copy.deepcopy(LEGION)
    changed["units"][0]["density"] = 4
    answer = client.put(f"/api/v1/rosters/{created['id']}", json=changed, headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v1"'})
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["units"][0]["lines"][0]["hit_chance"]["exact"] == "1/3"
    revisions = client.get(f"/api/v1/rosters/{created['id']}/revisions").json()
    assert [r["version"] for r in revisions] == [1, 2]


def test_a_bad_import_stores_nothing_and_names_the_field(client: TestClient) -> None:
    document = copy.deepcopy(LEGION)
    document["units"][1]["lines"][0]["weapon"] = "trident"
    answer = client.post("/api/v1/rosters/import", json=document)
    assert answer.status_code == 422
    assert "units[1].lines[0].weapon" in answer.json()["message"]


# ---------------------------------------------------------------- the melee calculator

def test_the_melee_api_answers_exact_distributions_as_fractions_and_floats(
        client: TestClient) -> None:
    response = client.post(MELEE, json={"a": SWORDSMAN, "b": CLUBMAN})
    assert response.status_code == 200, response.text
    a = response.json()["a"]
    # The swordsman hits on 2–6; the clubman on 4–6, simultaneously.
    assert distribution(a["hits"]) == {0: F(1, 6), 1: F(5, 6)}
    assert distribution(a["lost"]) == {0: F(1, 2), 1: F(1, 2)}
    assert a["lost"]["distribution"][1] == {"value": 1, "probability": "1/2",
                                            "probability_float": 0.5}
    assert a["hits"]["expectation"] == "5/6"
    # Kept as parries, the sword hit stops the club unless the sword missed.
    assert distribution(a["parrying"]["lost"]) == {0: F(11, 12), 1: F(1, 12)}
    assert response.json()["b"]["parrying"] is None


def test_the_melee_api_reads_units_of_stored_rosters(client: TestClient) -> None:
    created = store(client)
    body = client.post(MELEE, json={"a": {"roster": created["id"], "unit": 1},
                                    "b": {"roster": created["id"], "unit": 0}}).json()
    assert body["a"]["source"] == {"roster": created["id"], "unit": 1}
    assert body["a"]["unit"]["name"] == "Всадники"
    assert body["b"]["strikes_first"] and not body["a"]["strikes_first"]
    for side in ("a", "b"):
        for key in ("hits", "blocked", "lost"):
            assert sum(F(d["probability"]) for d in body[side][key]["distribution"]) == 1


def test_a_stored_unit_and_an_inline_unit_can_meet(client: TestClient) -> None:
    created = store(client)
    # 10 lancers (density 2) at a clubman of density 3: lance and horse strike hit on 4–6,
    # 20 dice in all.
    body = client.post(MELEE, json={"a": {"roster": created["id"], "unit": 1},
                                    "b": CLUBMAN}).json()
    assert body["b"]["source"] is None and body["b"]["unit"]["warriors"] == 1
    assert F(body["a"]["hits"]["expectation"]) == 10
    assert distribution(body["b"]["lost"]) == {0: F(1, 2 ** 20), 1: 1 - F(1, 2 ** 20)}


@pytest.mark.parametrize(("body", "field"), [
    ({"a": SWORDSMAN}, "b"),
    ({"a": 5, "b": CLUBMAN}, "a"),
    ({"a": SWORDSMAN, "b": {**CLUBMAN, "density": 9}}, "b.density"),
    ({"a": SWORDSMAN, "b": {**CLUBMAN, "lines": [line("shooters", "sword", 501)]}},
     "b.lines[0].count"),
    ({"a": SWORDSMAN, "b": {**CLUBMAN, "files": 5000}}, "b.files"),
    ({"a": {"roster": "x y", "unit": 0}, "b": CLUBMAN}, "a.roster"),
    ({"a": {"roster": "abc", "unit": -1}, "b": CLUBMAN}, "a.unit"),
    ({"a": {"roster": "abc", "unit": 0, "extra": 1}, "b": CLUBMAN}, "a.extra"),
    ({"a": SWORDSMAN, "b": CLUBMAN, "c": CLUBMAN}, "c"),
])
def test_bad_melee_bodies_are_refused_naming_the_field(client: TestClient, body: dict[str, Any],
                                                       field: str) -> None:
    response = client.post(MELEE, json=body)
    assert response.status_code == 422, response.text
    assert field in [d["field"] for d in response.json()["detail"]]


def test_references_to_missing_foreign_or_short_rosters_are_refused(client: TestClient) -> None:
    created = store(client)
    chainmail = client.post("/api/v1/rosters", json={
        "name": "Орда", "ruleset": "chainmail", "nation": "mongols", "units": []}).json()
    # What is not there is 404, what cannot be used 422; either names the field.
    cases = [
        ({"roster": "nosuchroster", "unit": 0}, 404, "a.roster", "there is no roster"),
        ({"roster": chainmail["id"], "unit": 0}, 422, "a.roster", "Chainmail roster"),
        ({"roster": created["id"], "unit": 2}, 404, "a.unit", "has 2 units"),
    ]
    for side, status, field, words in cases:
        response = client.post(MELEE, json={"a": side, "b": CLUBMAN})
        assert response.status_code == status
        assert response.json()["detail"][0]["field"] == field
        assert words in response.json()["message"]


def test_a_deleted_roster_is_gone_to_the_melee_api_as_to_the_rest_of_the_api(
        client: TestClient) -> None:
    created = store(client)
    client.delete(f"/api/v1/rosters/{created['id']}",
                  headers={"Authorization": f"Bearer {created['edit_key']}"})
    side = {"roster": created["id"], "unit": 0}
    for lang, words in (("en", "can restore it until"), ("ru", "может восстановить её до")):
        read = client.get(f"/api/v1/rosters/{created['id']}?lang={lang}")
        for body in ({"a": side, "b": CLUBMAN}, {"a": CLUBMAN, "b": side}):
            gone = client.post(f"{MELEE}?lang={lang}", json=body)
            assert (read.status_code, gone.status_code) == (410, 410)
            # The same refusal, in the same shape: {"message": text, "detail": text}.
            assert gone.json() == read.json()
            assert gone.json() == {"message": gone.json()["message"],
                                   "detail": gone.json()["message"]}
            assert words in gone.json()["message"]


def test_the_melee_api_speaks_russian(client: TestClient) -> None:
    bad = {**CLUBMAN, "density": 6}
    body = client.post(f"{MELEE}?lang=ru", json={"a": SWORDSMAN, "b": bad}).json()
    assert body["b"]["issues"][0]["code"] == "unit.density_useless"
    assert "не попадают" in body["b"]["issues"][0]["message"]
    missing = client.post(f"{MELEE}?lang=ru", json={"a": {"roster": "nope", "unit": 0},
                                                    "b": CLUBMAN})
    assert missing.status_code == 404 and "армии nope нет" in missing.json()["message"]


def test_the_melee_api_is_documented_in_openapi(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"][MELEE]["post"]
    assert {"404", "410", "422"} <= set(operation["responses"])
    assert operation["responses"]["410"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Failure"}
    assert "MeleeResult" in str(operation["responses"]["200"])
