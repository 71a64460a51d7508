"""Every operation of the app's own OpenAPI description, fuzzed by schemathesis on a fresh
database: no answer is a server error; every answer has a documented status code, a documented
content type, documented headers and a body matching the documented schema; every request
inside the schema is accepted and every request outside it refused.

What the fuzzing found was fixed in the API and in its description, not left out: types are
strict as JSON Schema states them (`0` is no `false`, "10" no number, 13.0 is 13), unknown
query parameters are refused by name, repeated flags are `uniqueItems`, `If-Match` is required
with the ETag's pattern, the import body is described as what it takes (a roster document,
bare or exported, as JSON or as a multipart field), a roster or unit named in a body that does
not exist answers 404, and an import names no export field it does not read. (The print sheet
is a page and is left out of the description; its refusals are tested in tests/web.)

A request inside the schema may still meet the roster's state: 404 for an id that names no
roster, 403 for a key that is not its key, 409 for a lost race, and 410 for a roster an
earlier case deleted with its real key — each documented for its operation. A roster's PATCH
takes edits of its own rule system: the body's schema holds every system's edits, so an edit
of another system, or one naming a unit the roster does not have, is a request inside the
schema answered 422 (naming `body.edits.<i>.<field>`). Likewise a roster document whose units,
lines or engines repeat an id is inside the schema (JSON Schema cannot say that a property is
unique across a list's items) and answered 422 naming the repeated id. A method an
address does not take is answered 405 with every method it does take in `Allow`.

A third of the cases are pointed at rosters (and games) that exist, some with their real key
and, as a client does, the ETag it last read, so that reads, changes, deletions and copies answer
with real documents and not only with 404.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis import checks as generic
from schemathesis.config import SchemathesisConfig
from schemathesis.core.parameters import ParameterLocation
from schemathesis.python.asgi import ASGIClient
from schemathesis.specs.openapi import checks as openapi

from app.main import create_app
from tests.helpers.databases import fresh_schema, settings_for, sqlite_url
from tests.helpers.documents import army
from tests.helpers.events import event
from tests.security.conftest import routes_of

CHECKS = [generic.not_a_server_error, openapi.status_code_conformance,
          openapi.content_type_conformance, openapi.response_headers_conformance,
          openapi.response_schema_conformance, openapi.positive_data_acceptance,
          openapi.negative_data_rejection, openapi.unsupported_method,
          openapi.allow_header_conformance]
# schemathesis' own list of what a request inside the schema may meet, and 410 (see above).
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "410", "429", "5xx"]
# Per operation and database: the whole file stays under a minute. Dig deeper by hand with
# MUSTER_FUZZ_EXAMPLES=500.
EXAMPLES = int(os.environ.get("MUSTER_FUZZ_EXAMPLES", "25"))
BASE_URL = "http://testserver"
# About a minute of the suite's time on two cores: run by .ci/run and `pytest -m ""`.
pytestmark = pytest.mark.slow


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
    client: TestClient
    known: list[Known]
    games: list[Known]
    events: list[tuple[str, str, str]]  # id, organiser key, hand-in key


def _fuzzed(url: str) -> Iterator[Fuzzed]:
    # No creation limit: the fuzzer creates hundreds of rosters from one address.
    app = create_app(settings_for(url, creation_limit=0))
    with TestClient(app) as client:  # runs the lifespan: the database is open until the end
        known = []
        for document in _documents():
            created = client.post("/api/v1/rosters", json=document)
            assert created.status_code == 201, created.text
            known.append(Known(created.json()["id"], created.json()["edit_key"]))
        games = []
        for roster in known[:2]:  # a game of the Chainmail and of the Line and Square roster
            started = client.post("/api/v1/games", json={"roster_id": roster.id})
            assert started.status_code == 201, started.text
            games.append(Known(started.json()["id"], started.json()["edit_key"]))
        events = []
        past = (datetime.now(UTC) - timedelta(days=1)).isoformat()
        for rules in (event(), event(deadline=past)):  # open for lists; closed, to publish
            made = client.post("/api/v1/events", json=rules)
            assert made.status_code == 201, made.text
            body = made.json()
            events.append((body["id"], body["organiser_key"], body["hand_in_key"]))
        handed = client.post(f"/api/v1/events/{events[0][0]}/lists", json={
            "player": "Бату", "roster_id": known[0].id},
            headers={"Authorization": f"Bearer {events[0][2]}"})
        assert handed.status_code == 201, handed.text
        yield Fuzzed(app, ASGIClient(app), client, known, games, events)


@pytest.fixture(scope="module")
def on_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    yield from _fuzzed(sqlite_url(tmp_path_factory.mktemp("fuzz")))


@pytest.fixture(scope="module")
def on_postgresql() -> Iterator[Fuzzed]:
    with fresh_schema() as url:
        yield from _fuzzed(url)


# The description does not depend on the database; the app that answers does (see fixtures).
SCHEMA = schemathesis.openapi.from_dict(
    create_app(settings_for("sqlite://", migrate_on_start=False)).openapi(),
    config=SchemathesisConfig.from_dict({
        "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
        # An edit of the PATCH body is any rule system's (the body names none); the roster's
        # own system refuses another's, and an id the roster does not have (see above).
        # A document may repeat an id (see above): the operations that take one may say so.
        "operations": [{"include-method": method, "include-path": path,
                        "checks": {"positive_data_acceptance": {
                            "expected-statuses": [*ACCEPTED, "422"]}}}
                       for method, path in (("PATCH", "/api/v1/rosters/{roster_id}"),
                                            ("PUT", "/api/v1/rosters/{roster_id}"),
                                            ("POST", "/api/v1/rosters"),
                                            ("POST", "/api/v1/rosters/import"),
                                            ("POST", "/api/v1/price"),
                                            ("POST", "/api/v1/events/{event_id}/lists"))]}))
FUZZ_SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                         suppress_health_check=list(HealthCheck))


def _fuzz(case: schemathesis.Case, api: Fuzzed) -> None:
    """Send the case; a third of those naming a roster are pointed at an existing one (half of
    these with its real key and, as a client does, the ETag it last read), chosen from the
    generated id so that a case replays the same. A path made to break the schema is left."""
    name = "game_id" if "game_id" in case.path_parameters else "roster_id"
    generated = case.path_parameters.get(name)
    path = case.meta.components.get(ParameterLocation.PATH) if case.meta else None
    if generated is not None and (path is None or path.mode == GenerationMode.POSITIVE):
        spin = zlib.crc32(repr(generated).encode())
        if spin % 3 == 0:
            known = api.games if name == "game_id" else api.known
            target = known[spin // 3 % len(known)]
            case.path_parameters[name] = target.id
            if spin % 2 and case.headers is not None and "Authorization" in case.headers:
                case.headers["Authorization"] = f"Bearer {target.key}"
                if "If-Match" in case.headers:
                    what = "games" if name == "game_id" else "rosters"
                    current = api.client.get(f"/api/v1/{what}/{target.id}")
                    if "etag" in current.headers:  # not once an earlier case deleted it
                        case.headers["If-Match"] = current.headers["etag"]
    _aim_at_an_event(case, api)
    case.call_and_validate(session=api.session, base_url=BASE_URL, checks=CHECKS)


def _aim_at_an_event(case: schemathesis.Case, api: Fuzzed) -> None:
    """As for rosters: a third of the cases naming an event name one that exists, half of
    these with one of its real keys (the organiser's or the hand-in one, by the spin), and a
    hand-in names an existing roster."""
    generated = case.path_parameters.get("event_id")
    path = case.meta.components.get(ParameterLocation.PATH) if case.meta else None
    if generated is None or (path is not None and path.mode != GenerationMode.POSITIVE):
        return
    spin = zlib.crc32(repr(generated).encode())
    if spin % 3:
        return
    event_id, organiser, hand_in = api.events[spin // 3 % len(api.events)]
    case.path_parameters["event_id"] = event_id
    if spin % 2 and case.headers is not None and "Authorization" in case.headers:
        case.headers["Authorization"] = f"Bearer {organiser if spin % 4 < 2 else hand_in}"
    if isinstance(case.body, dict) and "roster_id" in case.body and spin % 5 < 3:
        case.body["roster_id"] = api.known[spin % len(api.known)].id
        case.body.pop("version", None)


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
