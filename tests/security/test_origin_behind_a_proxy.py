"""Behind a proxy that passes its own Host on, a browser's Origin names the site's public address
(MUSTER_PUBLIC_URL), not the Host the server sees. A browser that sends Origin but no
Sec-Fetch-Site (older ones do) must still be able to use this site's own forms and API there,
and another site must still be refused."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.helpers.documents import army
from tests.security.conftest import AppFactory, stored_rosters

# The server sees the proxy's upstream Host, not the address the browser was at.
UPSTREAM = {"Host": "127.0.0.1:8000"}


def new_army_form(client: TestClient, origin: str) -> int:
    client.get("/", headers=UPSTREAM)
    return client.post("/rosters/new", headers={**UPSTREAM, "Origin": origin}, data={
        "csrf": client.cookies["muster_csrf"], "name": "Орда", "nation": "mongols",
        "points_limit": "300", "historical": "on", "ruleset": "chainmail"},
        follow_redirects=False).status_code


@pytest.mark.parametrize(("public_url", "origin"), [
    ("https://muster.example/club/", "https://muster.example"),
    ("https://Muster.Example:443", "https://muster.example"),  # the default port is left out
    ("http://muster.example:8080", "http://muster.example:8080"),
    ("http://[::1]:8080/", "http://[::1]:8080"),
])
def test_this_sites_public_origin_is_this_site(app_with: AppFactory, public_url: str,
                                               origin: str) -> None:
    with app_with(public_url=public_url) as client:
        assert new_army_form(client, origin) == 303
        created = client.post("/api/v1/rosters", json=army(),
                              headers={**UPSTREAM, "Origin": origin})
        assert created.status_code == 201, created.text
        assert stored_rosters(client) == 2


@pytest.mark.parametrize("origin", [
    "https://evil.example",
    "http://muster.example",          # the public site's name on another scheme
    "https://muster.example:8443",    # or another port
    "https://muster.example.evil.example",
    "https://evil.example/https://muster.example",
])
def test_other_origins_are_still_refused(app_with: AppFactory, origin: str) -> None:
    with app_with(public_url="https://muster.example/club") as client:
        assert new_army_form(client, origin) == 403
        refused = client.post("/api/v1/rosters", json=army(),
                              headers={**UPSTREAM, "Origin": origin})
        assert refused.status_code == 403
        assert "another site" in refused.json()["detail"]
        assert stored_rosters(client) == 0


def test_without_a_public_url_only_the_host_is_this_site(app_with: AppFactory) -> None:
    # No public address: the Origin a proxy's visitors send names a site the server does not
    # know of, and is refused as before.
    with app_with() as client:
        assert new_army_form(client, "https://muster.example") == 403
        assert client.post("/api/v1/rosters", json=army(),
                           headers={**UPSTREAM, "Origin": "https://muster.example"}
                           ).status_code == 403
        assert new_army_form(client, "http://127.0.0.1:8000") == 303
