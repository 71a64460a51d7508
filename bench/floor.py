"""The framework's floor on this machine: what the ordinary path costs before Muster does any
work of its own, beside GET /healthz and the API's read of the same server in the same run.

Run: `python bench/floor.py [--seconds 3] [--connections 16]`

The server is Muster's own app (its middleware, its dependencies, one worker on SQLite), with
three routes added here and nowhere else:

    GET /floor/thread     a plain `def` answering {"status": "ok"}: healthz plus the trip to a
                          worker thread every route that reads the database makes
    GET /floor/row/{id}   a plain `def` with the request's session that SELECTs one roster's
                          stored JSON by its id and answers it as it is: no validation, no
                          pricing, no serialisation
    POST /floor/document  an `async def` taking the price's body (a 20-unit roster document,
                          read and validated by FastAPI as POST /api/v1/price reads it) and
                          answering {"status": "ok"}: the price without the pricing

If /floor/row is itself under 1/3 of healthz, no read of a stored roster by the ordinary path
(thread, session, SELECT) can reach that ratio on this machine, whatever the route does; as
/floor/document is to the price.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import httpx
from fastapi import Body, FastAPI, Response
from sqlalchemy import text

from app.deps import SessionDep
from app.domain import RosterDocument
from app.main import create_app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.load import positive, roster, serving  # noqa: E402


def app() -> FastAPI:
    """Muster's app with the three floor routes (uvicorn's --factory)."""
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

    @muster.post("/floor/document")
    async def document(roster: Annotated[RosterDocument, Body()]) -> dict[str, str]:  # type: ignore[valid-type]
        return {"status": "ok"}

    return muster


def wrk(url: str, connections: int, seconds: int, script: Path | None = None) -> float:
    extra = ["-s", str(script)] if script else []
    run = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", *extra, url],
                         capture_output=True, text=True, check=True)
    line = next(ln for ln in run.stdout.splitlines() if ln.startswith("Requests/sec"))
    if "Non-2xx" in run.stdout:
        raise RuntimeError(f"{url}: answers not 200\n{run.stdout}")
    return float(line.split()[1])


def routes(base: str, folder: Path) -> dict[str, tuple[str, Path | None]]:
    """What is measured: each route's address, and wrk's script for a POST's body."""
    made = httpx.post(f"{base}/api/v1/rosters", json=roster(20)).raise_for_status()
    roster_id = made.json()["id"]
    post = folder / "post.lua"
    body = json.dumps(roster(20), ensure_ascii=False)
    post.write_text('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                    f"wrk.body = [==[{body}]==]\n", encoding="utf-8")
    return {"GET /healthz": ("/healthz", None), "GET /floor/thread": ("/floor/thread", None),
            "GET /floor/row/{id}": (f"/floor/row/{roster_id}", None),
            "GET /api/v1/rosters/{id}": (f"/api/v1/rosters/{roster_id}", None),
            "POST /floor/document": ("/floor/document", post),
            "POST /api/v1/price": ("/api/v1/price", post)}


def measure(folder: Path, connections: int, seconds: int) -> dict[str, float]:
    with serving(f"sqlite:///{folder / 'muster.db'}", folder, factory="bench.floor:app") as port:
        base = f"http://127.0.0.1:{port}"
        measured = routes(base, folder)
        for path, script in measured.values():  # warm up, not counted
            wrk(base + path, connections, 1, script)
        return {label: wrk(base + path, connections, seconds, script)
                for label, (path, script) in measured.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive(int), default=3)
    parser.add_argument("--connections", type=positive(int), default=16)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        parser.error("wrk is not installed (apt-get install wrk)")
    with tempfile.TemporaryDirectory(prefix="muster-floor-") as folder:
        rates = measure(Path(folder), args.connections, args.seconds)
    health = rates["GET /healthz"]
    print(f"SQLite, 1 worker, {args.connections} connections, {args.seconds} s each")
    for label, rate in rates.items():
        print(f"    {label:<26} {rate:7.0f} req/s   {rate / health:4.2f}× healthz")


if __name__ == "__main__":
    main()
