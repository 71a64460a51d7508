"""A roster of most of the body limit is taken by `muster serve` (what operators run) on
create, replace and import; a body one byte over the limit is refused 413, whether it says its
length or comes chunked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.servers import running_server

pytestmark = pytest.mark.slow
LIMIT = 1024 * 1024  # the default MUSTER_MAX_BODY_BYTES


def large_roster(name: str = "Большая орда") -> dict[str, Any]:
    """A valid roster of about 900 KB: many units, each with a long note."""
    units = [{"name": f"Отряд {n}", "mercenary": False, "flags": [], "note": "x" * 1900,
              "lines": [{"troop": "light_horse", "figures": 10, "weapon": "composite_bow"}]}
             for n in range(450)]
    return {"name": name, "ruleset": "chainmail", "nation": "mongols", "points_limit": None,
            "historical": False, "fortifications": False, "note": "", "units": units,
            "engines": []}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    folder = tmp_path_factory.mktemp("large-bodies")
    with running_server(None, folder, data_dir=folder, muster=True,
                        env={"MUSTER_CREATION_LIMIT": "0"}) as running, \
            httpx.Client(base_url=running.url, timeout=60) as http:
        yield http


def test_a_900_kb_roster_is_created_replaced_and_imported(server: httpx.Client) -> None:
    roster = large_roster()
    body = json.dumps(roster).encode()
    assert 850_000 < len(body) < LIMIT - 1024
    created = server.post("/api/v1/rosters", content=body,
                          headers={"content-type": "application/json"})
    assert created.status_code == 201, created.text[:300]
    made = created.json()
    replaced = server.put(f"/api/v1/rosters/{made['id']}",
                          content=json.dumps(large_roster("Другая орда")).encode(),
                          headers={"content-type": "application/json", "If-Match": '"v1"',
                                   "Authorization": f"Bearer {made['edit_key']}"})
    assert replaced.status_code == 200, replaced.text[:300]
    exported = server.get(f"/api/v1/rosters/{made['id']}/export.json")
    assert exported.status_code == 200 and len(exported.content) > 850_000
    imported = server.post("/api/v1/rosters/import", content=exported.content,
                           headers={"content-type": "application/json"})
    assert imported.status_code == 201, imported.text[:300]
    assert imported.json()["document"]["name"] == "Другая орда"


def test_a_body_one_byte_over_the_limit_is_refused_declared_or_chunked(
        server: httpx.Client) -> None:
    over = b" " * (LIMIT + 1)

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(over), 64 * 1024):
            yield over[start:start + 64 * 1024]

    for content in (over, chunks()):
        refused = server.post("/api/v1/rosters", content=content,
                              headers={"content-type": "application/json"})
        assert refused.status_code == 413, refused.text[:300]
        assert "request body over" in refused.json()["message"]
    exactly = server.post("/api/v1/price", content=b" " * LIMIT,
                          headers={"content-type": "application/json"})
    assert exactly.status_code == 422  # within the limit: read, and refused as no JSON
