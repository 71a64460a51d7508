"""Games on a real database and a real server: they survive a restart, outlive their roster's
purge, and two players pressing "Next turn" at once roll one turn."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlmodel import Session

from app.services import games, rosters
from app.services.stored_rosters import digest
from app.storage.db import make_engine
from app.storage.tables import Game, GameEntry, utcnow
from app.systems import RosterDocument
from tests.helpers.databases import app_database, settings_for
from tests.helpers.games import chainmail_army
from tests.helpers.servers import running_server


def _roster(session: Session) -> str:
    from pydantic import TypeAdapter

    document = TypeAdapter(RosterDocument).validate_python(chainmail_army())
    return rosters.create_roster(session, document).roster.id


def test_a_game_outlives_its_rosters_purge(session: Session) -> None:
    roster_id = _roster(session)
    game, *_ = games.create_game(session, roster_id, 1, "clear")
    rosters.delete_roster(session, roster_id)
    assert rosters.purge_deleted(session, days=0, now=utcnow() + timedelta(seconds=1)) == 1
    kept = games.get_game(session, game.id)
    units = kept.setup["sides"][0]["units"]
    assert (kept.name, kept.roster_id, len(units)) == ("Войско графа", roster_id, 3)


def test_two_players_pressing_next_turn_at_once_roll_one_turn(engine: object) -> None:
    with Session(engine) as session:  # type: ignore[arg-type]
        game, *_ = games.create_game(session, _roster(session), 1, "off")
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def press() -> None:
        with Session(engine) as session:  # type: ignore[arg-type]
            barrier.wait()
            try:
                games.change(session, game.id, 1, games.next_turn())
                outcomes.append("played")
            except games.GameConflict:
                outcomes.append("stale")

    threads = [threading.Thread(target=press) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["played", "stale"]
    with Session(engine) as session:  # type: ignore[arg-type]
        after = games.get_game(session, game.id)
    assert (after.version, after.state().turn) == (2, 1)


@pytest.mark.slow
def test_a_game_survives_a_server_restart(tmp_path: Path) -> None:
    with app_database(tmp_path) as url:
        with running_server(url, tmp_path) as server:
            roster = httpx.post(f"{server.url}/api/v1/rosters", json=chainmail_army()).json()
            game = httpx.post(f"{server.url}/api/v1/games", json={"roster_id": roster["id"]}
                              ).json()
            played = httpx.post(f"{server.url}/api/v1/games/{game['id']}/turns", headers={
                "Authorization": f"Bearer {game['edit_key']}", "If-Match": '"v1"'}).json()
        with running_server(url, tmp_path) as again:
            read = httpx.get(f"{again.url}/api/v1/games/{game['id']}")
            assert read.status_code == 200
            assert read.json()["log"] == played["log"] and read.json()["turn"] == 1


def test_a_game_stored_before_castle_defenders_and_the_commanders_bonus_still_opens(
        api: TestClient, database_url: str) -> None:
    """A game stored before its setup said `castle_defenders` and before a morale roll named
    its modifiers: the API and both pages read it as it was (no defenders, the roll as
    logged), and it plays on."""
    roster = api.post("/api/v1/rosters", json=chainmail_army()).json()
    game = api.post("/api/v1/games", json={"roster_id": roster["id"], "weather": "off"}).json()
    old_roll = {"seq": 1, "turn": 0, "kind": "test", "unit": 0, "table": "morale",
                "test": "morale", "dice": [3, 4], "modifier": 0, "total": 7, "rating": None,
                "result": "rolled"}
    engine = make_engine(settings_for(database_url))
    with Session(engine) as session, session.begin():
        row = session.get(Game, game["id"])
        assert row is not None
        setup = json.loads(row.setup)
        assert setup.pop("castle_defenders") is False
        row.setup, row.entries = json.dumps(setup, ensure_ascii=False), 1
        session.add(GameEntry(game_id=game["id"], seq=1, created_at=utcnow(),
                              entry=json.dumps(old_roll)))
    engine.dispose()
    read = api.get(f"/api/v1/games/{game['id']}").json()
    assert (read["castle_defenders"], read["thresholds"]["morale_at"]) == (False, 13)
    assert read["log"] == [old_roll]
    for address in (f"/g/{game['id']}", game["edit_url"]):
        page = api.get(address)
        assert page.status_code == 200 and "Morale roll (modifier 0)" in page.text
    played = api.post(f"/api/v1/games/{game['id']}/turns", headers={
        "Authorization": f"Bearer {game['edit_key']}", "If-Match": '"v1"'})
    assert played.status_code == 200 and played.json()["turn"] == 1


def test_a_game_made_before_two_sides_opens_as_a_game_of_one_side(database_url: str) -> None:
    """A game stored at the schema before games had two sides (0006), its log without
    sides: after the migration it reads, plays and draws as the one side it was, and no one
    can join it (it had no join key). Down again, it is kept."""
    from alembic import command

    from app.storage.db import alembic_config, migrate, schema_connection

    engine = make_engine(settings_for(database_url))
    migrate(engine, "0006")
    game = {"id": "oldgame000000000", "setup": json.dumps({
        "ruleset": "chainmail", "name": "Орда", "nation": "mongols", "weather": "off",
        "units": [{"name": "Нукеры", "figures": 10, "mercenary": False, "peasants": False,
                   "troops": ["light_horse"], "horse": True, "flags": [], "rating": None}]})}
    entry = {"seq": 1, "turn": 0, "kind": "casualty", "unit": 0, "change": 1, "lost": 1}
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO game (id, edit_key_hash, roster_id, roster_version, ruleset, name, "
            "setup, version, entries, created_at, updated_at) VALUES (:id, :hash, 'r', 1, "
            "'chainmail', 'Орда', :setup, 2, 1, :now, :now)"),
            {**game, "hash": digest("old-key"), "now": "2026-12-01 10:00:00"})
        connection.execute(text("INSERT INTO game_entry (game_id, seq, created_at, entry) "
                                "VALUES (:id, 1, :now, :entry)"),
                           {"id": game["id"], "now": "2026-12-01 10:00:00",
                            "entry": json.dumps(entry)})
    migrate(engine)
    with Session(engine) as session:
        kept = games.get_game(session, game["id"])
        assert (len(kept.setup["sides"]), kept.joinable) == (1, False)
        assert kept.state().sides[0].units[0].lost == 1
        assert games.check_key(session, game["id"], "old-key") == 0
        played = games.change(session, game["id"], 2, games.undo())
        assert played.log[-1]["side"] == 0 and played.state().sides[0].undoable == []
    with schema_connection(engine) as connection, connection.begin():
        command.downgrade(alembic_config(connection), "0006")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM game")).scalar() == 1
    engine.dispose()
