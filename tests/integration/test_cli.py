"""The operator's commands: `muster migrate`, `muster backup`, `muster purge`."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import TypeAdapter
from sqlalchemy import update
from sqlmodel import Session, col

from app import cli
from app.config import get_settings
from app.services import rosters
from app.services.errors import RosterNotFound
from app.storage.db import current_revision, make_engine, migrate
from app.storage.tables import Roster, utcnow
from app.systems import RosterDocument
from tests.helpers.databases import POSTGRES_URL, settings_for, sqlite_url
from tests.helpers.documents import army


@pytest.fixture
def database_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The commands read settings from the environment; point them at a temp SQLite file."""
    (tmp_path / "data").mkdir()  # a DATABASE_URL's directory must exist: Muster makes none
    url = sqlite_url(tmp_path / "data")
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.delenv("LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def store(url: str, count: int) -> list[str]:
    engine = make_engine(settings_for(url))
    migrate(engine)
    document = TypeAdapter(RosterDocument).validate_python(army())  # type: ignore[arg-type]
    with Session(engine) as session:
        made = [rosters.create_roster(session, document).roster.id for _ in range(count)]
    engine.dispose()
    return made


def test_migrate_brings_a_new_database_to_the_head_revision(
        database_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["migrate"]) == 0
    engine = make_engine(settings_for(database_env))
    assert current_revision(engine) is not None
    engine.dispose()
    assert "revision" in capsys.readouterr().out


def test_migrate_reports_an_unknown_revision_without_a_traceback(
        database_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["migrate", "--revision", "nonexistent"]) == 1
    assert "migration failed" in capsys.readouterr().err


def test_backup_copies_every_roster_while_the_database_is_open(
        database_env: str, tmp_path: Path) -> None:
    made = store(database_env, 5)
    live = make_engine(settings_for(database_env))
    with live.connect() as holding:  # a server's connection stays open meanwhile
        holding.exec_driver_sql("SELECT 1")
        assert cli.main(["backup", str(tmp_path / "copy.db")]) == 0
    live.dispose()
    with sqlite3.connect(tmp_path / "copy.db") as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    restored = make_engine(settings_for(f"sqlite:///{tmp_path / 'copy.db'}"))
    with Session(restored) as session:
        assert [rosters.get_roster(session, i).version for i in made] == [1] * 5
    restored.dispose()


def test_backup_into_a_directory_writes_a_dated_file(database_env: str, tmp_path: Path) -> None:
    store(database_env, 1)
    shelf = tmp_path / "backups"
    shelf.mkdir()
    assert cli.main(["backup", str(shelf)]) == 0
    [written] = shelf.iterdir()
    assert written.name.startswith("muster-") and written.suffix == ".db"


def test_backup_never_overwrites_a_file(database_env: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    store(database_env, 1)
    existing = tmp_path / "old.db"
    existing.write_bytes(b"precious")
    assert cli.main(["backup", str(existing)]) == 1
    assert existing.read_bytes() == b"precious"
    assert "exists" in capsys.readouterr().err


def test_backup_of_a_missing_database_says_so(database_env: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["backup", str(tmp_path / "copy.db")]) == 1
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "copy.db").exists()


def test_backup_refuses_postgresql_and_points_to_pg_dump(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", POSTGRES_URL)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    get_settings.cache_clear()
    try:
        assert cli.main(["backup", "anywhere.db"]) == 2
    finally:
        get_settings.cache_clear()
    message = capsys.readouterr().err
    assert "pg_dump" in message and "PostgreSQL" in message and "используйте" in message
    assert "'postgresql://" in message  # a URL pg_dump understands, without "+psycopg"


def test_purge_removes_only_rosters_deleted_over_thirty_days_ago(
        database_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    old, recent, alive = store(database_env, 3)
    engine = make_engine(settings_for(database_env))
    with Session(engine) as session:
        rosters.delete_roster(session, old)
        rosters.delete_roster(session, recent)
        session.exec(update(Roster).where(col(Roster.id) == old)
                     .values(deleted_at=utcnow() - timedelta(days=30, minutes=1)))
        session.commit()
    assert cli.main(["purge"]) == 0
    assert "purged 1" in capsys.readouterr().out
    with Session(engine) as session:
        with pytest.raises(RosterNotFound):
            rosters.check_edit_key(session, old, "x")
        assert rosters.restore_roster(session, recent).id == recent
        assert rosters.get_roster(session, alive).id == alive
    engine.dispose()
