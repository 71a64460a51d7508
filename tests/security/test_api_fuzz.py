"""Every operation of the app's own OpenAPI description, fuzzed by schemathesis on a fresh
database: no answer is a server error, and every answer has a documented status code, a
documented content type, documented headers and a body matching the documented schema.

Of schemathesis' other checks, two are left out on purpose, because their idea of the contract
is not this API's: `negative_data_rejection` wants every request
outside the JSON Schema refused, but the API reads what pydantic's lax mode reads unambiguously
(`"mercenary": 0` is false) and ignores query parameters it does not know, as HTTP APIs do;
`positive_data_acceptance` wants every request inside the schema accepted, but some rules are
not expressible in it (the import body is documented as "an object" and must be an export or a
roster document; `If-Match` is a string and must be an ETag from GET). Refusals of both kinds
are tested with hand-written cases in tests/web. (Keys are proved in test_capabilities.py;
the `Allow` header of a 405, which Starlette fills from the first route of a path only, is not
checked.)

A third of the cases are pointed at rosters that exist, some with their real edit key, so that
reads, changes, deletions and copies answer with real documents and not only with 404.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis import checks as generic
from schemathesis.python.asgi import ASGIClient
from schemathesis.specs.openapi import checks as openapi

from app.main import create_app
from tests.helpers.databases import fresh_schema, settings_for, sqlite_url
from tests.helpers.documents import army
from tests.security.conftest import routes_of

CHECKS = [generic.not_a_server_error, openapi.status_code_conformance,
          openapi.content_type_conformance, openapi.response_headers_conformance,
          openapi.response_schema_conformance]
# Per operation and database: the whole file stays under a minute. Dig deeper by hand with
# MUSTER_FUZZ_EXAMPLES=500.
EXAMPLES = int(os.environ.get("MUSTER_FUZZ_EXAMPLES", "25"))
BASE_URL = "http://testserver"


@dataclass(frozen=True)
class Known:
    id: str
    key: str


def _documents() -> list[dict[str, object]]:
    return [army(), {"name": "Шеренга", "ruleset": "line_and_square"},
            {"name": "Фаланга", "ruleset": "formation_density"}]


@dataclass
class Fuzzed:
    app: FastAPI
    session: ASGIClient
    known: list[Known]


def _fuzzed(url: str) -> Iterator[Fuzzed]:
    # No creation limit: the fuzzer creates hundreds of rosters from one address.
    app = create_app(settings_for(url, creation_limit=0))
    with TestClient(app) as client:  # runs the lifespan: the database is open until the end
        known = []
        for document in _documents():
            created = client.post("/api/v1/rosters", json=document)
            assert created.status_code == 201, created.text
            known.append(Known(created.json()["id"], created.json()["edit_key"]))
        yield Fuzzed(app, ASGIClient(app), known)


@pytest.fixture(scope="module")
def on_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    yield from _fuzzed(sqlite_url(tmp_path_factory.mktemp("fuzz")))


@pytest.fixture(scope="module")
def on_postgresql() -> Iterator[Fuzzed]:
    with fresh_schema() as url:
        yield from _fuzzed(url)


# The description does not depend on the database; the app that answers does (see fixtures).
SCHEMA = schemathesis.openapi.from_dict(
    create_app(settings_for("sqlite://", migrate_on_start=False)).openapi())
FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                         suppress_health_check=list(HealthCheck))


def _fuzz(case: schemathesis.Case, api: Fuzzed) -> None:
    """Send the case; a third of those naming a roster are pointed at an existing one (half of
    these with its real key), chosen from the generated id so that a case replays the same."""
    generated = case.path_parameters.get("roster_id")
    if generated is not None:
        spin = zlib.crc32(repr(generated).encode())
        if spin % 3 == 0:
            target = api.known[spin // 3 % len(api.known)]
            case.path_parameters["roster_id"] = target.id
            if spin % 2 and case.headers is not None and "Authorization" in case.headers:
                case.headers["Authorization"] = f"Bearer {target.key}"
    case.call_and_validate(session=api.session, base_url=BASE_URL, checks=CHECKS)


@SCHEMA.parametrize()
@FUZZ_SETTINGS
def test_every_operation_answers_as_documented_on_sqlite(
        case: schemathesis.Case, on_sqlite: Fuzzed) -> None:
    _fuzz(case, on_sqlite)


@SCHEMA.parametrize()
@FUZZ_SETTINGS
def test_every_operation_answers_as_documented_on_postgresql(
        case: schemathesis.Case, on_postgresql: Fuzzed) -> None:
    _fuzz(case, on_postgresql)


def test_the_fuzzed_description_covers_every_api_route(on_sqlite: Fuzzed) -> None:
    """A route left out of the OpenAPI description would be left out of the fuzzing."""
    described = {(result.ok().method.upper(), result.ok().path)
                 for result in SCHEMA.get_all_operations()}
    routes = {(method, route.path) for route in routes_of(on_sqlite.app)
              if route.path and route.path.startswith("/api/")
              for method in route.methods or () if method != "HEAD"}
    assert ("POST", "/api/v1/rosters") in routes  # the walk itself works
    assert routes <= described, routes - described
