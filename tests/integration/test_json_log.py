"""The JSON request log as a log collector reads it: one record a line, whatever a request's
path holds, and the traceback of an unhandled error carrying its request's id like every other
line. A real uvicorn process, since the traceback is the server's own line."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from tests.helpers.servers import PROJECT, free_port

pytestmark = pytest.mark.slow  # a real server

# The app as `muster serve` runs it, with one route that fails as a bug would.
SERVER = textwrap.dedent("""
    import sys, uvicorn
    from app.config import Settings
    from app.http.observability import uvicorn_log_config
    from app.main import create_app

    settings = Settings(_env_file=None, DATABASE_URL=sys.argv[1], log_format="json")
    app = create_app(settings)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]),
                log_config=uvicorn_log_config(settings))
""")


def test_every_json_record_is_one_line_and_a_500s_traceback_has_its_request_id(
        tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [sys.executable, "-c", SERVER, f"sqlite:///{tmp_path / 'muster.db'}", str(port)],
            cwd=PROJECT, stdout=sink, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        for path in ("/r/a%E2%80%A8b", "/r/a%E2%80%A9b", "/r/a%C2%85b", "/r/a%0Ab"):
            assert httpx.get(base + path).status_code == 404
        assert httpx.get(f"{base}/boom", headers={"X-Request-ID": "boom-7"}).status_code == 500
        time.sleep(0.5)  # the server's traceback line follows the answer
    finally:
        server.terminate()
        server.wait(timeout=15)
    text = log.read_text(encoding="utf-8")
    # Split as the strictest readers do, on every Unicode line boundary.
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    paths = {record.get("path") for record in records}
    assert {"/r/a\u2028b", "/r/a\u2029b", "/r/a\u0085b", "/r/a\nb"} <= paths
    failed = [record for record in records if record.get("request_id") == "boom-7"]
    assert any("RuntimeError: a bug" in record.get("error", "") for record in failed), failed
    assert any(record.get("status") == 500 for record in failed)
