"""The plain request log cannot be forged or made to write terminal escapes by an address; a
client that leaves mid-body is one line (499), not a 500 with a traceback; and a 500 carries
the security headers as every other answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.http.observability import escaped
from app.http.security_headers import HEADERS
from app.main import create_app
from tests.helpers.databases import settings_for
from tests.integration.test_health import access_lines


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    built = create_app(settings_for(f"sqlite:///{tmp_path / 'muster.db'}"))

    @built.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(built):  # its lifespan: the database opened
        yield built


@pytest.mark.parametrize("raw, shown", [
    ("/r/x%0a2026-01-01T00:00:00.000Z%20INFO%20muster.access%20GET%20/%20200",
     "/r/x%0A2026-01-01T00:00:00.000Z%20INFO%20muster.access%20GET%20/%20200"),
    ("/r/%1b[31mred%1b[0m", "/r/%1B[31mred%1B[0m"),
    ("/r/a%0db", "/r/a%0Db"), ("/r/a%e2%80%a8b", "/r/a%E2%80%A8b"), ("/r/%25", "/r/%25"),
])
def test_an_address_cannot_forge_a_log_line_or_write_an_escape(
        app: FastAPI, capsys: pytest.CaptureFixture[str], raw: str, shown: str) -> None:
    with TestClient(app) as client:
        capsys.readouterr()
        client.get(raw)
    err = capsys.readouterr().err
    lines = access_lines(err)
    assert len(lines) == 1 and f" GET {shown} 404 " in lines[0], err
    assert "\x1b" not in err and "\r" not in err and "\u2028" not in err


def test_escaping_keeps_readable_text() -> None:
    assert escaped("/r/Орда-1_x") == "/r/Орда-1_x"
    assert escaped("/a b") == "/a%20b"


def call(app: FastAPI, scope: dict[str, Any], messages: list[dict[str, Any]]) -> list[Any]:
    """The app's answer (what it sent) to a request whose receive gives `messages`."""
    sent: list[Any] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop(0)
        await asyncio.sleep(3600)
        raise AssertionError("nothing more to receive")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    # In a thread of its own: the test client's event loop may run in this one.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, app(scope, receive, send)).result()
    return sent


def test_a_client_leaving_mid_body_is_one_line_with_499_and_no_traceback(
        app: FastAPI, capsys: pytest.CaptureFixture[str]) -> None:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/v1/rosters",
             "raw_path": b"/api/v1/rosters", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"content-length", b"100000")],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    capsys.readouterr()
    sent = call(app, scope, [{"type": "http.request", "body": b'{"name": "x', "more_body": True},
                             {"type": "http.disconnect"}])
    err = capsys.readouterr().err
    assert sent == []  # nobody to answer
    lines = access_lines(err)
    assert len(lines) == 1 and " POST /api/v1/rosters 499 " in lines[0], err
    assert "Traceback" not in err and "500" not in err


def test_a_500_carries_the_security_headers_and_the_request_id(app: FastAPI) -> None:
    with TestClient(app, raise_server_exceptions=False) as client:
        failed = client.get("/boom", headers={"X-Request-ID": "boom-1"})
    assert failed.status_code == 500
    for name, value in HEADERS:
        assert failed.headers[name.decode()] == value.decode()
    assert failed.headers["x-request-id"] == "boom-1" and "boom-1" in failed.text
