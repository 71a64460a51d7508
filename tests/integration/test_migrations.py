"""The Alembic migrations: they build the schema the models declare, from nothing or from the
previous head, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text
from sqlmodel import Session, SQLModel

import app.storage.tables  # noqa: F401  (the tables compared against)
from app.services import devices, revisions, rosters
from app.storage.db import (
    alembic_config,
    current_revision,
    make_engine,
    migrate,
    schema_connection,
)
from tests.helpers.databases import settings_for, sqlite_url

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def empty(database_url: str) -> Iterator[Engine]:
    built = make_engine(settings_for(database_url))
    yield built
    built.dispose()


def differences(engine: Engine) -> list[object]:
    with engine.connect() as connection:
        return list(compare_metadata(MigrationContext.configure(connection), SQLModel.metadata))


def heads() -> tuple[str, str]:
    """(previous head, head) as the migration scripts declare them."""
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_revision("head")
    assert head is not None and isinstance(head.down_revision, str)
    return head.down_revision, head.revision


def test_upgrading_an_empty_database_gives_exactly_the_models_schema(empty: Engine) -> None:
    migrate(empty)
    assert current_revision(empty) == heads()[1]
    assert differences(empty) == []


def test_the_schema_comparison_notices_a_missing_migration(empty: Engine) -> None:
    migrate(empty, "0001")
    found = differences(empty)
    assert any(d[0] == "add_table" and d[1].name == "device" for d in found  # type: ignore[index]
               if isinstance(d, tuple))


def test_upgrading_from_the_first_schema_keeps_rosters_and_their_history(
        empty: Engine) -> None:
    head = heads()[1]
    migrate(empty, "0001")
    # Rows as the first schema held them (no search_name yet), written by hand.
    document = ('{"name": "Орда Субэдэя", "ruleset": "chainmail", "nation": "mongols", '
                '"points_limit": 300, "units": [], "engines": []}')
    with empty.begin() as connection:
        connection.execute(text(
            "INSERT INTO roster (id, edit_key_hash, version, document, name, ruleset, nation, "
            "total, points_limit, valid, created_at, updated_at) VALUES ('oldroster0000000', "
            "'0', 2, :doc, 'Орда Субэдэя', 'chainmail', 'mongols', 0, 300, false, "
            ":now, :now)"), {"doc": document, "now": "2024-05-01 10:00:00"})
        for version in (1, 2):
            connection.execute(text(
                "INSERT INTO revision (roster_id, version, created_at, document) "
                "VALUES ('oldroster0000000', :v, :now, :doc)"),
                {"v": version, "doc": document, "now": "2024-05-01 10:00:00"})
    migrate(empty)
    assert current_revision(empty) == head
    assert differences(empty) == []
    with Session(empty) as session:
        kept = rosters.get_roster(session, "oldroster0000000")
        assert (kept.name, kept.version) == ("Орда Субэдэя", 2)
        assert [r.version for r in revisions.list_revisions(session, kept.id)] == [1, 2]
        device_id, _ = devices.new_device(session)
        devices.remember(session, device_id, kept.id, False)
        assert [m.id for m in devices.my_rosters(session, device_id, query="ОРДА")] == [kept.id]


def test_migrating_again_changes_nothing(empty: Engine) -> None:
    migrate(empty)
    with Session(empty) as session:
        roster_id = rosters.create_roster(session, _army()).roster.id
    migrate(empty)
    with Session(empty) as session:
        assert rosters.get_roster(session, roster_id).version == 1


def test_downgrading_to_the_previous_head_and_back_works(empty: Engine) -> None:
    from alembic import command

    previous, head = heads()
    migrate(empty)
    with schema_connection(empty) as connection, connection.begin():
        command.downgrade(alembic_config(connection), previous)
    assert current_revision(empty) == previous
    migrate(empty)
    assert differences(empty) == []


def test_sqlite_runs_in_wal_mode_with_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = make_engine(settings_for(sqlite_url(tmp_path / "fresh" / "dir")))
    try:
        migrate(engine)
        with engine.connect() as connection:
            pragma = {name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                      for name in ("journal_mode", "foreign_keys", "busy_timeout")}
    finally:
        engine.dispose()
    assert pragma["journal_mode"] == "wal"
    assert pragma["foreign_keys"] == 1
    assert pragma["busy_timeout"] > 0


def _army() -> object:
    from pydantic import TypeAdapter

    from app.systems import RosterDocument
    from tests.helpers.documents import army

    return TypeAdapter(RosterDocument).validate_python(army())  # type: ignore[arg-type]


# 0006: the verdict in three words, worked out from each stored document by the rule systems.
def _generic(flags: list[str], figures: int = 10) -> str:
    return ('{"name": "Войско", "ruleset": "chainmail", "nation": "generic", '
            '"points_limit": 300, "historical": true, "units": [{"name": "Кешиг", '
            f'"flags": {json.dumps(flags)}, "lines": [{{"troop": "medium_horse", '
            f'"figures": {figures}, "weapon": "lance"}}]}}], "engines": []}}')


# Rows as 0005 held them: (id, document, valid). The warning-only army was stored as valid,
# which said nothing of its warning; a document that no longer reads keeps what valid said.
OLD_ROWS = [("legal00000000000", _generic(["commander"]), True),
            ("warnings00000000", _generic([]), True),
            ("broken0000000000", _generic(["commander"], figures=100), False),
            ("unreadable000000", '{"ruleset": "chainmail"}', False),
            ("unreadable000001", "not json", True)]
OLD_VERDICTS = {"legal00000000000": "legal", "warnings00000000": "warnings",
                "broken0000000000": "broken", "unreadable000000": "broken",
                "unreadable000001": "legal"}


def _insert_at_0005(engine: Engine, rows: list[tuple[str, str, bool]]) -> None:
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO roster (id, edit_key_hash, version, document, name, search_name, "
            "ruleset, nation, total, points_limit, valid, created_at, updated_at) VALUES "
            "(:id, '0', 1, :doc, 'Войско', 'войско', 'chainmail', 'generic', 0, 300, :valid, "
            ":now, :now)"),
            [{"id": i, "doc": doc, "valid": valid, "now": "2026-11-01 10:00:00"}
             for i, doc, valid in rows])
        connection.execute(text(
            "INSERT INTO revision (roster_id, version, created_at, document) "
            "VALUES (:id, 1, :now, :doc)"),
            [{"id": i, "doc": doc, "now": "2026-11-01 10:00:00"} for i, doc, _ in rows])


def _column(engine: Engine, name: str) -> dict[str, object]:
    with engine.connect() as connection:
        return dict(connection.execute(text(f"SELECT id, {name} FROM roster")).all())  # type: ignore[arg-type]


def _downgrade(engine: Engine, revision: str) -> None:
    from alembic import command

    with schema_connection(engine) as connection, connection.begin():
        command.downgrade(alembic_config(connection), revision)


def test_upgrading_to_0006_judges_every_stored_roster(empty: Engine) -> None:
    migrate(empty, "0005")
    _insert_at_0005(empty, OLD_ROWS)
    migrate(empty, "0006")
    assert _column(empty, "verdict") == OLD_VERDICTS


def test_upgrading_to_0006_judges_past_one_batch(empty: Engine) -> None:
    batch = ScriptDirectory.from_config(alembic_config()).get_revision("0006").module.BATCH
    migrate(empty, "0005")
    # One more row than a batch, the last of them (by id) the only broken one.
    rows = [(f"legal{n:011d}", _generic(["commander"]), True) for n in range(batch)]
    _insert_at_0005(empty, [*rows, ("zbroken000000000", _generic([], figures=100), False)])
    migrate(empty, "0006")
    verdicts = _column(empty, "verdict")
    assert len(verdicts) == batch + 1
    assert verdicts.pop("zbroken000000000") == "broken"
    assert set(verdicts.values()) == {"legal"}


def test_downgrading_from_0006_gives_valid_back_and_keeps_the_history(empty: Engine) -> None:
    migrate(empty, "0005")
    _insert_at_0005(empty, OLD_ROWS)
    migrate(empty, "0006")
    _downgrade(empty, "0005")
    assert current_revision(empty) == "0005"
    assert {i: bool(v) for i, v in _column(empty, "valid").items()} == {
        i: verdict != "broken" for i, verdict in OLD_VERDICTS.items()}
    with empty.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM revision")).scalar() == len(OLD_ROWS)
    migrate(empty, "0006")
    assert _column(empty, "verdict") == OLD_VERDICTS



@pytest.mark.slow
def test_the_alembic_command_line_keeps_the_history_through_rebuilt_tables(
        tmp_path: Path) -> None:
    """`alembic upgrade` / `downgrade` connect by themselves: on SQLite they too must keep
    foreign keys off while a migration rebuilds the roster table (0002 does, both ways), or
    dropping its old copy cascades to every revision."""
    url = sqlite_url(tmp_path)
    engine = make_engine(settings_for(url))
    document = ('{"name": "Войско", "ruleset": "chainmail", "nation": "generic", '
                '"points_limit": 300, "units": [], "engines": []}')
    try:
        migrate(engine, "0001")
        with engine.begin() as connection:
            connection.execute(text(
                "INSERT INTO roster (id, edit_key_hash, version, document, name, ruleset, "
                "total, valid, created_at, updated_at) VALUES ('oldroster0000000', '0', 1, "
                ":doc, 'Войско', 'chainmail', 0, true, :now, :now)"),
                {"doc": document, "now": "2024-05-01 10:00:00"})
            connection.execute(text(
                "INSERT INTO revision (roster_id, version, created_at, document) "
                "VALUES ('oldroster0000000', 1, :now, :doc)"),
                {"doc": document, "now": "2024-05-01 10:00:00"})
        for step in (["upgrade", "head"], ["downgrade", "0001"]):
            subprocess.run([sys.executable, "-m", "alembic", *step], cwd=ROOT, check=True,
                           env={**os.environ, "DATABASE_URL": url}, capture_output=True)
            with engine.connect() as connection:
                kept = connection.execute(text("SELECT count(*) FROM revision")).scalar()
            assert kept == 1, step
    finally:
        engine.dispose()


def _lists(engine: Engine) -> dict[str, object]:
    with engine.connect() as connection:
        return dict(connection.execute(text("SELECT player, player_key FROM event_list")).all())


def test_upgrading_to_0010_keys_players_by_a_digest_and_keeps_keyless_lists_their_own(
        empty: Engine) -> None:
    from app.services import events
    from app.systems.events import EventRules
    from app.systems.stored_documents import read_stored
    from tests.helpers.events import event

    migrate(empty, "0009")
    rules = EventRules.model_validate(event()).model_dump_json()
    document = json.dumps({"name": "Орда", "ruleset": "chainmail", "nation": "mongols",
                           "units": []})
    with empty.begin() as connection:
        connection.execute(text(
            "INSERT INTO event (id, organiser_key_hash, hand_in_key_hash, name, rules, "
            "deadline, created_at) VALUES ('anevent000000000', '0', '0', 'Турнир', :rules, "
            "'2099-01-01 00:00:00', '2026-12-01 00:00:00')"), {"rules": rules})
        for list_id, player in (("alist00000000000", "Straße"), ("blist00000000000", "Бату")):
            connection.execute(text(
                "INSERT INTO event_list (id, event_id, player_key, player, document, "
                "handed_in_at) VALUES (:id, 'anevent000000000', :key, :player, :doc, "
                "'2026-12-02 00:00:00')"),
                {"id": list_id, "key": player.casefold(), "player": player, "doc": document})
    migrate(empty)
    assert differences(empty) == []
    assert _lists(empty) == {p: events.player_key(p) for p in ("Straße", "Бату")}
    with Session(empty) as session:
        assert [h.player for h in events.lists(session, "anevent000000000")] == ["Straße", "Бату"]
        with pytest.raises(events.NameTaken):  # no key: nobody replaces it
            events.hand_in(session, "anevent000000000", "STRASSE", None,
                           document=read_stored(document))
    _downgrade(empty, "0009")
    assert _lists(empty) == {"Straße": "strasse", "Бату": "бату"}
    migrate(empty)
    assert differences(empty) == []
