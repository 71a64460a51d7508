"""Fixtures shared by every test layer.

`client` is the whole app on a database of its own, migrated and empty: a SQLite file, or with
MUSTER_TEST_BACKEND=postgresql its test process's PostgreSQL schema, emptied of every row
before the test. The storage fixtures (`database_url`,
`engine`, `session`, `api`) are parametrized: each test using them runs on SQLite and on
PostgreSQL (a fresh schema per test; see tests/helpers/databases.py) — only on PostgreSQL in a
MUSTER_TEST_BACKEND=postgresql run, which follows a full run that already covered SQLite.
`chromium` is Debian's Chromium, the one way a test gets a browser; such a test is marked e2e.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.main import create_app
from app.storage.db import make_engine, migrate
from tests.helpers.databases import (
    BACKENDS,
    TEST_BACKEND,
    app_database,
    at_head,
    database,
    settings_for,
)

# What a MUSTER_TEST_BACKEND=postgresql run (CI's second pass) runs: the tests whose app is on
# the backend that names. The others ran already in the first pass on exactly the same
# databases: their own SQLite files, or both backends through the `backend` fixture (with
# PostgreSQL required there, as CI requires it). A test that opens the app's database in its
# body (app_database, TEST_BACKEND) says so with the `app_backend` mark.
APP_BACKEND_FIXTURES = frozenset({"client", "live_server"})


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "app_backend: the app under test is on "
                            "MUSTER_TEST_BACKEND's database (run again on PostgreSQL)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    # `pytest` leaves out what is marked e2e; a browser test without the mark would start
    # Chromium in the fast suite (it did, for seconds a test). Failed before its fixtures start.
    if "chromium" in getattr(item, "fixturenames", ()) and not item.get_closest_marker("e2e"):
        pytest.fail(f"{item.nodeid} starts Chromium but is not marked e2e: mark it "
                    "(pytestmark = pytest.mark.e2e) so that `pytest` leaves it out",
                    pytrace=False)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if TEST_BACKEND == "sqlite":
        return
    kept = [item for item in items if item.get_closest_marker("app_backend")
            or APP_BACKEND_FIXTURES & set(getattr(item, "fixturenames", ()))]
    if len(kept) < len(items):
        chosen = set(kept)
        config.hook.pytest_deselected(items=[item for item in items if item not in chosen])
        items[:] = kept


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium. Where it is missing the test skips saying how to install it; with
    MUSTER_REQUIRE_BROWSER=1 (as in CI) it fails instead."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        message = ("Chromium is not installed: install Debian's package "
                   "(`apt-get install chromium`) to run the browser tests")
        if os.environ.get("MUSTER_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_database(tmp_path, migrated=True) as url, \
            TestClient(create_app(settings_for(url))) as test_client:
        yield test_client


# The backends a storage test runs on (see the module's docstring).
STORAGE_BACKENDS = BACKENDS if TEST_BACKEND == "sqlite" else (TEST_BACKEND,)


@pytest.fixture(params=STORAGE_BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """An empty database (no tables yet) on each backend."""
    with database(backend, tmp_path) as url:
        yield url


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on a database migrated to head."""
    built = make_engine(settings_for(at_head(database_url)))
    migrate(built)
    yield built
    built.dispose()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    with Session(engine) as opened:
        yield opened


@pytest.fixture
def api(database_url: str) -> Iterator[TestClient]:
    """The app (migrating on start) on each backend."""
    with TestClient(create_app(settings_for(at_head(database_url)))) as test_client:
        yield test_client


@pytest.fixture(scope="module", params=STORAGE_BACKENDS)
def module_api(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app (migrating on start) on each backend for all the tests of a module that use it,
    with no creation limit: for tests that never read what another test stored, where a
    database migrated for each test would cost more than the test itself."""
    with database(str(request.param), tmp_path_factory.mktemp("module-api")) as url, \
            TestClient(create_app(settings_for(url, creation_limit=0))) as test_client:
        yield test_client
