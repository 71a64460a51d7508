"""Editing a 100-unit roster in the browser builder: server time per change, page weight.

Starts a real uvicorn process on loopback (SQLite in a temporary folder), opens the editor the
way a browser does (edit link → cookie, CSRF cookie), then sends htmx change requests one after
another and reads each answer's `Server-Timing` header (the application's own time), next to
GET /healthz of the same server in the same run. Run: `python bench/edit.py [--changes N]`.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.price import free_port  # noqa: E402

PRESETS = [("horse_archers", "light_horse", "composite_bow"), ("knights", "heavy_horse", "lance"),
           ("crossbowmen", "light_foot", "crossbow"), ("pikes", "heavy_foot", "pike")]


def roster(units: int) -> dict:
    return {"name": "Bench", "ruleset": "chainmail", "nation": "mongols", "points_limit": 5000,
            "units": [{"name": f"{PRESETS[i % 4][0]} {i}", "flags": [],
                       "lines": [{"troop": PRESETS[i % 4][1], "figures": 10 + i % 7,
                                  "weapon": PRESETS[i % 4][2]}]} for i in range(units)]}


def server_ms(response: httpx.Response) -> float:
    value = response.headers["server-timing"].split("dur=")[1]
    return float(value)


def summary(label: str, values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, int(len(ordered) * 0.95) - 1)]
    return (f"{label:<34} median {statistics.median(values):7.2f} ms   p95 {p95:7.2f} ms   "
            f"max {ordered[-1]:7.2f} ms   (n={len(values)})")


def page_weight(client: httpx.Client, path: str) -> tuple[int, int]:
    """Bytes of a page and the static files it links, raw and gzip-compressed."""
    html = client.get(path).content
    raw, packed = len(html), len(gzip.compress(html))
    for asset in ("/static/css/app.css", "/static/js/app.js", "/static/htmx.min.js",
                  "/static/favicon.svg"):
        body = client.get(asset).content
        raw += len(body)
        packed += len(gzip.compress(body))
    return raw, packed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=200)
    parser.add_argument("--units", type=int, default=100)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="muster-bench-"))
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'muster.db'}"}
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.asgi:app", "--port", str(port),
         "--log-level", "warning"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if httpx.get(base + "/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        with httpx.Client(base_url=base) as client:
            created = client.post("/api/v1/rosters", json=roster(args.units)).json()
            rid = created["id"]
            client.get(f"/r/{rid}/edit?key={created['edit_key']}")
            client.get(f"/r/{rid}/edit")
            csrf = client.cookies["muster_csrf"]
            version = created["version"]
            edits, healthz = [], []
            for n in range(args.changes):
                unit = n % args.units
                troop, weapon = PRESETS[unit % 4][1], PRESETS[unit % 4][2]
                response = client.post(f"/r/{rid}/edit", headers={"HX-Request": "true"}, data={
                    "csrf": csrf, "version": str(version), "op": "update_unit",
                    # A different number each time a unit comes round again: a change that
                    # changes nothing stores no version.
                    "unit": str(unit), "unit_name": f"unit {unit}", "figures_0": str(5 + n % 23),
                    "troop_0": troop, "weapon_0": weapon})
                assert response.status_code == 200, response.text[:300]
                version += 1
                edits.append(server_ms(response))
                healthz.append(server_ms(client.get("/healthz")))
            # Actions that reorder the list redraw the whole editor: measure them too.
            redraws = []
            for n in range(args.changes // 4):
                action = "duplicate" if n % 2 == 0 else "remove_unit"
                response = client.post(f"/r/{rid}/edit", headers={"HX-Request": "true"}, data={
                    "csrf": csrf, "version": str(version), "op": "update_unit",
                    "action": action, "unit": "3", "unit_name": "unit 3", "figures_0": "12",
                    "troop_0": PRESETS[3][1], "weapon_0": PRESETS[3][2]})
                assert response.status_code == 200, response.text[:300]
                version += 1
                redraws.append(server_ms(response))
            small = client.post("/api/v1/rosters", json=roster(10)).json()
            client.get(f"/r/{small['id']}/edit?key={small['edit_key']}")
            weight_small = page_weight(client, f"/r/{small['id']}/edit")
            weight_big = page_weight(client, f"/r/{rid}/edit")
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(f"Editing a {args.units}-unit roster: {args.changes} htmx changes, one at a time, "
          f"on {os.cpu_count()} cores, SQLite, one uvicorn worker.")
    print("Server time from the Server-Timing header (application only, no network).")
    print(summary("change request (update a unit)", edits))
    print(summary("duplicate/remove (whole list)", redraws))
    print(summary("GET /healthz (trivial endpoint)", healthz))
    print(f"editor page, 10 units + assets:  {weight_small[0] / 1024:6.1f} KB raw, "
          f"{weight_small[1] / 1024:6.1f} KB gzip")
    print(f"editor page, {args.units} units + assets: {weight_big[0] / 1024:6.1f} KB raw, "
          f"{weight_big[1] / 1024:6.1f} KB gzip")


if __name__ == "__main__":
    main()
