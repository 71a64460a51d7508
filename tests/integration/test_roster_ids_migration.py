"""Migration 0009 on SQLite and PostgreSQL: every roster document stored before ids existed
(rosters, deleted ones too, their revisions, the lists handed in to events) is given the ids
the app would give it, in the form the app writes; the roster then opens, takes edits by
those ids and exports them; going down takes them out again, and up again gives the same."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import Engine, text
from sqlmodel import Session

from app.main import create_app
from app.services import edits, events, games
from app.storage.db import alembic_config, current_revision, make_engine, migrate, schema_connection
from app.systems.events import EventRules
from app.systems.stored_documents import DOCUMENT
from tests.helpers.databases import settings_for
from tests.helpers.events import event

PREVIOUS, IDS = "0008", "0009"
HEAD = ScriptDirectory.from_config(alembic_config()).get_revision("head").revision  # type: ignore[union-attr]
KEY = "k" * 22
NOW = "2026-12-04 10:00:00"


def _stored(doc: dict[str, Any]) -> str:
    """A document as the code before ids stored it: pydantic's compact JSON, every field."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def _chainmail(name: str = "Орда Субэдэя") -> dict[str, Any]:
    def line(troop: str, figures: int, weapon: str) -> dict[str, Any]:
        return {"troop": troop, "figures": figures, "weapon": weapon}

    return {"name": name, "ruleset": "chainmail", "nation": "mongols", "points_limit": 300,
            "historical": True, "fortifications": False, "note": "",
            "units": [{"name": "Кешиг", "mercenary": False, "flags": ["commander"],
                       "lines": [line("medium_horse", 10, "lance")], "note": ""},
                      {"name": "Тумен «Запад»", "mercenary": False, "flags": [],
                       "lines": [line("light_horse", 8, "bow"),
                                 line("medium_horse", 4, "lance")], "note": "\"кавычки\"\n"}],
            "engines": [{"kind": "light_catapult", "count": 1, "mercenary": False},
                        {"kind": "bombard", "count": 2, "mercenary": True}]}


def _line_and_square() -> dict[str, Any]:
    def unit(name: str, points: float, officer: bool) -> dict[str, Any]:
        return {"name": name, "class": "line_infantry", "figures": 12, "speed": 6,
                "accuracy": None, "discipline": 1, "points": points, "officer": officer,
                "formation": "loose", "note": ""}

    return {"name": "Бригада", "ruleset": "line_and_square", "points_limit": None, "note": "",
            "units": [unit("1-й", 10, True), unit("2-й", 7.5, False)]}


def _formation_density() -> dict[str, Any]:
    def line(weapon: str, count: int) -> dict[str, Any]:
        return {"class": "shock_troops", "weapon": weapon, "count": count, "shield": True,
                "armour": False, "mounted": False, "cavalry_armour": False,
                "moved_straight": False}

    return {"name": "Фаланга", "ruleset": "formation_density", "points_limit": 100,
            "note": "", "units": [{"name": "Гоплиты", "density": 2, "files": 8, "points": 12.5,
                                   "note": "", "lines": [line("spear", 8), line("spear", 8),
                                                         line("short_spear", 6)]}]}


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def _insert(engine: Engine, roster_id: str, documents: list[str], *,
            deleted: bool = False) -> None:
    """A roster with one revision per document, the last its current one, as raw rows."""
    doc = json.loads(documents[-1])
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO roster (id, edit_key_hash, version, document, name, search_name, "
            "ruleset, nation, total, points_limit, verdict, created_at, updated_at, deleted_at)"
            " VALUES (:id, :key, :version, :doc, :name, :search, :ruleset, :nation, 0, NULL, "
            "'legal', :now, :now, :deleted)"),
            {"id": roster_id, "key": _digest(KEY), "version": len(documents),
             "doc": documents[-1], "name": doc["name"], "search": doc["name"].casefold(),
             "ruleset": doc["ruleset"], "nation": doc.get("nation"), "now": NOW,
             "deleted": NOW if deleted else None})
        connection.execute(text(
            "INSERT INTO revision (roster_id, version, created_at, document) "
            "VALUES (:id, :version, :now, :doc)"),
            [{"id": roster_id, "version": v, "now": NOW, "doc": d}
             for v, d in enumerate(documents, start=1)])


def _documents(engine: Engine, table: str = "revision") -> dict[tuple[str, ...], str]:
    key = {"roster": "id", "revision": "roster_id, version", "event_list": "id"}[table]
    with engine.connect() as connection:
        return {tuple(str(k) for k in row[:-1]): row[-1] for row in connection.execute(
            text(f"SELECT {key}, document FROM {table}"))}


