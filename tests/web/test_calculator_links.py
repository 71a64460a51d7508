"""A Chainmail roster's editor and share view link the table calculators its army uses: the
siege calculator when it has engines, the tournament scorer when it has knights."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.test_weather import RU


def army(engines: bool, knights: bool) -> dict[str, Any]:
    return {"name": "Крестоносцы", "ruleset": "chainmail", "nation": "generic",
            "units": [{"name": "Рыцари", "flags": ["knights"] if knights else [],
                       "lines": [{"troop": "heavy_horse", "figures": 6, "weapon": "lance"}]}],
            "engines": [{"kind": "bombard", "count": 1}] if engines else []}


@pytest.mark.parametrize(("engines", "knights"), [(True, True), (True, False), (False, True),
                                                  (False, False)])
def test_the_links_follow_the_army(client: TestClient, engines: bool, knights: bool) -> None:
    created = client.post("/api/v1/rosters", json=army(engines, knights))
    assert created.status_code == 201, created.text
    body = created.json()
    for url in (body["view_url"], body["edit_url"]):
        page = client.get(url).text
        assert ('href="/calc/siege" id="siege-link"' in page) is engines, url
        assert ('href="/calc/tournament" id="tournament-link"' in page) is knights, url
    if engines:
        assert "Калькулятор осады" in client.get(body["view_url"], headers=RU).text
