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


@pytest.mark.parametrize("origin", ["https://127.0.0.1:8000", "http://127.0.0.1:8001",
                                    "http://127.0.0.1", "ftp://127.0.0.1:8000"])
def test_an_origin_of_another_scheme_or_port_than_the_host_is_refused(
        app_with: AppFactory, origin: str) -> None:
    # The scheme, the host and the port must all be the site's: an https page is not this
    # http server's.
    with app_with() as client:
        assert new_army_form(client, origin) == 403
        assert client.post("/api/v1/rosters", json=army(),
                           headers={**UPSTREAM, "Origin": origin}).status_code == 403
        assert stored_rosters(client) == 0
        assert new_army_form(client, "HTTP://127.0.0.1:8000") == 303


def test_the_default_port_may_be_named_or_left_out(app_with: AppFactory) -> None:
    with app_with() as client:
        client.get("/", headers={"Host": "muster.example:80"})
        made = client.post("/api/v1/rosters", json=army(), headers={
            "Host": "muster.example:80", "Origin": "http://muster.example"})
        assert made.status_code == 201


def test_the_apis_links_start_with_the_public_address_when_there_is_one(
        app_with: AppFactory) -> None:
    # An API client behind the proxy is given links it can share as they are.
    site = "https://muster.example/club"
    with app_with(public_url=site + "/") as client:
        made = client.post("/api/v1/rosters", headers=UPSTREAM, json=army())
        assert made.status_code == 201
        roster_id, key = made.json()["id"], made.json()["edit_key"]
        assert made.json()["view_url"] == f"{site}/r/{roster_id}"
        assert made.json()["edit_url"] == f"{site}/r/{roster_id}/edit?key={key}"
        read = client.get(f"/api/v1/rosters/{roster_id}", headers=UPSTREAM).json()
        assert read["view_url"] == f"{site}/r/{roster_id}"
        copied = client.post(f"/api/v1/rosters/{roster_id}/copy", headers=UPSTREAM).json()
        assert copied["edit_url"].startswith(f"{site}/r/{copied['id']}/edit?key=")
        imported = client.post("/api/v1/rosters/import", headers=UPSTREAM, json=army()).json()
        assert imported["view_url"] == f"{site}/r/{imported['id']}"


def test_without_a_public_address_the_apis_links_are_relative_whatever_the_host(
        app_with: AppFactory) -> None:
    # A Host header is the client's to write: a link meant for others does not take it.
    with app_with() as client:
        made = client.post("/api/v1/rosters", headers={"Host": "evil.example"}, json=army())
        roster_id = made.json()["id"]
        assert made.json()["view_url"] == f"/r/{roster_id}"
        assert made.json()["edit_url"].startswith(f"/r/{roster_id}/edit?key=")
