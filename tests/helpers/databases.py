"""Throwaway databases: a SQLite file in a temp dir, or a fresh PostgreSQL schema per test.

PostgreSQL tests run when the server at MUSTER_TEST_POSTGRES_URL answers (default: the local
one) and are skipped otherwise, unless MUSTER_REQUIRE_POSTGRES=1 makes that a failure.

MUSTER_TEST_BACKEND chooses the database behind the whole app in tests that do not name one
(the `client` fixture, the browser tests' server): `sqlite` (the default) or `postgresql`, which
gives each of them a fresh schema and makes an unreachable server a failure, not a skip.
"""

from __future__ import annotations

import atexit
import functools
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app.config import Settings
from app.storage.db import make_engine, migrate

POSTGRES_URL = os.environ.get("MUSTER_TEST_POSTGRES_URL",
                              "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")
TEST_BACKEND = os.environ.get("MUSTER_TEST_BACKEND", "sqlite").strip().lower() or "sqlite"
if TEST_BACKEND not in BACKENDS:
    raise pytest.UsageError(f"MUSTER_TEST_BACKEND must be one of {', '.join(BACKENDS)}, "
                            f"not {TEST_BACKEND!r}")
POSTGRES_REQUIRED = (os.environ.get("MUSTER_REQUIRE_POSTGRES") == "1"
                     or TEST_BACKEND == "postgresql")


def sqlite_url(directory: Path) -> str:
    return f"sqlite:///{directory / 'muster.db'}"


def settings_for(url: str, **overrides: object) -> Settings:
    return Settings(_env_file=None, DATABASE_URL=url, **overrides)  # type: ignore[call-arg]


def _libpq(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@functools.cache
def _postgres_problem() -> str | None:
    try:
        with psycopg.connect(_libpq(POSTGRES_URL), connect_timeout=3):
            return None
    except psycopg.Error as error:
        return str(error).strip() or type(error).__name__


def require_postgres() -> None:
    problem = _postgres_problem()
    if problem is None:
        return
    where = make_url(POSTGRES_URL).render_as_string(hide_password=True)
    message = (f"PostgreSQL at {where} is unreachable ({problem}); set MUSTER_TEST_POSTGRES_URL "
               "to a reachable server to run the storage tests there")
    if POSTGRES_REQUIRED:
        pytest.fail(f"MUSTER_REQUIRE_POSTGRES=1 but {message}", pytrace=False)
    pytest.skip(message)


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A URL whose connections live in a new, empty schema, dropped afterwards."""
    require_postgres()
    schema = f"muster_test_{secrets.token_hex(6)}"
    with psycopg.connect(_libpq(POSTGRES_URL), autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield (make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
               .render_as_string(hide_password=False))
    finally:
        with psycopg.connect(_libpq(POSTGRES_URL), autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@contextmanager
def database(backend: str, directory: Path) -> Iterator[str]:
    """A URL of an empty database of the given backend ("sqlite" or "postgresql")."""
    if backend == "sqlite":
        yield sqlite_url(directory)
    else:
        with fresh_schema() as url:
            yield url


@contextmanager
def app_database(directory: Path, *, migrated: bool = False) -> Iterator[str]:
    """An empty database for the app under test, on the backend MUSTER_TEST_BACKEND names.

    `migrated`: a database at head already, so the app's migration on start finds nothing to
    do (a tenth of a second a test, spent once): on SQLite a copy of one file migrated once
    for the whole run; on PostgreSQL one schema per test process, migrated once and emptied
    of every row before each test (a process runs one test at a time). The app's own
    migration from an empty database is what tests/integration checks.
    """
    if migrated and TEST_BACKEND == "sqlite":
        shutil.copyfile(_migrated_sqlite_file(), directory / "muster.db")
        yield sqlite_url(directory)
        return
    if migrated:
        yield _emptied_postgres_schema()
        return
    with database(TEST_BACKEND, directory) as url:
        yield url


def at_head(url: str) -> str:
    """`url`, an empty database from `database`, brought to head where that is cheap: a SQLite
    file is a copy of the one migrated once for the run (a fifth of a second a test sooner); a
    PostgreSQL schema is left to the migration its user runs, which finds a copy at head."""
    if url.startswith("sqlite:///"):
        path = Path(make_url(url).database or "")
        if not path.exists():
            shutil.copyfile(_migrated_sqlite_file(), path)
    return url


# This process's migrated PostgreSQL schema (its URL and the migrations' record at head), and
# what drops it: at exit, or when it is made anew.
_SHARED: dict[str, Any] = {}
_SHARED_DROP = ExitStack()
atexit.register(_SHARED_DROP.close)


def _emptied_postgres_schema() -> str:
    """The process's migrated schema with every row gone. One that an earlier test moved off
    head (tests/integration/test_health.py does) is dropped and made anew. A connection an
    earlier test left holding a lock is a failure in 10 s, not a hang."""
    if _SHARED:
        with psycopg.connect(_libpq(_SHARED["url"]), autocommit=True) as connection:
            connection.execute("SET lock_timeout = '10s'")
            if _record(connection) == _SHARED["record"]:
                tables = [name for (name,) in connection.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() "
                    "AND tablename <> 'alembic_version'")]
                connection.execute("TRUNCATE " + ", ".join(f'"{name}"' for name in tables)
                                   + " RESTART IDENTITY CASCADE")
                return str(_SHARED["url"])
        _SHARED_DROP.close()
    url = _SHARED_DROP.enter_context(fresh_schema())
    engine = make_engine(settings_for(url))
    try:
        migrate(engine)
    finally:
        engine.dispose()
    with psycopg.connect(_libpq(url), autocommit=True) as connection:
        _SHARED.update(url=url, record=_record(connection))
    return url


def _record(connection: psycopg.Connection[Any]) -> list[tuple[Any, ...]]:
    return connection.execute("SELECT version_num FROM alembic_version ORDER BY 1").fetchall()


@functools.cache
def _migrated_sqlite_file() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="muster-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    engine = make_engine(settings_for(sqlite_url(folder)))
    try:
        migrate(engine)
    finally:
        engine.dispose()  # the last connection closed: the WAL is written into the file
    return folder / "muster.db"
