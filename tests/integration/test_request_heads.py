"""An endless request head costs the server operators run (`muster serve`) no memory, and the
server goes on answering."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.helpers.servers import running_server

pytestmark = pytest.mark.slow


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_an_endless_head_is_refused_and_costs_the_server_no_memory(tmp_path: Path) -> None:
    with running_server(None, tmp_path, data_dir=tmp_path, muster=True) as server:
        where = urlsplit(server.url)
        before = rss_kb(server.process.pid)
        refused: list[bytes] = []
        for _ in range(4):
            with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                line = b"X-A: " + b"a" * 16_384 + b"\r\n"
                try:
                    for _ in range(1_000):  # 16 MB, never finished, unless refused first
                        sock.sendall(line)
                except OSError:  # closed by the server, as it should be
                    pass
                sock.settimeout(1)  # answered or not, the connection is left here
                try:
                    refused.append(sock.recv(200))
                except OSError:
                    refused.append(b"")
        time.sleep(0.2)
        # 4 × 16 MB sent; the worker kept none of it (the server's own pid: one worker here).
        assert rss_kb(server.process.pid) - before < 16 * 1024, (before, rss_kb(server.process.pid))
        # A head within the bound is answered, and the server goes on answering.
        big = {f"x-{n}": "b" * 1000 for n in range(8)}
        with httpx.Client(base_url=server.url, timeout=10) as http:
            assert http.get("/healthz", headers=big).status_code == 200
            assert http.get("/healthz").status_code == 200
