"""Apps with chosen settings, and the stored rosters counted straight from the database."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func
from sqlmodel import Session, select

from app.http.allowed_methods import every_route
from app.main import create_app
from app.storage.tables import Roster
from tests.helpers.databases import settings_for, sqlite_url

AppFactory = Callable[..., AbstractContextManager[TestClient]]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The API fuzzer is marked slow, and collecting it draws schemathesis' coverage cases of
    every operation (a quarter of a minute, in every worker): a run whose -m leaves out every
    slow test, as `pytest` does, does not collect it."""
    if collection_path.name != "test_api_fuzz.py" or not config.getoption("markexpr"):
        return None
    return True if _leaves_out_every_slow_test(config.getoption("markexpr")) else None


def _leaves_out_every_slow_test(markexpr: str) -> bool:
    """Whether -m markexpr is false for a test marked slow, whatever other marks it has."""
    try:
        from _pytest.mark.expression import Expression  # pytest's own reading of -m

        expression = Expression.compile(markexpr)
        others = sorted(expression.idents() - {"slow"})
    except Exception:  # another pytest's reading of -m: collect it, as before
        return False

    def marked(marks: set[str]) -> Callable[..., bool]:
        return lambda name, /, **_arguments: name in marks

    return not any(expression.evaluate(marked({"slow", *chosen}))
                   for size in range(len(others) + 1)
                   for chosen in itertools.combinations(others, size))


@pytest.fixture
def app_with(tmp_path: Path) -> AppFactory:
    """`with app_with(creation_limit=3, client=("10.0.0.1", 5000)) as client:` — the app on a
    SQLite file of its own, with the given settings; `client` is the peer address it sees."""

    @contextmanager
    def make(client: tuple[str, int] = ("testclient", 50000), database_url: str | None = None,
             **overrides: Any) -> Iterator[TestClient]:
        app = create_app(settings_for(database_url or sqlite_url(tmp_path), **overrides))
        with TestClient(app, client=client) as test_client:
            yield test_client

    return make


def stored_rosters(client: TestClient) -> int:
    """Rosters in the database, deleted ones included: what a refused request must not add."""
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        return int(session.exec(select(func.count()).select_from(Roster)).one())


def routes_of(app: Any) -> list[Any]:
    """Every route of the app, included routers flattened: the walk the app itself makes
    to answer `Allow` (app/http/allowed_methods.py)."""
    return list(every_route(app.routes))
