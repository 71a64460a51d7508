"""GET /api/v1/rulesets/chainmail: every id of the rules page, named in both languages, with the
points the page gives; and every rule system's names, served from the message catalogue."""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.domain import translations
from app.main import create_app
from app.systems import SYSTEMS
from app.systems.chainmail import figure_sizes
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


def _russian(context: str, message: str) -> str:
    """The Russian catalogue's own entry for `message` (a KeyError if it has none)."""
    compiled = translations.catalogue("ru")._catalog  # type: ignore[attr-defined]
    return str(compiled[f"{context}\x04{message}" if context else message])


@pytest.mark.parametrize("ruleset", list(SYSTEMS))
def test_every_name_served_is_the_russian_catalogues_and_the_english_msgid(
        app_client: TestClient, ruleset: str) -> None:
    served = app_client.get(f"/api/v1/rulesets/{ruleset}").json()
    system = SYSTEMS[ruleset]
    assert (served["name_ru"], served["name_en"]) == (_russian("ruleset", system.title),
                                                      system.title)
    listed = {r["id"]: r for r in app_client.get("/api/v1/rulesets").json()}[ruleset]
    assert (listed["name_ru"], listed["name_en"]) == (served["name_ru"], served["name_en"])
    for group, entries in system.entries.items():
        items = by_id(served[group])
        assert list(items) == list(entries), group
        for key, entry in entries.items():
            item = items[key]
            assert (item["name_ru"], item["name_en"]) == (
                _russian(entry.context, entry.title), entry.title), (group, key)
            for field in ("description", "rule"):
                if hasattr(entry, field):
                    message = getattr(entry, field)
                    assert (item[f"{field}_ru"], item[f"{field}_en"]) == (
                        _russian(entry.context, message), message), (group, key)


def test_the_same_english_keeps_each_seeds_own_russian(app_client: TestClient) -> None:
    chainmail, density, line = (app_client.get(f"/api/v1/rulesets/{r}").json() for r in (
        "chainmail", "formation_density", "line_and_square"))
    assert by_id(chainmail["troop_types"])["heavy_foot"]["name_ru"] == "Тяжёлый пехотинец"
    assert by_id(chainmail["weapons"])["pike"]["name_ru"] == "Пика"
    assert by_id(density["weapons"])["pike"]["name_ru"] == "Пики"
    assert by_id(line["formations"])["close_order"]["name_ru"] == "Сомкнутый строй"
    assert by_id(line["actions"])["close_order"]["name_ru"] == "Сомкнуть строй"
    assert by_id(chainmail["engines"])["heavy_catapult"]["name_ru"] == "Тяжёлая катапульта"
    # «Ударная конница» is singular: it «попадает» (the page read «Ударная конница попадают»).
    assert by_id(density["classes"])["shock_cavalry"]["rule_ru"] == (
        "попадает, если выпало больше плотности вражеского отряда")
    medium = by_id(chainmail["presets"])["far_east_medium_horse"]
    assert (medium["name_ru"], medium["name_en"]) == ("Средняя конница", "Medium horse")


def test_the_figure_sizes_name_each_kind_from_the_catalogue(app_client: TestClient) -> None:
    sizes = app_client.get("/api/v1/rulesets/chainmail/figure-sizes",
                           params={"scale": 30}).json()["sizes"]
    assert [(s["kind"], s["name_en"], s["name_ru"]) for s in sizes] == [
        (k.id, k.title, _russian("", k.title)) for k in figure_sizes.KINDS]
    assert sizes[0]["name_ru"] == "Хоббиты, спрайты"
