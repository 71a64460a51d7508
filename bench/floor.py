"""The framework's floor on this machine: what the ordinary path costs before Muster does any
work of its own, beside GET /healthz and the API's read of the same server in the same run.

Run: `python bench/floor.py [--seconds 3] [--connections 16]`

The server is Muster's own app (its middleware, its dependencies, one worker on SQLite), with
two routes added here and nowhere else:

    GET /floor/thread     a plain `def` answering {"status": "ok"}: healthz plus the trip to a
                          worker thread every route that reads the database makes
    GET /floor/row/{id}   a plain `def` with the request's session that SELECTs one roster's
                          stored JSON by its id and answers it as it is: no validation, no
                          pricing, no serialisation

If /floor/row is itself under 1/3 of healthz, no read of a stored roster by the ordinary path
(thread, session, SELECT) can reach that ratio on this machine, whatever the route does.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from fastapi import FastAPI, Response
from sqlalchemy import text

from app.deps import SessionDep
from app.main import create_app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.load import free_port, positive, roster  # noqa: E402


def app() -> FastAPI:
    """Muster's app with the two floor routes (uvicorn's --factory)."""
    muster = create_app()

    @muster.get("/floor/thread")
    def thread() -> dict[str, str]:
        return {"status": "ok"}

    @muster.get("/floor/row/{roster_id}")
    def row(roster_id: str, session: SessionDep) -> Response:
        with session.begin():
            document = session.execute(text("SELECT document FROM roster WHERE id = :id"),
                                       {"id": roster_id}).scalar_one()
        return Response(document, media_type="application/json")

    return muster


def wrk(url: str, connections: int, seconds: int) -> float:
    run = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", url],
                         capture_output=True, text=True, check=True)
    line = next(ln for ln in run.stdout.splitlines() if ln.startswith("Requests/sec"))
    if "Non-2xx" in run.stdout:
        raise RuntimeError(f"{url}: answers not 200\n{run.stdout}")
    return float(line.split()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive(int), default=3)
    parser.add_argument("--connections", type=positive(int), default=16)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        parser.error("wrk is not installed (apt-get install wrk)")
    with tempfile.TemporaryDirectory(prefix="muster-floor-") as folder:
        port = free_port()
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder}/muster.db",
               "MUSTER_CREATION_LIMIT": "0", "MUSTER_LOG_LEVEL": "warning"}
        server = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "bench.floor:app", "--port",
             str(port), "--log-level", "warning", "--no-access-log"], cwd=ROOT, env=env)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    httpx.get(f"{base}/healthz", timeout=1)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            made = httpx.post(f"{base}/api/v1/rosters", json=roster(20)).raise_for_status()
            roster_id = made.json()["id"]
            paths = {"GET /healthz": "/healthz", "GET /floor/thread": "/floor/thread",
                     "GET /floor/row/{id}": f"/floor/row/{roster_id}",
                     "GET /api/v1/rosters/{id}": f"/api/v1/rosters/{roster_id}"}
            for path in paths.values():  # warm up, not counted
                wrk(base + path, args.connections, 1)
            rates = {label: wrk(base + path, args.connections, args.seconds)
                     for label, path in paths.items()}
        finally:
            server.terminate()
            server.wait(timeout=30)
    health = rates["GET /healthz"]
    print(f"SQLite, 1 worker, {args.connections} connections, {args.seconds} s each")
    for label, rate in rates.items():
        print(f"    {label:<26} {rate:7.0f} req/s   {rate / health:4.2f}× healthz")


if __name__ == "__main__":
    main()
