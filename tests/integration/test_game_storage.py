"""Games on a real database and a real server: they survive a restart, outlive their roster's
purge, and two players pressing "Next turn" at once roll one turn."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from sqlmodel import Session

from app.domain import RosterDocument
from app.services import games, rosters
from app.storage.tables import utcnow
from tests.helpers.databases import app_database
from tests.helpers.games import chainmail_army
from tests.helpers.servers import running_server


def _roster(session: Session) -> str:
    from pydantic import TypeAdapter

    document = TypeAdapter(RosterDocument).validate_python(chainmail_army())
    return rosters.create_roster(session, document).roster.id


def test_a_game_outlives_its_rosters_purge(session: Session) -> None:
    roster_id = _roster(session)
    game, _ = games.create_game(session, roster_id, 1, "clear")
    rosters.delete_roster(session, roster_id)
    assert rosters.purge_deleted(session, days=0, now=utcnow() + timedelta(seconds=1)) == 1
    kept = games.get_game(session, game.id)
    assert (kept.name, kept.roster_id, len(kept.setup["units"])) == ("Войско графа", roster_id, 3)


def test_two_players_pressing_next_turn_at_once_roll_one_turn(engine: object) -> None:
    with Session(engine) as session:  # type: ignore[arg-type]
        game, _ = games.create_game(session, _roster(session), 1, "off")
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
