"""Soak: minutes of mixed reads and writes against real uvicorn workers; memory must stay flat,
nothing may fail, and every acknowledged write must be readable at the end.

Run: `python bench/soak.py [--minutes 10] [--workers 2] [--clients 8] [--postgres URL]`.
Bounded: it stops after --minutes (plus the final check). By hand, not in the test suite.

Each client owns its rosters (so no change conflicts with another's) and loops over a mix:
create (API), change with the edit key (PUT), change in the editor (htmx form post), delete,
and reads (share view, also by a reader with no cookies, editor, print sheet, JSON, exports,
price, "my rosters"). Every acknowledged write is remembered as (roster, version, what it
changed); at the end each one is read back from the revision history. The server processes'
resident memory (RSS) is sampled every few seconds; after the warm-up (the first fifth of the
run) it must not grow by more than 10 % (last minute against the first minute after warm-up).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load import command, database, free_port, server_pids  # noqa: E402

RECONNECT = 100  # requests of a client between new connections


def army(name: str, units: int) -> dict[str, Any]:
    kinds = [("medium_horse", "lance"), ("light_horse", "composite_bow"),
             ("heavy_foot", "pike"), ("light_foot", "crossbow")]
    return {"name": name, "ruleset": "chainmail", "nation": "mongols", "points_limit": 600,
            "historical": True, "units": [
                {"name": f"Отряд {i + 1}", "flags": ["commander"] if i == 0 else [],
                 "lines": [{"troop": kinds[i % 4][0], "figures": 6 + i % 9,
                            "weapon": kinds[i % 4][1]}]} for i in range(units)]}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


@dataclass
class Ledger:
    """Acknowledged writes, to be read back, and what went wrong."""

    versions: list[tuple[str, int, str]] = field(default_factory=list)  # id, version, unit name
    deleted: list[str] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)

    def expect(self, response: httpx.Response, *codes: int) -> bool:
        self.counts[f"{response.request.method} {response.status_code}"] += 1
        if response.status_code in codes:
            return True
        self.errors.append(f"{response.request.method} {response.request.url.path}: "
                           f"{response.status_code} {response.text[:200]}")
        return False


@dataclass
class Owned:
    id: str
    key: str
    version: int
    units: int


async def client_loop(base: str, number: int, stop: float, ledger: Ledger) -> None:
    rng = random.Random(number)
    http = httpx.AsyncClient(base_url=base, timeout=30)
    reader = httpx.AsyncClient(base_url=base, timeout=30, cookies=None)
    try:
        await http.get("/")
        csrf = http.cookies["muster_csrf"]
        mine: list[Owned] = []
        n = 0
        while time.monotonic() < stop:
            n += 1
            if n % RECONNECT == 0:
                # A browser's connections end now and then; new ones reach any worker (a
                # connection stays with the worker that accepted it).
                await http.aclose()
                http = httpx.AsyncClient(base_url=base, timeout=30, cookies=http.cookies)
            roll = rng.random()
            try:
                if not mine or roll < 0.05:
                    units = rng.randint(3, 12)
                    made = await http.post("/api/v1/rosters", json=army(f"Soak {number}-{n}",
                                                                        units))
                    if ledger.expect(made, 201):
                        body = made.json()
                        # The edit link gives this browser the editor of the roster: its 303
                        # takes the key out of the address, and the editor it leads to
                        # exchanges the key for this browser's right to edit, as a browser
                        # following the redirect does (a client that stops at the 303 stores
                        # nothing and may not edit).
                        opened = await http.get(f"/r/{body['id']}/edit?key={body['edit_key']}")
                        if ledger.expect(opened, 303):
                            ledger.expect(await http.get(opened.headers["location"]), 200)
                        mine.append(Owned(body["id"], body["edit_key"], 1, units))
                        ledger.versions.append((body["id"], 1, "Отряд 1"))
                    continue
                roster = rng.choice(mine)
                if roll < 0.20:  # change in the editor, as the browser does it
                    name = f"Новый {number}-{n}"
                    changed = await http.post(f"/r/{roster.id}/edit", headers={
                        "HX-Request": "true"}, data={
                        "csrf": csrf, "version": str(roster.version), "system": "chainmail",
                        "op": "add_unit", "preset": "horse_archers", "unit_name": name})
                    if ledger.expect(changed, 200):
                        roster.version += 1
                        roster.units += 1
                        ledger.versions.append((roster.id, roster.version, name))
                elif roll < 0.30:  # change through the API with the key
                    name = f"API {number}-{n}"
                    doc = army(name, rng.randint(3, 12))
                    doc["units"][0]["name"] = name
                    put = await http.put(f"/api/v1/rosters/{roster.id}", json=doc, headers={
                        "Authorization": f"Bearer {roster.key}",
                        "If-Match": f'"v{roster.version}"'})
                    if ledger.expect(put, 200):
                        roster.version += 1
                        roster.units = len(doc["units"])
                        ledger.versions.append((roster.id, roster.version, name))
                elif roll < 0.32 and len(mine) > 3:
                    gone = await http.delete(f"/api/v1/rosters/{roster.id}", headers={
                        "Authorization": f"Bearer {roster.key}"})
                    if ledger.expect(gone, 204):
                        mine.remove(roster)
                        ledger.deleted.append(roster.id)
                elif roll < 0.45:  # the share link opened by someone else, with no cookies:
                    # a reader with no "my rosters" of its own
                    ledger.expect(await reader.get(f"/r/{roster.id}"), 200)
                else:
                    path = rng.choice([
                        f"/r/{roster.id}", f"/r/{roster.id}/edit", f"/r/{roster.id}/print",
                        f"/api/v1/rosters/{roster.id}", f"/api/v1/rosters/{roster.id}/export.md",
                        f"/api/v1/rosters/{roster.id}/export.txt", "/", "/healthz"])
                    ledger.expect(await http.get(path), 200)
                    if rng.random() < 0.2:
                        ledger.expect(await http.post("/api/v1/price",
                                                      json=army("Цена", roster.units)), 200)
            except httpx.HTTPError as error:
                ledger.errors.append(f"transport: {type(error).__name__}: {error}")
    finally:
        await http.aclose()
        await reader.aclose()


async def verify(base: str, ledger: Ledger) -> int:
    """Read every acknowledged write back; the number not found as acknowledged."""
    missing = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        semaphore = asyncio.Semaphore(16)

        async def one(roster_id: str, version: int, unit_name: str) -> None:
            nonlocal missing
            async with semaphore:
                answer = await http.get(f"/api/v1/rosters/{roster_id}/revisions/{version}")
            if roster_id in ledger.deleted:
                if answer.status_code != 410:
                    missing += 1
                return
            names = ([u["name"] for u in answer.json()["document"]["units"]]
                     if answer.status_code == 200 else [])
            if unit_name not in names:
                missing += 1
                ledger.errors.append(f"lost: {roster_id} v{version} ({unit_name})")

        await asyncio.gather(*(one(*entry) for entry in ledger.versions))
    return missing


async def sample_memory(pid: int, stop: float, every: float,
                        samples: list[tuple[float, dict[int, int]]]) -> None:
    start = time.monotonic()
    while time.monotonic() < stop:
        with contextlib.suppress(OSError, RuntimeError):  # a process that just ended
            samples.append((time.monotonic() - start,
                            {p: rss_kib(p) for p in server_pids(pid)}))
        await asyncio.sleep(every)


async def soak(base: str, pid: int, seconds: float, clients: int) -> tuple[Ledger, list[Any]]:
    ledger = Ledger()
    samples: list[tuple[float, dict[int, int]]] = []
    stop = time.monotonic() + seconds
    await asyncio.gather(sample_memory(pid, stop, 5.0, samples),
                         *(client_loop(base, n, stop, ledger) for n in range(clients)))
    return ledger, samples


def report_memory(samples: list[tuple[float, dict[int, int]]], seconds: float) -> bool:
    warm = seconds / 5
    window = min(60.0, seconds / 5)
    flat = True
    pids = sorted({p for _, by_pid in samples for p in by_pid})
    print(f"Resident memory (RSS, MiB): first {window:.0f} s after a {warm:.0f} s warm-up "
          f"against the last {window:.0f} s")
    for pid in pids:
        early = [s[pid] for t, s in samples if warm <= t < warm + window and pid in s]
        late = [s[pid] for t, s in samples if t >= seconds - window and pid in s]
        if not early or not late:
            continue
        before, after = statistics.mean(early) / 1024, statistics.mean(late) / 1024
        growth = after / before - 1
        peak = max(s[pid] for _, s in samples if pid in s) / 1024
        flat &= growth <= 0.10
        print(f"    pid {pid}: {before:7.1f} → {after:7.1f} MiB ({growth:+.1%}), "
              f"peak {peak:.1f}")
    minutes = int(seconds // 60)
    if minutes:
        print("    by minute (MiB, all processes): " + ", ".join(
            f"{sum(s.values()) / 1024:.0f}" for t, s in
            [next(((t, s) for t, s in samples if t >= m * 60), samples[-1])
             for m in range(minutes + 1)]))
    return flat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--postgres", metavar="URL",
                        help="a PostgreSQL URL to run on (default: SQLite in a temp folder)")
    args = parser.parse_args()
    seconds = args.minutes * 60
    folder = Path(tempfile.mkdtemp(prefix="muster-soak-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MUSTER_DATA_DIR")}
    env.update(MUSTER_DATA_DIR=str(folder), MUSTER_CREATION_LIMIT="0",
               MUSTER_LOG_LEVEL="warning")
    # On PostgreSQL, a schema of its own, dropped afterwards: the soak never writes into what
    # the database already holds (bench/load.py does the same).
    with database("postgresql" if args.postgres else "sqlite", args.postgres or "",
                  folder) as url:
        env["DATABASE_URL"] = url
        # `muster serve`, as operators start it (migrations once, the bound on a request's
        # head), with the same command line as bench/load.py.
        process = subprocess.Popen(
            command(ROOT, port, args.workers), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
            stderr=open(folder / "server.log", "wb"), start_new_session=True)  # noqa: SIM115
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    if httpx.get(base + "/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            started = time.monotonic()
            ledger, samples = asyncio.run(soak(base, process.pid, seconds, args.clients))
            ran = time.monotonic() - started
            missing = asyncio.run(verify(base, ledger))
        finally:
            process.terminate()
            process.wait(timeout=30)
    where = "PostgreSQL" if args.postgres else "SQLite"
    total = sum(ledger.counts.values())
    print(f"Soak: {ran / 60:.1f} min, {args.clients} clients, {args.workers} workers, {where}: "
          f"{total} requests ({total / ran:.0f}/s)")
    print("    answers: " + ", ".join(f"{k} ×{v}" for k, v in sorted(ledger.counts.items())))
    print(f"    acknowledged writes: {len(ledger.versions)} versions, {len(ledger.deleted)} "
          f"deletions; read back at the end: {len(ledger.versions) - missing} "
          f"({missing} missing)")
    print(f"    errors: {len(ledger.errors)}")
    for error in ledger.errors[:10]:
        print(f"      {error}")
    log = (folder / "server.log").read_text(errors="replace")
    tracebacks = log.count("Traceback")
    print(f"    server log: {len(log.splitlines())} lines, {tracebacks} tracebacks")
    flat = report_memory(samples, ran)
    ok = flat and not ledger.errors and missing == 0 and tracebacks == 0
    if tracebacks:
        print("    the server log's end:\n" + log[-3000:])
    print("RESULT: " + ("memory flat, no errors, every acknowledged write read back" if ok
                        else "FAILED"))
    shutil.rmtree(folder, ignore_errors=True)  # the database and log of this run only
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
