"""Real uvicorn processes, for what a TestClient cannot show: concurrency, crashes, restarts."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

PROJECT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as when the machine loses the process."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def terminate(self, within: float = 30.0) -> int:
        """SIGTERM to the main process only, as `docker stop` or systemd sends it; its exit code.
        """
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=within)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()


@contextmanager
def running_server(database_url: str | None, log_dir: Path, *, workers: int = 1,
                   data_dir: Path | None = None, ready_within: float = 30.0,
                   muster: bool = False, env: dict[str, str] | None = None) -> Iterator[Server]:
    """`python -m uvicorn app.asgi:app` on a free port, on `database_url` or, when that is None,
    on the default SQLite file in `data_dir` (MUSTER_DATA_DIR).

    With `muster=True` it is `muster serve` instead: what operators run, migrating once before
    its workers start and logging every request. `env` adds settings (MUSTER_…)."""
    with running_servers(1, database_url, log_dir, workers=workers, data_dir=data_dir,
                         ready_within=ready_within, muster=muster, env=env) as (server,):
        yield server


@contextmanager
def running_servers(count: int, database_url: str | None, log_dir: Path, *, workers: int = 1,
                    data_dir: Path | None = None, ready_within: float = 30.0,
                    muster: bool = False,
                    env: dict[str, str] | None = None) -> Iterator[list[Server]]:
    """`count` separate servers on one database, launched together (so that they start, and
    migrate, at the same moment), each on its own port."""
    servers: list[Server] = []
    try:
        for _ in range(count):
            servers.append(launch(database_url, log_dir, workers=workers, data_dir=data_dir,
                                  muster=muster, env=env))
        for server in servers:
            wait_until_ready(server, ready_within)
        yield servers
    finally:
        for server in servers:
            server.stop()


def launch(database_url: str | None, log_dir: Path, *, workers: int = 1,
           data_dir: Path | None = None, muster: bool = False,
           env: dict[str, str] | None = None) -> Server:
    """Start a server and return at once, before it answers (see running_server)."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("DATABASE_URL", "MUSTER_DATABASE_URL", "MUSTER_DATA_DIR")}
    if database_url is not None:
        environment["DATABASE_URL"] = database_url
    if data_dir is not None:
        environment["MUSTER_DATA_DIR"] = str(data_dir)
    environment.update(env or {})
    if muster:
        # Without --workers, `muster serve` takes MUSTER_WORKERS from `env`.
        command = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                   "--port", str(port)] + (["--workers", str(workers)] if workers > 1 else [])
    else:
        command = [sys.executable, "-m", "uvicorn", "app.asgi:app", "--host", "127.0.0.1",
                   "--port", str(port), "--log-level", "warning"]
        if workers > 1:
            command += ["--workers", str(workers)]
    log = log_dir / f"uvicorn-{port}.log"
    with log.open("wb") as sink:
        # A session of its own, so stop/kill reach the workers and nothing else.
        process = subprocess.Popen(command, cwd=PROJECT, env=environment, stdout=sink,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    return Server(f"http://127.0.0.1:{port}", process, log)


def wait_until_ready(server: Server, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited with {server.process.returncode}:\n"
                               f"{server.log.read_text(errors='replace')}")
        try:
            if httpx.get(f"{server.url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"server not ready in {within}s:\n{server.log.read_text(errors='replace')}")
