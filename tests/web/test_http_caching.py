"""Caching by HTTP: the share view, the print sheet and the API's read answer an ETag and 304
to If-None-Match; static files have hashed addresses kept a year; answers are gzip-compressed
for clients that take it, with their security headers."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from app.http.security_headers import HEADERS
from tests.helpers.documents import army


def stored(client: TestClient) -> dict:
    created = client.post("/api/v1/rosters", json=army())
    assert created.status_code == 201
    return created.json()


def change(client: TestClient, made: dict, version: int) -> None:
    changed = client.put(f"/api/v1/rosters/{made['id']}", json=army(name="Другая"), headers={
        "Authorization": f"Bearer {made['edit_key']}", "If-Match": f'"v{version}"'})
    assert changed.status_code == 200


def test_the_api_read_answers_304_while_the_version_is_the_same(client: TestClient) -> None:
    made = stored(client)
    address = f"/api/v1/rosters/{made['id']}"
    first = client.get(address)
    assert first.headers["etag"] == '"v1"'
    again = client.get(address, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == '"v1"'
    assert client.get(address, headers={"If-None-Match": 'W/"v1", "v9"'}).status_code == 304
    change(client, made, 1)
    moved = client.get(address, headers={"If-None-Match": '"v1"'})
    assert moved.status_code == 200 and moved.headers["etag"] == '"v2"'


def test_the_share_view_and_the_print_sheet_answer_304_per_version_and_language(
        client: TestClient) -> None:
    made = stored(client)
    for address in (f"/r/{made['id']}", f"/r/{made['id']}/print"):
        first = client.get(address)
        tag = first.headers["etag"]
        assert first.status_code == 200 and re.fullmatch(r'"v1-en[^"]*"', tag), tag
        again = client.get(address, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.content == b""
        for name, value in HEADERS:
            assert again.headers[name.decode()] == value.decode()
        russian = client.get(address, headers={"If-None-Match": tag, "Accept-Language": "ru"})
        assert russian.status_code == 200 and russian.headers["etag"] != tag
    change(client, made, 1)
    for address in (f"/r/{made['id']}", f"/r/{made['id']}/print"):
        assert client.get(address).headers["etag"].startswith('"v2-en')


def test_static_files_have_hashed_addresses_kept_for_a_year(client: TestClient) -> None:
    page = client.get("/").text
    addresses = re.findall(r'(?:href|src)="(/static/[^"?]+\?v=[0-9a-f]{12})"', page)
    assert len(addresses) >= 4, page[:500]
    for address in addresses:
        kept = client.get(address)
        assert kept.status_code == 200
        assert kept.headers["cache-control"] == "public, max-age=31536000, immutable"
        for name, value in HEADERS:
            assert kept.headers[name.decode()] == value.decode()
        plain = client.get(address.partition("?")[0])
        assert "immutable" not in plain.headers.get("cache-control", "")
        stale = client.get(address.partition("?")[0] + "?v=000000000000")
        assert "immutable" not in stale.headers.get("cache-control", "")


def test_pages_and_api_answers_are_compressed_with_their_security_headers(
        client: TestClient) -> None:
    made = stored(client)
    for address in (f"/r/{made['id']}", f"/api/v1/rosters/{made['id']}", "/about"):
        packed = client.get(address, headers={"Accept-Encoding": "gzip"})
        assert packed.status_code == 200 and packed.headers["content-encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["vary"]
        for name, value in HEADERS:
            assert packed.headers[name.decode()] == value.decode()
        plain = client.get(address, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.text == packed.text
