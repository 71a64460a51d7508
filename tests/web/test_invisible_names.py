"""A roster or unit name that looks empty but is not (zero-width spaces, joiners, byte-order
marks …) is refused: by the API with 422 naming the field, on the pages in the player's words.
A unit may still be left unnamed. A roster stored before that is read with such names mended."""

from __future__ import annotations

import json
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, col

from app.domain import player_text
from app.main import create_app
from app.services import kept_evaluations
from app.services.cache import Recent
from app.storage.db import make_engine
from app.storage.tables import Revision, Roster
from tests.helpers.databases import settings_for
from tests.web.test_pages import (
    HX,
    create_army,
    csrf_of,
    document,
    edit,
    unit_form,
    version_of,
)

INVISIBLE = ["\u200b", "\u200c\u200d", " \u2060 ", "\ufeff", "\u200b \u200b"]
RU = {"Accept-Language": "ru"}
MESSAGE = "must contain a visible character and no control characters"


def army(name: str = "Орда", unit_name: str = "Кешиг") -> dict[str, Any]:
    return {"name": name, "ruleset": "chainmail", "nation": "mongols", "units": [
        {"name": unit_name, "lines": [{"troop": "medium_horse", "figures": 10}]}]}


@pytest.mark.parametrize("invisible", INVISIBLE)
@pytest.mark.parametrize(("field", "doc"), [
    ("name", lambda text: army(name=text)),
    ("units[0].name", lambda text: army(unit_name=text)),
])
def test_the_api_refuses_a_name_that_shows_nothing_naming_the_field(
        client: TestClient, invisible: str, field: str, doc: Any) -> None:
    for path in ("/api/v1/price", "/api/v1/rosters", "/api/v1/rosters/import"):
        answer = client.post(path, json=doc(invisible))
        assert answer.status_code == 422, (path, answer.text)
        body = answer.json()
        assert body["message"] == f"{field}: {MESSAGE}"
        assert [(d["field"], d["message"]) for d in body["detail"]] == [(field, MESSAGE)]


def test_a_unit_may_still_be_unnamed_and_names_keep_what_they_show(client: TestClient) -> None:
    for blank in ("", "   ", "\t"):
        answer = client.post("/api/v1/rosters", json=army(unit_name=blank))
        assert answer.status_code == 201, answer.text
        assert answer.json()["document"]["units"][0]["name"] == ""
    answer = client.post("/api/v1/rosters", json=army(name="Орда\u200d", unit_name="\u200bК"))
    assert answer.status_code == 201
    assert answer.json()["document"]["name"] == "Орда\u200d"
    assert answer.json()["document"]["units"][0]["name"] == "\u200bК"
    # A roster's name is required, as before: spaces alone are no name.
    blank = client.post("/api/v1/price", json=army(name="   "))
    assert blank.status_code == 422 and blank.json()["detail"][0]["type"] == "string_too_short"


def test_the_json_schema_states_the_rule() -> None:
    schema = create_app(settings_for("sqlite://", migrate_on_start=False)).openapi()
    text = json.dumps(schema, ensure_ascii=False)
    assert json.dumps(player_text.VISIBLE, ensure_ascii=False) in text
    assert json.dumps(player_text.VISIBLE_OR_BLANK, ensure_ascii=False) in text


@pytest.mark.parametrize(("headers", "words"), [
    ({}, "Name: must contain a visible character and no control characters"),
    (RU, "Название: нужен хотя бы один видимый знак и ни одного управляющего символа"),
])
def test_the_pages_refuse_it_in_the_players_words(client: TestClient, headers: dict[str, str],
                                                   words: str) -> None:
    created = client.post("/rosters/new", headers=headers, data={
        "csrf": csrf_of(client), "name": "\u200b", "nation": "mongols", "points_limit": "300",
        "ruleset": "chainmail"}, follow_redirects=False)
    assert created.status_code == 422 and words in unescape(created.text)

    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    before = version_of(client, roster_id)
    data = {"csrf": client.cookies.get("muster_csrf"), "version": str(before),
            "system": "chainmail"}
    renamed = client.post(f"/r/{roster_id}/edit", headers={**HX, **headers}, data={
        **data, "op": "settings", "name": "\ufeff\u2060", "points_limit": "300",
        "nation": "mongols"})
    assert renamed.status_code == 422 and words in unescape(renamed.text)
    unit = client.post(f"/r/{roster_id}/edit", headers={**HX, **headers}, data={
        **data, "op": "update_unit", "unit": "u1", "line": "l1", "unit_name": "\u200c",
        "figures_l1": "10", "troop_l1": "light_horse", "weapon_l1": "composite_bow"})
    label = "Отряд 1, Название" if headers else "Unit 1, Name"
    assert unit.status_code == 422 and f"{label}: {words.partition(': ')[2]}" in unescape(
        unit.text)
    assert version_of(client, roster_id) == before
    assert document(client, roster_id)["name"] == "Орда"


def test_a_roster_stored_with_invisible_names_before_is_read_mended_and_so_stored_next(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    edit(client, roster_id, op="add_unit", preset="knights")
    # As an earlier release stored it: nothing refused these names then.
    old = document(client, roster_id)
    old["name"] = "\u200b"
    old["units"][0]["name"] = "\ufeff\u200d"
    engine = make_engine(client.app.state.settings)  # type: ignore[attr-defined]
    try:
        with Session(engine) as session:
            text = json.dumps(old, ensure_ascii=False)
            session.exec(update(Roster).where(col(Roster.id) == roster_id)
                         .values(document=text, name="\u200b", search_name="\u200b"))
            session.exec(update(Revision).where(col(Revision.roster_id) == roster_id)
                         .values(document=text))
            session.commit()
    finally:
        engine.dispose()

    # Read by the release that refuses them (a process of its own: nothing kept from before).
    monkeypatch.setattr(kept_evaluations, "_EVALUATIONS", Recent(512))
    with TestClient(create_app(client.app.state.settings)) as upgraded:  # type: ignore[attr-defined]
        upgraded.cookies = client.cookies
        check_mended(upgraded, roster_id, old)


def check_mended(client: TestClient, roster_id: str, old: dict[str, Any]) -> None:
    version = version_of(client, roster_id)
    read = document(client, roster_id)
    assert read["name"] == player_text.UNNAMED
    assert [u["name"] for u in read["units"]] == ["", old["units"][1]["name"]]
    revision = client.get(f"/api/v1/rosters/{roster_id}/revisions/{version}")
    assert revision.status_code == 200 and revision.json()["document"] == read
    assert client.get(f"/r/{roster_id}").status_code == 200
    assert client.get(f"/api/v1/rosters/{roster_id}/export.json").status_code == 200

    changed = edit(client, roster_id, htmx=True, op="update_unit", **unit_form(
        client, roster_id, 1, unit_name="Рыцари", figures_0="10", troop_0="heavy_horse",
        weapon_0="lance"))
    assert changed.status_code == 200  # type: ignore[attr-defined]
    stored = document(client, roster_id)
    assert stored["name"] == player_text.UNNAMED
    assert [u["name"] for u in stored["units"]] == ["", "Рыцари"]
    assert client.get("/api/v1/rosters/" + roster_id).json()["version"] == version + 1
