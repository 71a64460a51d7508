"""The editor's operations over JSON: PATCH a roster by edits, undo, and "Make it legal", as a
client uses them (app/api/roster_edits.py)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.domain.limits import MAX_FIGURES, MAX_UNITS
from app.systems.chainmail.catalogue import PRESETS
from tests.helpers.documents import army

ROSTERS = "/api/v1/rosters"
Document = dict[str, Any]


def horde() -> Document:
    """A Chainmail roster with two units (the second of two lines) and an engine."""
    document = army()
    document["units"].append({"name": "Лучники", "lines": [
        {"troop": "light_horse", "figures": 10, "weapon": "bow"},
        {"troop": "light_horse", "figures": 5, "weapon": "lance"}]})
    document["engines"] = [{"kind": "bombard", "count": 1}]
    return document


def guard() -> Document:
    return {"name": "Старая гвардия", "ruleset": "line_and_square", "points_limit": 50,
            "units": [{"name": "1-й батальон", "class": "line_infantry", "figures": 12,
                       "speed": 6, "accuracy": 4, "discipline": 1, "points": 5,
                       "officer": True, "formation": "square"},
                      {"name": "Гусары", "class": "light_cavalry", "figures": 8, "speed": 12,
                       "points": 7.5}]}


def legion() -> Document:
    def line(kind: str, weapon: str, count: int, **flags: bool) -> Document:
        return {"class": kind, "weapon": weapon, "count": count, **flags}

    return {"name": "Легион", "ruleset": "formation_density", "points_limit": 50, "units": [
        {"name": "Гастаты", "density": 3, "files": 20, "points": 12.5,
         "lines": [line("melee_specialists", "heavy_throwing", 20, shield=True),
                   line("melee_specialists", "sword", 20, shield=True)]},
        {"name": "Всадники", "density": 2, "files": 10, "points": 7,
         "lines": [line("shock_cavalry", "cavalry_lance", 10, mounted=True)]}]}


def create(client: TestClient, document: Document) -> dict[str, Any]:
    response = client.post(ROSTERS, json=document)
    assert response.status_code == 201, response.text
    return response.json()


def patch(client: TestClient, created: dict[str, Any], edits: Any, etag: str | None = '"v1"',
          lang: str = "en", **headers: str) -> Any:
    sent = {"Authorization": f"Bearer {created['edit_key']}", **headers}
    if etag is not None:
        sent["If-Match"] = etag
    return client.patch(f"{ROSTERS}/{created['id']}?lang={lang}", json={"edits": edits},
                        headers=sent)


def undo(client: TestClient, created: dict[str, Any], etag: str, to: int | None = None,
         lang: str = "en") -> Any:
    query = f"?lang={lang}" + (f"&to={to}" if to is not None else "")
    return client.post(f"{ROSTERS}/{created['id']}/undo{query}", headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": etag})


def stored(client: TestClient, created: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"{ROSTERS}/{created['id']}").json()  # type: ignore[no-any-return]


def unit(doc: Document, unit_id: str) -> Document:
    return next(u for u in doc["units"] if u["id"] == unit_id)  # type: ignore[no-any-return]


def changed(change: Callable[[Document], None]) -> Callable[[Document], Document]:
    """What the document is after an edit: `change` made on a copy of the one before."""
    def expect(before: Document) -> Document:
        after = copy.deepcopy(before)
        change(after)
        return after
    return expect


def _set(where: Callable[[Document], Document], **values: Any) -> Callable[[Document], None]:
    return lambda doc: where(doc).update(values)


def _moved(order: list[str]) -> Callable[[Document], None]:
    def move(doc: Document) -> None:
        doc["units"] = [unit(doc, unit_id) for unit_id in order]
    return move


def _remove(what: Callable[[Document], list[Any]], item_id: str) -> Callable[[Document], None]:
    def remove(doc: Document) -> None:
        items = what(doc)
        items.remove(next(item for item in items if item["id"] == item_id))
    return remove


def _twin(unit_id: str, new_id: str, **changes: Any) -> Callable[[Document], None]:
    def duplicate(doc: Document) -> None:
        place = doc["units"].index(unit(doc, unit_id))
        doc["units"].insert(place + 1, {**copy.deepcopy(unit(doc, unit_id)), "id": new_id,
                                        **changes})
    return duplicate


def _append(key: Callable[[Document], list[Any]], item: Any) -> Callable[[Document], None]:
    return lambda doc: key(doc).append(item)


def _lines(unit_id: str) -> Callable[[Document], list[Any]]:
    return lambda doc: unit(doc, unit_id)["lines"]  # type: ignore[no-any-return]


def _roster(doc: Document) -> Document:
    return doc


def _units(doc: Document) -> list[Any]:
    return doc["units"]  # type: ignore[no-any-return]


def _engines(doc: Document) -> list[Any]:
    return doc["engines"]  # type: ignore[no-any-return]


def _line(unit_id: str, line_id: str) -> Callable[[Document], Document]:
    return lambda doc: next(line for line in unit(doc, unit_id)["lines"]  # type: ignore
                            if line["id"] == line_id)


ARCHERS = PRESETS["steppe_horse_archers"]
CHAINMAIL = [
    ({"op": "set_roster", "name": "Тумен", "nation": "tatars", "points_limit": None,
      "historical": False, "fortifications": True, "note": "с обозом"},
     changed(_set(_roster, name="Тумен", nation="tatars", points_limit=None, historical=False,
                  fortifications=True, note="с обозом"))),
    ({"op": "add_unit", "preset": "steppe_horse_archers"},
     changed(_append(_units, {"id": "u3", "name": ARCHERS.name("en"), "mercenary": False,
                              "flags": list(ARCHERS.flags), "note": "", "lines": [
                                  {"id": "l1", "troop": ARCHERS.troop,
                                   "figures": ARCHERS.figures, "weapon": ARCHERS.weapon}]}))),
    ({"op": "add_unit", "name": "Пехота", "mercenary": True, "flags": ["elite"],
      "lines": [{"troop": "heavy_foot", "figures": 20, "weapon": "pike"},
                {"troop": "light_foot", "figures": 4}]},
     changed(_append(_units, {"id": "u3", "name": "Пехота", "mercenary": True,
                              "flags": ["elite"], "note": "", "lines": [
                                  {"id": "l1", "troop": "heavy_foot", "figures": 20,
                                   "weapon": "pike"},
                                  {"id": "l2", "troop": "light_foot", "figures": 4,
                                   "weapon": "none"}]}))),
    ({"op": "set_unit", "unit": "u2", "name": "Стрелки", "mercenary": True, "flags": ["elite"],
      "note": "левый фланг"},
     changed(_set(lambda doc: unit(doc, "u2"), name="Стрелки", mercenary=True,
                  flags=["elite"], note="левый фланг"))),
    ({"op": "duplicate_unit", "unit": "u1"},
     changed(_twin("u1", "u3", flags=[], name="Кешиг 2"))),
    ({"op": "move_unit", "unit": "u1", "by": 1}, changed(_moved(["u2", "u1"]))),
    ({"op": "move_unit", "unit": "u2", "by": -9}, changed(_moved(["u2", "u1"]))),
    ({"op": "remove_unit", "unit": "u1"}, changed(_remove(_units, "u1"))),
    ({"op": "add_line", "unit": "u1"},
     changed(_append(_lines("u1"), {"id": "l2", "troop": "heavy_horse", "figures": 5,
                                    "weapon": "none"}))),
    ({"op": "add_line", "unit": "u2", "troop": "light_foot", "figures": 3, "weapon": "bow"},
     changed(_append(_lines("u2"), {"id": "l3", "troop": "light_foot", "figures": 3,
                                    "weapon": "bow"}))),
    ({"op": "set_line", "unit": "u2", "line": "l2", "figures": 7, "troop": "medium_horse",
      "weapon": "none"},
     changed(_set(_line("u2", "l2"), figures=7, troop="medium_horse", weapon="none"))),
    ({"op": "step_figures", "unit": "u1", "line": "l1", "by": -1},
     changed(_set(_line("u1", "l1"), figures=9))),
    ({"op": "remove_line", "unit": "u2", "line": "l1"}, changed(_remove(_lines("u2"), "l1"))),
    ({"op": "add_engine", "kind": "light_catapult", "count": 2},
     changed(_append(_engines, {"id": "e2", "kind": "light_catapult", "count": 2,
                                "mercenary": False}))),
    ({"op": "set_engine", "engine": "e1", "count": 3, "mercenary": True},
     changed(_set(lambda doc: doc["engines"][0], count=3, mercenary=True))),
    ({"op": "remove_engine", "engine": "e1"}, changed(_remove(_engines, "e1"))),
]
LINE_AND_SQUARE = [
    ({"op": "set_roster", "name": "Гвардия", "points_limit": 80, "note": "1812"},
     changed(_set(_roster, name="Гвардия", points_limit=80, note="1812"))),
    ({"op": "add_unit", "name": "Егеря", "class": "light_infantry", "figures": 10, "speed": 8,
      "accuracy": 5, "points": 4.5},
     changed(_append(_units, {"id": "u3", "name": "Егеря", "class": "light_infantry",
                              "figures": 10, "speed": 8, "accuracy": 5, "discipline": 0,
                              "points": 4.5, "officer": False, "formation": "loose",
                              "note": ""}))),
    ({"op": "set_unit", "unit": "u1", "class": "grenadiers", "accuracy": None,
      "formation": "close_order", "points": 6},
     changed(_set(lambda doc: unit(doc, "u1"), **{"class": "grenadiers"}, accuracy=None,
                  formation="close_order", points=6))),
    ({"op": "duplicate_unit", "unit": "u1"},
     changed(_twin("u1", "u3", officer=False, name="1-й батальон 2"))),
    ({"op": "move_unit", "unit": "u2", "by": -1}, changed(_moved(["u2", "u1"]))),
    ({"op": "remove_unit", "unit": "u2"}, changed(_remove(_units, "u2"))),
]
FORMATION_DENSITY = [
    ({"op": "set_roster", "name": "Когорта", "points_limit": None},
     changed(_set(_roster, name="Когорта", points_limit=None))),
    ({"op": "add_unit", "name": "Велиты", "density": 1, "files": 8, "points": 3,
      "lines": [{"class": "melee_specialists", "weapon": "sword", "count": 8}]},
     changed(_append(_units, {"id": "u3", "name": "Велиты", "density": 1, "files": 8,
                              "points": 3, "note": "", "lines": [
                                  {"id": "l1", "class": "melee_specialists", "weapon": "sword",
                                   "count": 8, "shield": False, "armour": False,
                                   "mounted": False, "cavalry_armour": False,
                                   "moved_straight": False}]}))),
    ({"op": "set_unit", "unit": "u1", "density": 4, "files": 15, "points": None},
     changed(_set(lambda doc: unit(doc, "u1"), density=4, files=15, points=None))),
    ({"op": "duplicate_unit", "unit": "u2"}, changed(_twin("u2", "u3", name="Всадники 2"))),
    ({"op": "move_unit", "unit": "u1", "by": 1}, changed(_moved(["u2", "u1"]))),
    ({"op": "remove_unit", "unit": "u1"}, changed(_remove(_units, "u1"))),
    ({"op": "add_line", "unit": "u2"},
     changed(_append(_lines("u2"), {**legion()["units"][1]["lines"][0], "id": "l2",
                                    "shield": False, "armour": False, "cavalry_armour": False,
                                    "moved_straight": False}))),
    ({"op": "set_line", "unit": "u1", "line": "l2", "class": "shock_troops", "weapon": "axe",
      "count": 12, "shield": False, "armour": True},
     changed(_set(_line("u1", "l2"), **{"class": "shock_troops"}, weapon="axe", count=12,
                  shield=False, armour=True))),
    ({"op": "remove_line", "unit": "u1", "line": "l1"}, changed(_remove(_lines("u1"), "l1"))),
]
EVERY_OP = ([(horde, edit, expect) for edit, expect in CHAINMAIL]
            + [(guard, edit, expect) for edit, expect in LINE_AND_SQUARE]
            + [(legion, edit, expect) for edit, expect in FORMATION_DENSITY])


@pytest.mark.parametrize(("document", "edit", "expect"), EVERY_OP,
                         ids=[f"{d.__name__}-{e['op']}" for d, e, _ in EVERY_OP])
def test_every_edit_of_each_system_stores_what_it_says(
        client: TestClient, document: Callable[[], Document], edit: Document,
        expect: Callable[[Document], Document]) -> None:
    created = create(client, document())
    response = patch(client, created, [edit])
    assert response.status_code == 200, response.text
    assert response.headers["ETag"] == '"v2"'
    read = stored(client, created)
    assert read["version"] == 2
    assert read["document"] == expect(created["document"]) == response.json()["document"]
    assert response.json()["result"] == read["result"]


def test_every_op_of_each_system_is_tested() -> None:
    from app.systems import SYSTEMS

    tested = {document().get("ruleset"): {e["op"] for d, e, _ in EVERY_OP if d is document}
              for document in (horde, guard, legion)}
    for ruleset, ops in tested.items():
        schema = SYSTEMS[str(ruleset)].edits.json_schema()
        offered = set(schema["items"]["discriminator"]["mapping"])
        assert offered - {"make_legal"} == ops, ruleset  # make_legal: tested below


def history(client: TestClient, created: dict[str, Any]) -> tuple[int, list[int], Document]:
    """Version, revision numbers and document: what a refused request must leave alone."""
    read = stored(client, created)
    revisions = client.get(f"{ROSTERS}/{created['id']}/revisions").json()
    return read["version"], [r["version"] for r in revisions], read["document"]


def refused_field(response: Any, status: int = 422) -> tuple[str, str]:
    assert response.status_code == status, response.text
    (problem,) = response.json()["detail"]
    return ".".join(str(part) for part in problem["loc"]), problem["message"]


@pytest.mark.parametrize("second", [
    {"op": "remove_unit", "unit": "u9"},  # cannot be made
    {"op": "set_line", "unit": "u1", "line": "l1", "figures": 0},  # no edit of the system
])
def test_a_refused_edit_makes_none_of_the_list(client: TestClient, second: Document) -> None:
    created = create(client, horde())
    before = history(client, created)
    response = patch(client, created, [{"op": "set_roster", "name": "Другая"}, second])
    assert refused_field(response)[0].startswith("body.edits.1.")
    assert history(client, created) == before


def test_edits_that_change_nothing_answer_the_same_version(client: TestClient) -> None:
    created = create(client, horde())
    response = patch(client, created, [{"op": "set_roster", "name": horde()["name"]},
                                       {"op": "move_unit", "unit": "u1", "by": -1}])
    assert response.status_code == 200, response.text
    assert response.headers["ETag"] == '"v1"' and response.json()["version"] == 1
    assert history(client, created)[:2] == (1, [1])


def test_several_edits_are_made_in_order_as_one_version(client: TestClient) -> None:
    created = create(client, horde())
    response = patch(client, created, [
        {"op": "add_unit", "preset": "knights"},
        {"op": "set_line", "unit": "u3", "line": "l1", "figures": 4},
        {"op": "move_unit", "unit": "u3", "by": -2}])
    assert response.status_code == 200, response.text
    version, revisions, document = history(client, created)
    assert (version, revisions) == (2, [1, 2])
    assert [u["id"] for u in document["units"]] == ["u3", "u1", "u2"]
    assert document["units"][0]["lines"][0]["figures"] == 4


@pytest.mark.parametrize(("document", "edit", "field"), [
    (horde, {"op": "fly"}, "body.edits.0.op"),
    (horde, {"unit": "u1"}, "body.edits.0.op"),
    (horde, {"op": "set_unit", "unit": "u1", "colour": "red"}, "body.edits.0.colour"),
    (horde, {"op": "set_line", "unit": "u1", "line": "l1", "figures": MAX_FIGURES + 1},
     "body.edits.0.figures"),
    (horde, {"op": "step_figures", "unit": "u1", "line": "l1", "by": 2}, "body.edits.0.by"),
    (horde, {"op": "add_unit", "lines": [{"troop": "dragon"}]},
     "body.edits.0.lines.0.troop"),
    (guard, {"op": "add_engine", "kind": "bombard", "count": 1}, "body.edits.0.op"),
    (guard, {"op": "set_unit", "unit": "u1", "speed": 99}, "body.edits.0.speed"),
    (legion, {"op": "set_line", "unit": "u1", "line": "l1", "figures": 3},
     "body.edits.0.figures"),
])
def test_an_edit_that_is_none_of_the_systems_is_refused_naming_its_field(
        client: TestClient, document: Callable[[], Document], edit: Document,
        field: str) -> None:
    created = create(client, document())
    before = history(client, created)
    assert refused_field(patch(client, created, [edit]))[0] == field
    assert history(client, created) == before


def test_the_body_must_hold_one_to_a_hundred_edits_as_json(client: TestClient) -> None:
    created = create(client, horde())
    assert refused_field(patch(client, created, []))[0] == "body.edits"
    many = [{"op": "move_unit", "unit": "u1", "by": 1}] * 101
    assert refused_field(patch(client, created, many))[0] == "body.edits"
    assert refused_field(patch(client, created, ["remove_unit"]))[0] == "body.edits.0"
    as_form = client.patch(f"{ROSTERS}/{created['id']}", content=b'{"edits": []}', headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v1"',
        "Content-Type": "text/plain"})
    assert as_form.status_code == 415
    assert history(client, created)[0] == 1


def _full(document: Document) -> Document:
    unit = document["units"][0]
    return {**document, "units": [{**unit, "id": f"u{n}"} for n in range(1, MAX_UNITS + 1)]}


@pytest.mark.parametrize(("document", "edit", "field", "english", "russian"), [
    (horde, {"op": "remove_unit", "unit": "u9"}, "unit", "there is no unit u9", "u9"),
    (horde, {"op": "set_line", "unit": "u1", "line": "l7", "figures": 3}, "line",
     "unit u1 has no line l7", "l7"),
    (horde, {"op": "set_engine", "engine": "e5", "count": 2}, "engine",
     "there is no engine e5", "e5"),
    (lambda: _full(horde()), {"op": "add_unit", "preset": "knights"}, "unit",
     f"at most {MAX_UNITS} units", str(MAX_UNITS)),
    (horde, {"op": "add_unit", "flags": ["elite", "elite"]}, "flags",
     "each flag may appear only once", ""),
    (lambda: {**horde(), "units": [], "engines": []}, {"op": "make_legal"}, "op",
     "add a unit with figures first", ""),
    (legion, {"op": "remove_line", "unit": "u2", "line": "l1"}, "line",
     "a unit keeps at least one line; remove the unit instead", ""),
])
def test_an_edit_that_cannot_be_made_is_refused_in_the_requests_language(
        client: TestClient, document: Callable[[], Document], edit: Document, field: str,
        english: str, russian: str) -> None:
    created = create(client, document())
    before = history(client, created)
    edits = [{"op": "set_roster", "name": "Другая"}, edit]
    assert refused_field(patch(client, created, edits)) == (f"body.edits.1.{field}", english)
    loc, message = refused_field(patch(client, created, edits, lang="ru"))
    assert loc == f"body.edits.1.{field}"
    assert russian in message and message != english
    assert any("а" <= letter <= "я" for letter in message.lower())
    assert history(client, created) == before


def test_a_change_is_refused_as_put_refuses_it(client: TestClient) -> None:
    created = create(client, horde())
    other = create(client, horde())
    edits = [{"op": "remove_unit", "unit": "u1"}]
    url = f"{ROSTERS}/{created['id']}"
    before = history(client, created)
    no_key = client.patch(url, json={"edits": edits}, headers={"If-Match": '"v1"'})
    assert no_key.status_code == 401 and no_key.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = client.patch(url, json={"edits": edits}, headers={
        "Authorization": f"Bearer {other['edit_key']}", "If-Match": '"v1"'})
    assert wrong.status_code == 403
    assert patch(client, created, edits, etag=None).status_code == 428
    assert refused_field(patch(client, created, edits, etag="v1"))[0] == "header.If-Match"
    stale = patch(client, created, edits, etag='"v7"', lang="ru")
    assert stale.status_code == 412 and stale.headers["ETag"] == '"v1"'
    assert stale.json()["version"] == 1 and stale.json()["etag"] == '"v1"'
    assert "версии 1" in stale.json()["message"]
    assert history(client, created) == before
    assert patch(client, created, edits).status_code == 200
    stale = patch(client, created, [{"op": "set_roster", "name": "Поздно"}])
    assert stale.status_code == 412 and stale.json()["version"] == 2
    assert history(client, created)[0] == 2


def test_a_deleted_roster_is_gone_and_an_unknown_one_not_found(client: TestClient) -> None:
    created = create(client, horde())
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    assert client.delete(f"{ROSTERS}/{created['id']}", headers=key).status_code == 204
    edits = [{"op": "remove_unit", "unit": "u1"}]
    assert patch(client, created, edits).status_code == 410
    assert undo(client, created, '"v1"').status_code == 410
    assert client.get(f"{ROSTERS}/{created['id']}/make-legal").status_code == 410
    unknown = {**created, "id": "nosuchroster0000"}
    assert patch(client, unknown, edits).status_code == 404
    assert undo(client, unknown, '"v1"').status_code == 404
    assert client.get(f"{ROSTERS}/nosuchroster0000/make-legal").status_code == 404


def test_undo_stores_the_version_before_as_the_next_and_can_be_undone(
        client: TestClient) -> None:
    created = create(client, horde())
    first = created["document"]
    edited = patch(client, created, [{"op": "remove_unit", "unit": "u2"}]).json()["document"]
    undone = undo(client, created, '"v2"')
    assert undone.status_code == 200, undone.text
    assert undone.headers["ETag"] == '"v3"' and undone.json()["document"] == first
    redone = undo(client, created, '"v3"')
    assert redone.json()["version"] == 4 and redone.json()["document"] == edited
    back = undo(client, created, '"v4"', to=1)
    assert back.json()["version"] == 5 and back.json()["document"] == first
    assert history(client, created)[:2] == (5, [1, 2, 3, 4, 5])
    assert back.json()["result"] == stored(client, created)["result"]


def test_undo_refuses_without_an_earlier_version_and_names_the_version(
        client: TestClient) -> None:
    created = create(client, horde())
    nothing = undo(client, created, '"v1"')
    assert nothing.status_code == 409
    assert "no earlier version" in nothing.json()["message"]
    assert created["id"] in undo(client, created, '"v1"', lang="ru").json()["message"]
    patch(client, created, [{"op": "remove_unit", "unit": "u2"}])
    for to in (2, 3):
        later = undo(client, created, '"v2"', to=to)
        assert later.status_code == 404 and f"version {to}" in later.json()["message"]
    assert refused_field(undo(client, created, '"v2"', to=0))[0] == "query.to"
    assert undo(client, created, '"v1"').status_code == 412
    assert history(client, created)[:2] == (2, [1, 2])


def test_undo_to_a_version_no_longer_kept_names_it(tmp_path: Any) -> None:
    from app.main import create_app
    from tests.helpers.databases import app_database, settings_for

    with app_database(tmp_path) as url, TestClient(
            create_app(settings_for(url, max_revisions=8))) as client:
        created = create(client, horde())
        for version in range(1, 11):
            patch(client, created, [{"op": "set_roster", "name": f"v{version + 1}"}],
                  etag=f'"v{version}"')
        assert history(client, created)[1][0] > 1
        gone = undo(client, created, '"v11"', to=1)
        assert gone.status_code == 404
        assert "no longer keeps version 1" in gone.json()["message"]
        assert history(client, created)[0] == 11


def test_make_legal_gives_the_edits_that_make_the_roster_legal(client: TestClient) -> None:
    created = create(client, horde())
    assert created["result"]["valid"] is False
    answer = client.get(f"{ROSTERS}/{created['id']}/make-legal")
    assert answer.status_code == 200 and answer.headers["ETag"] == '"v1"'
    suggested = answer.json()
    assert suggested["possible"] is True and suggested["reason"] is None
    assert suggested["version"] == 1 and suggested["moved"] > 0 and suggested["outcome"]
    assert all(set(edit) - {"op"} for edit in suggested["edits"])  # only the fields set
    made = patch(client, created, suggested["edits"])
    assert made.status_code == 200, made.text
    assert made.json()["result"]["valid"] is True
    assert made.json()["result"]["total"] == suggested["total"]
    twin = create(client, horde())
    by_op = patch(client, twin, [{"op": "make_legal"}])
    assert by_op.json()["document"] == made.json()["document"]
    again = client.get(f"{ROSTERS}/{created['id']}/make-legal").json()
    assert (again["possible"], again["moved"], again["edits"], again["version"]) == (
        True, 0, [], 2)


def test_make_legal_says_why_not_in_the_requests_language(client: TestClient) -> None:
    created = create(client, {**horde(), "units": [], "engines": []})
    english = client.get(f"{ROSTERS}/{created['id']}/make-legal").json()
    russian = client.get(f"{ROSTERS}/{created['id']}/make-legal?lang=ru").json()
    assert english["possible"] is False and english["edits"] == []
    assert english["reason"] == "add a unit with figures first"
    assert russian["reason"] and russian["reason"] != english["reason"]


def test_make_legal_answers_not_modified_while_the_roster_is_unchanged(
        client: TestClient) -> None:
    created = create(client, horde())
    url = f"{ROSTERS}/{created['id']}/make-legal"
    assert client.get(url, headers={"If-None-Match": '"v1"'}).status_code == 304
    patch(client, created, [{"op": "remove_unit", "unit": "u2"}])
    assert client.get(url, headers={"If-None-Match": '"v1"'}).status_code == 200


@pytest.mark.parametrize(("document", "english", "russian"), [
    (guard, "Line and Square", "Линия и каре"), (legion, "Formation Density", "Плотность строя")])
def test_make_legal_of_a_system_without_it_is_not_found_naming_the_system(
        client: TestClient, document: Callable[[], Document], english: str,
        russian: str) -> None:
    created = create(client, document())
    url = f"{ROSTERS}/{created['id']}/make-legal"
    answer = client.get(url)
    assert answer.status_code == 404 and english in answer.json()["message"]
    assert russian in client.get(f"{url}?lang=ru").json()["message"]


def test_the_openapi_description_shows_every_systems_edits_and_every_answer(
        client: TestClient) -> None:
    from app.systems import SYSTEMS

    spec = client.get("/openapi.json").json()
    rosters = spec["paths"]["/api/v1/rosters/{roster_id}"]
    body = rosters["patch"]["requestBody"]["content"]["application/json"]["schema"]
    schema = spec["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
    systems = schema["properties"]["edits"]["items"]["anyOf"]
    for system in systems:
        mapping = system["discriminator"]["mapping"]
        ruleset = next(r for r in SYSTEMS if f"'{r}'" in system["description"])
        offered = SYSTEMS[ruleset].edits.json_schema()["items"]["discriminator"]["mapping"]
        assert set(mapping) == set(offered)
    assert len(systems) == len(SYSTEMS)
    assert {"200", "401", "403", "404", "410", "412", "413", "415", "422", "428"} <= set(
        rosters["patch"]["responses"])
    undo_answers = spec["paths"]["/api/v1/rosters/{roster_id}/undo"]["post"]["responses"]
    assert {"200", "401", "403", "404", "409", "410", "412", "428"} <= set(undo_answers)
    legal = spec["paths"]["/api/v1/rosters/{roster_id}/make-legal"]["get"]["responses"]
    assert {"200", "404", "410"} <= set(legal)
    for operation in (rosters["patch"], spec["paths"]["/api/v1/rosters/{roster_id}/undo"]["post"]):
        (header,) = [p for p in operation["parameters"] if p["name"] == "If-Match"]
        assert header["in"] == "header" and header["required"] is True


def test_the_api_docs_list_every_op_of_each_system_with_its_fields() -> None:
    from pathlib import Path

    from app.systems import SYSTEMS

    text = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    section = text.split("### The edits of each rule system", 1)[1].split("\n## ", 1)[0]
    # "Every rule system:" or a system's name, then its table.
    parts = re.split(r"\n([A-Z][^|\n]*):\n\n", section)
    tables = dict(zip(parts[1::2], parts[2::2], strict=True))
    for system in SYSTEMS.values():
        table = tables[system.name("en")]
        schema = system.edits.json_schema()
        for op, ref in schema["items"]["discriminator"]["mapping"].items():
            rows = [row for part in (tables["Every rule system"], table)
                    for row in part.splitlines() if row.startswith(f"| `{op}` |")]
            assert rows, (system.id, op)
            fields = schema["$defs"][ref.rsplit("/", 1)[1]]["properties"]
            missing = [f for f in fields if f != "op" and not any(f"`{f}`" in r for r in rows)]
            assert not missing, (system.id, op, missing)
