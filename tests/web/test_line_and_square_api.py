"""Line and Square through the JSON API: catalogue, price, refusals, storage and the calculator."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.unit.test_line_and_square_orders import enumerated

ROSTERS = "/api/v1/rosters"


def unit(**fields: Any) -> dict[str, Any]:
    return {"class": "line_infantry", "figures": 12, "speed": 6, "points": 5, **fields}


def army(*units: dict[str, Any], **fields: Any) -> dict[str, Any]:
    chosen = list(units) or [unit(name="1-й батальон", officer=True, formation="square",
                                  accuracy=4, discipline=1),
                             unit(**{"class": "light_cavalry"}, name="Гусары", speed=12,
                                  points=7.5)]
    return {"name": "Старая гвардия", "ruleset": "line_and_square", "units": chosen, **fields}


def price(client: TestClient, document: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    response = client.post(f"/api/v1/price?lang={lang}", json=document)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_rule_system_is_listed_with_its_names(client: TestClient) -> None:
    listed = {s["id"]: s for s in client.get("/api/v1/rulesets").json()}
    assert listed["line_and_square"]["name_ru"] == "Линия и каре"
    assert listed["line_and_square"]["name_en"] == "Line and Square"
    assert "chainmail" in listed


def test_the_catalogue_gives_classes_with_permissions_formations_and_actions(
        client: TestClient) -> None:
    catalogue = client.get("/api/v1/rulesets/line_and_square").json()
    classes = {c["id"]: c for c in catalogue["classes"]}
    assert len(classes) == 9
    assert classes["line_infantry"]["name_ru"] == "Линейная пехота"
    assert classes["shock_cavalry"]["name_ru"] == "Ударная (тяжёлая) кавалерия"
    assert classes["irregular_cavalry"]["shoot"] == "never"
    assert classes["light_cavalry"]["shoot"] == "never"
    assert classes["artillery"]["shoot"] == "if_accuracy"
    assert classes["artillery"]["attack"] is False
    assert [c for c, v in classes.items() if v["square"]] == [
        "line_infantry", "shock_infantry", "grenadiers"]
    assert [c for c, v in classes.items() if v["volley"]] == [
        "line_infantry", "light_infantry", "shock_infantry"]
    assert [c for c, v in classes.items() if v["skirmish"]] == [
        "light_infantry", "skirmishers", "irregular_cavalry", "light_cavalry"]
    assert [c for c, v in classes.items() if v["march_column"]] == [
        "line_infantry", "grenadiers", "light_cavalry", "shock_cavalry"]
    for item in catalogue["classes"] + catalogue["formations"] + catalogue["actions"]:
        assert item["name_ru"] and item["name_en"]
    assert {f["id"]: f["name_ru"] for f in catalogue["formations"]} == {
        "loose": "Свободное построение", "close_order": "Сомкнутый строй", "square": "Каре",
        "march_column": "Походная колонна"}
    assert [a["id"] for a in catalogue["actions"]] == [
        "move", "attack", "shoot", "skirmish", "close_order", "square", "march_column",
        "volley", "rally"]
    assert catalogue["limits"]["default_points_limit"] == 30
    assert catalogue["limits"]["discipline"] == {"min": -3, "max": 5}


def test_a_legal_force_is_priced_with_its_derived_figures(client: TestClient) -> None:
    result = price(client, army())
    assert result["total"] == 12.5
    assert (result["points_limit"], result["points_limit_source"]) == (30, "default")
    assert result["remaining"] == 17.5 and result["valid"] is True and result["issues"] == []
    assert result["figures"] == 24 and result["officers"] == 1
    assert (result["break_points"]["half"], result["break_points"]["three_quarters"]) == (7, 10)
    first = result["units"][0]
    assert first["class"] == "line_infantry" and first["may_form_square"] is True
    assert first["actions"] == ["shoot", "close_order", "march_column", "rally"]
    # Discipline 1 in square (+1) and its own officer (+1, always in reach), no markers:
    # needs 3, all but 1-1 — 35 of 36; no "without an officer" situation for it.
    assert first["officer"] is True
    assert [c["officer_in_reach"] for c in first["order_test"]] == [True] * 3
    assert first["order_test"][0]["passing_throws"] == 35
    assert result["square_rules"]


BROKEN: dict[str, tuple[str, dict[str, Any]]] = {
    "roster.over_limit": ("error", army(*army()["units"], unit(points=18))),
    "unit.formation_not_allowed": (
        "error", army(*army()["units"], unit(**{"class": "artillery"}, formation="square"))),
    "unit.square_too_small": ("error", army(*army()["units"], unit(figures=6,
                                                                   formation="square"))),
    "unit.cannot_shoot": (
        "warning", army(*army()["units"], unit(**{"class": "light_cavalry"}, accuracy=2))),
    "army.no_officer": ("warning", army(unit(), unit(formation="close_order"))),
}


@pytest.mark.parametrize("code", list(BROKEN))
def test_the_price_api_reports_each_rule_broken_and_not_when_kept(client: TestClient,
                                                                   code: str) -> None:
    severity, document = BROKEN[code]
    for lang in ("en", "ru"):
        result = price(client, document, lang)
        assert [(i["code"], i["severity"]) for i in result["issues"]] == [(code, severity)]
        assert result["valid"] is (severity == "warning")
    assert code not in [i["code"] for i in price(client, army())["issues"]]


def test_the_limit_applied_is_the_rosters_own_when_it_sets_one(client: TestClient) -> None:
    over = army(*army()["units"], unit(points=18))
    assert price(client, over)["remaining"] == -0.5
    own = price(client, {**over, "points_limit": 31})
    assert (own["points_limit"], own["points_limit_source"], own["remaining"]) == (
        31, "roster", 0.5)
    assert own["valid"] is True


def test_issue_messages_are_in_russian_when_asked(client: TestClient) -> None:
    result = price(client, BROKEN["unit.formation_not_allowed"][1], "ru")
    message = result["issues"][0]["message"]
    assert "подразделение 3" in message and "Артиллерия" in message and "каре" in message


@pytest.mark.parametrize(("change", "field"), [
    ({"class": "hussars"}, "units[0].class"),
    ({"formation": "wedge"}, "units[0].formation"),
    ({"figures": 0}, "units[0].figures"), ({"figures": 101}, "units[0].figures"),
    ({"speed": 0}, "units[0].speed"), ({"speed": 25}, "units[0].speed"),
    ({"accuracy": 0}, "units[0].accuracy"), ({"accuracy": 13}, "units[0].accuracy"),
    ({"discipline": -4}, "units[0].discipline"), ({"discipline": 6}, "units[0].discipline"),
    ({"points": 100.5}, "units[0].points"), ({"points": 1.25}, "units[0].points"),
    ({"points": -1}, "units[0].points"), ({"points": "5"}, "units[0].points"),
    ({"officer": "maybe"}, "units[0].officer"), ({"lines": []}, "units[0].lines"),
])
def test_bad_input_is_refused_with_422_naming_the_field(client: TestClient,
                                                         change: dict[str, Any],
                                                         field: str) -> None:
    response = client.post("/api/v1/price", json=army(unit(**change)))
    assert response.status_code == 422
    body = response.json()
    assert [d["field"] for d in body["detail"]] == [field]
    assert body["message"].startswith(field + ":")


def test_a_roster_level_mistake_names_its_field_too(client: TestClient) -> None:
    for change, field in (({"points_limit": 0}, "points_limit"), ({"nation": "poles"}, "nation"),
                          ({"name": ""}, "name"), ({"units": "many"}, "units")):
        response = client.post("/api/v1/price", json={**army(), **change})
        assert response.status_code == 422
        assert [d["field"] for d in response.json()["detail"]] == [field]


def test_a_missing_or_unknown_ruleset_is_refused_naming_ruleset(client: TestClient) -> None:
    without = army()
    del without["ruleset"]
    for body in (without, {**army(), "ruleset": "line-and-square"}):
        response = client.post("/api/v1/price", json=body)
        assert response.status_code == 422
        assert [d["field"] for d in response.json()["detail"]] == ["ruleset"]
        assert "line_and_square" in response.text


# ------------------------------------------------------------------ stored rosters


def key_of(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['edit_key']}"}


def test_a_stored_roster_is_read_changed_copied_and_kept_in_revisions(api: TestClient) -> None:
    response = api.post(f"{ROSTERS}?lang=ru", json=army())
    assert response.status_code == 201, response.text
    created = response.json()
    # Stored as sent, every default written out, each unit given its id in list order.
    assert created["document"] == {**army(), "points_limit": None, "note": "",
                                   "units": [{"id": f"u{n}", "name": "", "accuracy": None,
                                              "discipline": 0, "officer": False,
                                              "formation": "loose", "note": "", **u}
                                             for n, u in enumerate(army()["units"], start=1)]}
    assert created["result"] == price(api, army(), "ru")
    changed = army(*army()["units"], unit(name="Резерв", points=18))
    answer = api.put(f"{ROSTERS}/{created['id']}", json=changed,
                     headers={**key_of(created), "If-Match": '"v1"'})
    assert answer.status_code == 200, answer.text
    read = api.get(f"{ROSTERS}/{created['id']}").json()
    assert read["version"] == 2 and read["document"]["units"][2]["name"] == "Резерв"
    assert [u["id"] for u in read["document"]["units"]] == ["u1", "u2", "u3"]
    assert [i["code"] for i in read["result"]["issues"]] == ["roster.over_limit"]
    revisions = api.get(f"{ROSTERS}/{created['id']}/revisions").json()
    assert [r["version"] for r in revisions] == [1, 2]
    first = api.get(f"{ROSTERS}/{created['id']}/revisions/1").json()
    assert len(first["document"]["units"]) == 2
    duplicate = api.post(f"{ROSTERS}/{created['id']}/copy").json()
    assert duplicate["document"] == read["document"]
    assert duplicate["copied_from"] == {"id": created["id"], "version": 2}


def test_a_stored_roster_refuses_a_bad_change_and_keeps_the_old_one(api: TestClient) -> None:
    created = api.post(ROSTERS, json=army()).json()
    answer = api.put(f"{ROSTERS}/{created['id']}", json=army(unit(speed=30)),
                     headers={**key_of(created), "If-Match": '"v1"'})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["field"] == "units[0].speed"
    assert api.get(f"{ROSTERS}/{created['id']}").json()["version"] == 1


def test_export_json_imports_back_to_the_same_document_and_price(client: TestClient) -> None:
    document = army(*army()["units"], unit(points=0.5, note="резерв"), points_limit=25)
    created = client.post(ROSTERS, json=document).json()
    exported = client.get(f"{ROSTERS}/{created['id']}/export.json")
    assert exported.status_code == 200
    body = exported.json()
    assert body["ruleset"] == "line_and_square" and body["units"][2]["points"] == 0.5
    imported = client.post(f"{ROSTERS}/import", content=exported.content,
                           headers={"Content-Type": "application/json"})
    assert imported.status_code == 201, imported.text
    again = client.get(f"{ROSTERS}/{imported.json()['id']}").json()
    assert again["document"] == created["document"]
    assert again["result"] == created["result"]


def test_an_import_with_a_bad_unit_is_refused_naming_the_field(client: TestClient) -> None:
    broken = copy.deepcopy(army())
    broken["units"][1]["class"] = "cossacks"
    answer = client.post(f"{ROSTERS}/import", content=json.dumps(broken),
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["field"] == "units[1].class"


# ------------------------------------------------------------------ the calculator's API

CALC = "/api/v1/rulesets/line_and_square/order-test"


def test_the_calculator_api_gives_the_exact_fraction_and_its_float(client: TestClient) -> None:
    body = client.get(CALC).json()
    assert (body["passing_throws"], body["throws"]) == (26, 36)
    assert (body["numerator"], body["denominator"]) == (13, 18)
    assert body["chance"] == pytest.approx(26 / 36)
    body = client.get(CALC, params={"discipline": -3, "formation": "loose",
                                    "disorder": 2}).json()
    assert (body["numerator"], body["denominator"]) == (1, 12)  # 3 of 36


@pytest.mark.parametrize("discipline", range(-3, 6))
def test_the_calculator_api_matches_a_direct_enumeration_for_every_discipline(
        client: TestClient, discipline: int) -> None:
    for formation in ("loose", "close_order", "square", "march_column"):
        for officer in (False, True):
            for disorder in (0, 1, 2, 5):
                body = client.get(CALC, params={
                    "discipline": discipline, "formation": formation,
                    "officer": str(officer).lower(), "disorder": disorder}).json()
                expected = enumerated(discipline, formation, officer, disorder)
                assert Fraction(body["numerator"], body["denominator"]) == expected
                assert body["chance"] == pytest.approx(float(expected))


@pytest.mark.parametrize(("params", "field"), [
    ({"discipline": 6}, "discipline"), ({"discipline": -4}, "discipline"),
    ({"discipline": "one"}, "discipline"), ({"formation": "wedge"}, "formation"),
    ({"disorder": -1}, "disorder"), ({"disorder": 11}, "disorder"),
    ({"officer": "perhaps"}, "officer"),
])
def test_the_calculator_api_refuses_bad_parameters_by_name(client: TestClient,
                                                           params: dict[str, Any],
                                                           field: str) -> None:
    response = client.get(CALC, params=params)
    assert response.status_code == 422
    assert [d["loc"][-1] for d in response.json()["detail"]] == [field]
    assert field in response.json()["message"]
