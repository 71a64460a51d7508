"""GET /api/v1/rulesets/chainmail: every id of the rules page, named in both languages, with the
points the page gives."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from tests.unit import page_tables as page

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@pytest.fixture(scope="module")
def app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data = tmp_path_factory.mktemp("catalogue")
    app = create_app(Settings(_env_file=None, data_dir=data,  # type: ignore[call-arg]
                              DATABASE_URL=f"sqlite:///{data / 'muster.db'}"))
    with TestClient(app) as client:
        yield client


@pytest.fixture(scope="module")
def catalogue(app_client: TestClient) -> dict[str, Any]:
    answer = app_client.get("/api/v1/rulesets/chainmail")
    assert answer.status_code == 200
    return dict(answer.json())


def by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    ids = [item["id"] for item in items]
    assert len(ids) == len(set(ids)), f"duplicate ids: {ids}"
    return {item["id"]: item for item in items}


def test_the_ruleset_list_offers_chainmail(app_client: TestClient) -> None:
    listed = {r["id"]: r for r in app_client.get("/api/v1/rulesets").json()}
    assert listed["chainmail"]["name_en"] == "Chainmail"


def test_the_catalogue_names_the_ruleset(catalogue: dict[str, Any]) -> None:
    assert catalogue["id"] == "chainmail"
    assert catalogue["name_en"] and CYRILLIC.search(catalogue["name_ru"])


def test_the_troop_types_are_table_25_with_names_class_and_points(
        catalogue: dict[str, Any]) -> None:
    troops = by_id(catalogue["troop_types"])
    assert list(troops) == list(page.TROOPS)
    for troop_id, (ru, en, troop_class, points) in page.TROOPS.items():
        item = troops[troop_id]
        assert (item["name_ru"], item["name_en"]) == (ru, en)
        assert item["troop_class"] == troop_class
        assert Fraction(item["points"]) == points


def test_the_weapons_are_table_26_with_names_points_and_who_may_carry_them(
        catalogue: dict[str, Any]) -> None:
    weapons = by_id(catalogue["weapons"])
    assert list(weapons) == list(page.WEAPONS)
    for weapon_id, (ru, en, points, allowed_on) in page.WEAPONS.items():
        item = weapons[weapon_id]
        assert (item["name_ru"], item["name_en"]) == (ru, en)
        assert Fraction(item["points"]) == points
        assert set(item["allowed_on"]) == allowed_on


def test_the_engines_are_the_artillery_of_table_26(catalogue: dict[str, Any]) -> None:
    engines = by_id(catalogue["engines"])
    assert list(engines) == list(page.ENGINES)
    for engine_id, (ru, en, points) in page.ENGINES.items():
        item = engines[engine_id]
        assert (item["name_ru"], item["name_en"], Fraction(item["points"])) == (ru, en, points)


def test_the_nations_are_those_of_section_6_and_generic(catalogue: dict[str, Any]) -> None:
    nations = by_id(catalogue["nations"])
    assert set(nations) == set(page.NATIONS)
    for nation_id, ru in page.NATIONS.items():
        item = nations[nation_id]
        assert item["name_en"] and CYRILLIC.search(item["name_ru"])
        if ru is not None:
            assert item["name_ru"] == ru


def test_the_unit_flags_are_those_of_section_5_named_in_both_languages(
        catalogue: dict[str, Any]) -> None:
    flags = by_id(catalogue["unit_flags"])
    assert set(flags) == set(page.FLAGS)
    for item in flags.values():
        assert item["name_en"] and not CYRILLIC.search(item["name_en"])
        assert CYRILLIC.search(item["name_ru"])


def test_every_named_item_has_a_russian_and_an_english_name(catalogue: dict[str, Any]) -> None:
    for section in ("troop_types", "weapons", "engines", "nations", "unit_flags", "presets"):
        for item in catalogue[section]:
            assert item["name_ru"] and item["name_en"], (section, item["id"])


def test_the_swiss_pikemen_preset_is_heavy_foot_with_pikes_at_3_points(
        catalogue: dict[str, Any]) -> None:
    swiss = [p for p in catalogue["presets"] if "Swiss" in p["name_en"]]
    assert len(swiss) == 1
    assert (swiss[0]["troop"], swiss[0]["weapon"]) == ("heavy_foot", "pike")
    troop = by_id(catalogue["troop_types"])["heavy_foot"]["points"]
    weapon = by_id(catalogue["weapons"])["pike"]["points"]
    assert troop + weapon == 3


def test_presets_use_only_catalogue_ids(catalogue: dict[str, Any]) -> None:
    for preset in catalogue["presets"]:
        assert preset["troop"] in page.TROOPS and preset["weapon"] in page.WEAPONS
        assert set(preset["flags"]) <= set(page.FLAGS)
        assert preset["figures"] >= 1


def test_an_unknown_ruleset_is_a_404_naming_the_known_ones(app_client: TestClient) -> None:
    answer = app_client.get("/api/v1/rulesets/warhammer")
    assert answer.status_code == 404
    assert "chainmail" in answer.json()["detail"]


def test_presets_say_which_armies_name_them_and_how_they_stand_in_each(
        catalogue: dict[str, Any]) -> None:
    presets = {p["id"]: p for p in catalogue["presets"]}
    assert presets["steppe_horse_archers"]["nations"] == ["mongols", "tatars"]
    assert presets["swiss_pikemen"]["nations"] == []
    assert presets["swiss_pikemen"]["standing"]["mongols"] == "excluded"
    assert presets["horse_archers"]["standing"]["japan"] == "no"
    nations = {n["id"] for n in catalogue["nations"]}
    assert all(set(p["standing"]) == nations for p in presets.values())
