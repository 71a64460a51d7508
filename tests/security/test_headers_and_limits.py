"""Security headers on every answer, and the body size limit on every route that takes a body.

The GET routes and static files are read from the app, so a new page is checked by existing.
Every answer — pages, JSON, static files, the API documentation, redirects and refusals
(401, 403, 404, 405, 413, 422, 429) — must forbid framing, sniffing and inline scripts, and
send no Referer (edit links carry their key in the address).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.helpers.databases import settings_for, sqlite_url
from tests.helpers.documents import army
from tests.security.conftest import AppFactory, routes_of, stored_rosters

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def check_headers(response: httpx.Response) -> None:
    where = f"{response.request.method} {response.request.url.path} → {response.status_code}"
    csp = response.headers.get("content-security-policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}
    assert directives.get("frame-ancestors") == ["'none'"], where
    assert directives.get("default-src") == ["'self'"], where
    assert directives.get("script-src") == ["'self'"], where  # no inline script, no eval
    assert directives.get("object-src") == ["'none'"], where
    assert directives.get("base-uri") == ["'self'"], where
    assert response.headers.get("x-content-type-options") == "nosniff", where
    assert response.headers.get("referrer-policy") == "no-referrer", where
    assert response.headers.get("x-frame-options") == "DENY", where


def sample_path(path: str, roster_id: str, game_id: str | None = None) -> str:
    """A path with real values for its parameters; a new parameter needs a value here."""
    values = {"{roster_id}": roster_id, "{ruleset_id}": "chainmail", "{version}": "1",
              "{lang}": "ru", "{game_id}": game_id or roster_id, "{event_id}": roster_id,
              "{list_id}": roster_id, "{slug}": "weather",
              "{system_id}": "line_and_square"}
    for name, value in values.items():
        path = path.replace(name, value)
    assert "{" not in path, f"give the parameter of {path} a sample value in sample_path()"
    return path


@pytest.fixture
def owned(client: TestClient) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """The client as the owner of a stored roster (edit grant in its cookies)."""
    created = client.post("/api/v1/rosters", json=army()).json()
    assert client.get(f"/r/{created['id']}/edit?key={created['edit_key']}").status_code == 200
    yield client, created


def test_every_get_route_answers_with_the_security_headers(
        owned: tuple[TestClient, dict[str, str]]) -> None:
    client, roster = owned
    game = client.post("/api/v1/games", json={"roster_id": roster["id"]}).json()
    checked = 0
    for route in routes_of(client.app):
        if "GET" in (route.methods or ()):
            response = client.get(sample_path(route.path, roster["id"], game["id"]),
                                  follow_redirects=False)
            assert response.status_code < 500
            check_headers(response)
            checked += 1
    assert checked >= 20, "the route walk found too few routes"


def test_every_static_file_answers_with_the_security_headers_and_its_own_type(
        client: TestClient) -> None:
    files = 0
    for route in routes_of(client.app):
        directory = getattr(getattr(route, "app", None), "directory", None)
        if directory is None:
            continue
        for path in Path(directory).rglob("*"):
            if path.is_file() and not path.name.endswith(".map"):
                response = client.get(f"{route.path}/{path.relative_to(directory).as_posix()}")
                assert response.status_code == 200, path
                check_headers(response)
                assert response.headers["content-type"], path
                files += 1
    assert files >= 5


def test_refusals_and_errors_carry_the_security_headers_too(
        owned: tuple[TestClient, dict[str, str]], app_with: AppFactory) -> None:
    client, roster = owned
    answers = [
        client.get("/no/such/page"),  # 404 of the router
        client.get("/r/nosuchroster"),  # 404 page
        client.get("/static/no-such-file.css"),  # 404 of the static files
        client.delete("/api/v1/rulesets"),  # 405
        client.get("/api/v1/rosters/not!an!id"),  # 422
        client.post("/api/v1/price", content=b"{not json", headers={
            "Content-Type": "application/json"}),  # 422
        client.put(f"/api/v1/rosters/{roster['id']}", json=army()),  # 401
        client.put(f"/api/v1/rosters/{roster['id']}", json=army(),
                   headers={"Authorization": "Bearer wrong"}),  # 403
        client.post("/api/v1/rosters", json=army(), headers={
            "Sec-Fetch-Site": "cross-site"}),  # 403 other site
        client.post(f"/r/{roster['id']}/edit", data={}),  # 403 page form without CSRF
        client.post("/api/v1/price", content=b"x" * (2 * 1024 * 1024)),  # 413
        client.get(f"/r/{roster['id']}/edit?key={roster['edit_key']}",
                   follow_redirects=False),  # 303 that takes the key out of the address
    ]
    with app_with(creation_limit=1) as limited:
        limited.post("/api/v1/rosters", json=army())
        answers.append(limited.post("/api/v1/rosters", json=army()))  # 429
    assert sorted({a.status_code for a in answers}) == [303, 401, 403, 404, 405, 413, 422, 429]
    for answer in answers:
        check_headers(answer)


def body_routes() -> list[tuple[str, str]]:
    app = create_app(settings_for("sqlite://", migrate_on_start=False))
    return sorted((method, route.path) for route in routes_of(app)
                  for method in (route.methods or set()) & (UNSAFE - {"DELETE"}))


@pytest.mark.parametrize(("method", "path"), body_routes())
def test_every_route_that_takes_a_body_refuses_one_over_the_limit_and_stores_nothing(
        app_with: AppFactory, method: str, path: str) -> None:
    with app_with(max_body_bytes=4096) as client:
        created = client.post("/api/v1/rosters", json=army()).json()
        game = client.post("/api/v1/games", json={"roster_id": created["id"]}).json()
        url = sample_path(path, created["id"], game["id"])
        before = stored_rosters(client), client.get(f"/api/v1/rosters/{created['id']}").json()
        big = b'{"name": "' + b"x" * 5000 + b'"}'

        def streamed() -> Iterator[bytes]:  # no Content-Length: the server must count
            for start in range(0, len(big), 1000):
                yield big[start:start + 1000]

        headers = {"Content-Type": "application/json", "Authorization":
                   f"Bearer {created['edit_key']}", "If-Match": '"v1"'}
        for body in (big, streamed()):
            refused = client.request(method, url, content=body, headers=headers)
            assert refused.status_code == 413, (url, refused.text[:200])
            assert "4096" in refused.json()["message"]
            check_headers(refused)
        after = stored_rosters(client), client.get(f"/api/v1/rosters/{created['id']}").json()
        assert after == before


def test_the_default_limit_is_one_mebibyte(client: TestClient) -> None:
    document = army()
    document["note"] = "x" * (1024 * 1024)
    assert client.post("/api/v1/price", json=document).status_code == 413
    assert client.post("/api/v1/price", json=army()).status_code == 200


@pytest.mark.e2e
def test_the_api_documentation_renders_within_the_content_security_policy(
        tmp_path: Path, chromium: str) -> None:
    """/docs in a real browser: Swagger UI loads from this server, draws every operation, and
    the browser reports no blocked script or style."""
    from concurrent.futures import ThreadPoolExecutor

    from playwright.sync_api import sync_playwright

    from tests.helpers.servers import running_server

    def check() -> None:
        with running_server(sqlite_url(tmp_path), tmp_path) as server, \
                sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                                 args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                complaints: list[str] = []
                page.on("console", lambda message: complaints.append(message.text)
                        if message.type in ("error", "warning") else None)
                page.goto(f"{server.url}/docs")
                page.wait_for_selector(".opblock", timeout=20_000)
                described = httpx.get(f"{server.url}/openapi.json").json()["paths"]
                operations = sum(len(item) for item in described.values())
                assert page.locator(".opblock").count() == operations
                assert not complaints, complaints
            finally:
                browser.close()

    # Playwright's sync API refuses a thread with a running event loop, which earlier tests
    # of the same run may leave behind: drive the browser from a thread of its own.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(check).result()