def _downgrade(engine: Engine, revision: str) -> None:
    with schema_connection(engine) as connection, connection.begin():
        command.downgrade(alembic_config(connection), revision)


def _ids(text_: str) -> list[Any]:
    """A stored document's ids: each unit's (with its lines' ids) and each engine's."""
    doc = json.loads(text_)
    return [[(u.get("id"), [line.get("id") for line in u.get("lines", [])])
             for u in doc["units"]], [e.get("id") for e in doc.get("engines", [])]]


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on a database at the head before ids."""
    built = make_engine(settings_for(database_url))
    migrate(built, PREVIOUS)
    yield built
    built.dispose()


OLD = {"chainmail0000000": [_stored(_chainmail("Орда")), _stored(_chainmail())],
       "linesquare000000": [_stored(_line_and_square())],
       "formation0000000": [_stored(_formation_density())],
       "deleted000000000": [_stored(_chainmail())]}
OLD_IDS = {
    "chainmail0000000": [[("u1", ["l1"]), ("u2", ["l1", "l2"])], ["e1", "e2"]],
    "linesquare000000": [[("u1", []), ("u2", [])], []],
    "formation0000000": [[("u1", ["l1", "l2", "l3"])], []]}
OLD_IDS["deleted000000000"] = OLD_IDS["chainmail0000000"]


def _insert_old(engine: Engine) -> None:
    for roster_id, documents in OLD.items():
        _insert(engine, roster_id, documents, deleted=roster_id.startswith("deleted"))


def test_upgrading_gives_every_stored_document_the_ids_the_app_gives_in_its_form(
        engine: Engine) -> None:
    _insert_old(engine)
    migrate(engine)
    assert current_revision(engine) == HEAD
    stored = _documents(engine)
    assert len(stored) == 5
    for (roster_id, version), document in stored.items():
        old = OLD[roster_id][int(version) - 1]
        assert _ids(document) == OLD_IDS[roster_id]
        # Exactly what the app writes of the document it reads from the old text.
        assert document == DOCUMENT.validate_json(old).model_dump_json()
    current = _documents(engine, "roster")
    assert {k: v for (k,), v in current.items()} == {
        roster_id: stored[(roster_id, str(len(docs)))] for roster_id, docs in OLD.items()}


def test_ids_already_there_are_kept_and_unreadable_documents_left_as_they_are(
        engine: Engine) -> None:
    written = _chainmail()  # as this code stored it at the previous head: some ids given
    written["units"][0] = {"id": "u7", **written["units"][0]}
    written["units"][1]["lines"][1] = {"id": "l4", **written["units"][1]["lines"][1]}
    twice = _chainmail()
    twice["engines"] = [{"id": "e1", **e} for e in twice["engines"]]
    unreadable = ['not json', '{"ruleset": "chainmail"}', '[1, 2]', _stored(twice)]
    _insert(engine, "givenids00000000", [_stored(written), *unreadable])
    migrate(engine)
    stored = _documents(engine)
    assert _ids(stored[("givenids00000000", "1")]) == [
        [("u7", ["l1"]), ("u8", ["l5", "l4"])], ["e1", "e2"]]
    assert [stored[("givenids00000000", str(v))] for v in (2, 3, 4, 5)] == unreadable


def test_a_migrated_roster_opens_takes_edits_by_its_ids_and_exports_them(
        engine: Engine, database_url: str) -> None:
    _insert_old(engine)
    roster_id = "chainmail0000000"
    with TestClient(create_app(settings_for(database_url))) as api:  # it migrates to head
        assert current_revision(engine) == HEAD
        page = api.get(f"/r/{roster_id}/edit?key={KEY}")
        assert page.status_code == 200 and "Тумен «Запад»" in page.text
        before = api.get(f"/api/v1/rosters/{roster_id}/export.txt").text
        fresh = api.post("/api/v1/rosters", json=json.loads(OLD[roster_id][-1])).json()
        assert before == api.get(f"/api/v1/rosters/{fresh['id']}/export.txt").text
        with Session(engine) as session:
            done = edits.edit_roster(session, roster_id, [
                {"op": "set_line", "unit": "u2", "line": "l2", "figures": 6},
                {"op": "move_unit", "unit": "u1", "by": 1},
                {"op": "remove_line", "unit": "u2", "line": "l1"},
                {"op": "remove_engine", "engine": "e1"}, {"op": "add_line", "unit": "u1"},
            ], 2, "en")
        assert done.roster.version == 3
        exported = api.get(f"/api/v1/rosters/{roster_id}/export.json").json()
        assert [(u["id"], [(line["id"], line["figures"]) for line in u["lines"]])
                for u in exported["units"]] == [("u2", [("l2", 6)]),
                                                ("u1", [("l1", 10), ("l2", 5)])]
        assert [e["id"] for e in exported["engines"]] == ["e2"]
        assert "u2" not in api.get(f"/api/v1/rosters/{roster_id}/export.txt").text


def test_downgrading_takes_the_ids_out_and_upgrading_again_gives_the_same(
        engine: Engine) -> None:
    _insert_old(engine)
    migrate(engine)
    with Session(engine) as session:  # a version written with ids, a unit added by the app
        edits.edit_roster(session, "linesquare000000", [
            {"op": "remove_unit", "unit": "u1"}, {"op": "duplicate_unit", "unit": "u2"}],
            1, "en")
    upgraded = _documents(engine)
    _downgrade(engine, PREVIOUS)
    assert current_revision(engine) == PREVIOUS
    down = _documents(engine)
    for (roster_id, version), document in down.items():
        # The code before ids refused unknown keys: none is left, and the rest reads as it did.
        units, engines = _ids(document)
        assert all(u is None and set(lines) <= {None} for u, lines in units), roster_id
        assert set(engines) <= {None}
        assert document == json.dumps(json.loads(document), ensure_ascii=False,
                                      separators=(",", ":"))
        DOCUMENT.validate_json(document)
        if int(version) <= len(OLD[roster_id]):
            assert document == OLD[roster_id][int(version) - 1]  # byte for byte
    migrate(engine)
    again = _documents(engine)
    assert {k: v for k, v in again.items() if k != ("linesquare000000", "2")} == {
        k: v for k, v in upgraded.items() if k != ("linesquare000000", "2")}
    # The app's own ids, u2 and u3, are numbered anew from the list's order: u1 and u2.
    assert _ids(upgraded[("linesquare000000", "2")])[0] == [("u2", []), ("u3", [])]
    assert _ids(again[("linesquare000000", "2")])[0] == [("u1", []), ("u2", [])]


def test_revisions_past_one_batch_are_all_given_their_ids(engine: Engine) -> None:
    batch = ScriptDirectory.from_config(alembic_config()).get_revision(IDS).module.BATCH
    # A batch ends inside the second roster's revisions: the next starts after its last done.
    _insert(engine, "arosterwithmany0", [_stored(_line_and_square())] * (batch - 1))
    _insert(engine, "brosterwiththree", [_stored(_formation_density())] * 3)
    migrate(engine)
    stored = _documents(engine)
    assert len(stored) == batch + 2
    expected = {"arosterwithmany0": OLD_IDS["linesquare000000"],
                "brosterwiththree": OLD_IDS["formation0000000"]}
    assert all(_ids(d) == expected[roster_id] for (roster_id, _), d in stored.items())


def test_a_game_and_an_event_list_stored_before_still_read_after(engine: Engine) -> None:
    _insert_old(engine)
    with Session(engine) as session:
        game, _, join_key = games.create_game(session, "chainmail0000000", None, "clear")
        games.join_game(session, game.id, join_key, "chainmail0000000", 1)
    rules = EventRules.model_validate(event())
    with engine.begin() as connection:  # an event as the schema before the lists' keys holds it
        connection.execute(text(
            "INSERT INTO event (id, organiser_key_hash, hand_in_key_hash, name, rules, deadline, "
            "created_at) VALUES ('anevent000000000', '0', '0', 'Турнир', :rules, :at, :at)"),
            {"rules": rules.model_dump_json(), "at": NOW})
        connection.execute(text(
            "INSERT INTO event_list (id, event_id, player_key, player, roster_id, "
            "roster_version, document, handed_in_at) VALUES ('handedin00000000', :event, "
            "'бату', 'Бату', 'chainmail0000000', 2, :doc, :now)"),
            {"event": "anevent000000000", "doc": OLD["chainmail0000000"][-1], "now": NOW})
    with engine.connect() as connection:
        setups = connection.execute(text("SELECT setup, second_setup FROM game")).one()
    migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT setup, second_setup FROM game")).one() == setups
    with Session(engine) as session:
        kept = games.get_game(session, game.id)
        assert kept.rosters == [("chainmail0000000", 2), ("chainmail0000000", 1)]
        assert len(kept.state().sides) == 2
        (handed,) = events.lists(session, "anevent000000000")
    assert [u.id for u in handed.document.units] == ["u1", "u2"]  # type: ignore[attr-defined]
    assert _ids(_documents(engine, "event_list")[("handedin00000000",)]) == OLD_IDS[
        "chainmail0000000"]
