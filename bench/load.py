"""Load figures: the share view, the API's read of a roster, the price API and the editor's
change, each beside its floor, a textbook app doing the least the route must do
(bench/textbook.py), in the same run, on SQLite and PostgreSQL.

Run: `python bench/load.py [--seconds 5] [--rounds 2] [--connections 16]
                           [--backends sqlite,postgresql] [--postgres URL]`

Each server has one uvicorn worker on a free loopback port: Muster is `muster serve` (no
creation limit, so the preparation can store rosters for every connection), the textbook app
reads the same database. wrk (Debian's package `wrk`), driven by bench/wrk_round.lua, keeps
--connections requests in flight for a round of each endpoint in turn, Muster's and then its
floor's, --rounds times; every answer must be a 200:

    GET  /healthz              an async constant                 floor: the same constant
    GET  /r/{id}               the share view of a 20-unit roster floor: the row as an HTML table
    GET  /api/v1/rosters/{id}  the API's read, priced and judged floor: one SELECT, as stored
    POST /api/v1/price         price and judge a 20-unit roster  floor: parsed, figures summed
    POST /r/{id}/edit          htmx: change one unit of a 30-unit roster (each connection its
                               own roster, so no change conflicts; a new version each time)

The server time (Server-Timing) of an editor's change and of the API's read are then read off
requests made one after another, so that it is the server's work and not its queue. The
client, the database and the servers share the machine's cores: the ratios are what to compare.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx

ROOT = Path(__file__).resolve().parents[1]
ENDPOINTS = ("healthz", "view", "read", "price", "edit")
FLOORED = ("healthz", "view", "read", "price")  # the routes bench/textbook.py answers too
TEXTBOOK = "bench.textbook:create"
# Each route's target, as a share of its floor's rate.
TARGETS = {"healthz": 0.7, "view": 0.6, "read": 0.6, "price": 0.6}
EDIT_TO_READ = 2.0  # an editor change's server time at most this many times the read's
LABELS = {"healthz": "GET /healthz", "view": "GET /r/{id}", "read": "GET /api/v1/rosters/{id}",
          "price": "POST /api/v1/price", "edit": "POST /r/{id}/edit"}
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
WRK_SCRIPT = ROOT / "bench" / "wrk_round.lua"
KINDS = [("light_horse", "composite_bow"), ("medium_horse", "lance"), ("heavy_foot", "pike"),
         ("light_foot", "crossbow")]
EDIT_UNITS = 30
SERVER_TIME_CHANGES = 200  # requests made one after another for a server time


def roster(units: int, name: str = "Нагрузка") -> dict[str, Any]:
    return {"name": name, "ruleset": "chainmail", "nation": "mongols", "points_limit": 4000,
            "historical": True, "units": [
                {"name": f"Отряд {i + 1}", "flags": ["commander"] if i == 0 else [],
                 "lines": [{"troop": KINDS[i % 4][0], "figures": 8 + i % 10,
                            "weapon": KINDS[i % 4][1]}]} for i in range(units)]}


# ---- databases and servers ----

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@contextmanager
def database(backend: str, postgres: str, folder: Path) -> Iterator[str]:
    """A database of its own: a SQLite file in `folder`, or a PostgreSQL schema."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'muster.db'}"
        return
    import psycopg
    from sqlalchemy.engine import make_url

    schema = f"muster_load_{secrets.token_hex(4)}"
    with psycopg.connect(_libpq(postgres), autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield (make_url(postgres).update_query_dict({"options": f"-csearch_path={schema}"})
               .render_as_string(hide_password=False))
    finally:
        with psycopg.connect(_libpq(postgres), autocommit=True) as admin:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def command(root: Path, port: int, workers: int) -> list[str]:
    """`muster serve`, as an operator starts the server."""
    return [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port),
            "--workers", str(workers), "--log-level", "warning"]


@contextmanager
def serving(url: str, folder: Path, factory: str | None = None) -> Iterator[int]:
    """A one-worker server of this tree on `url`; its port. `muster serve`, or with `factory`
    ("module:function") uvicorn serving the app that function makes (bench/textbook.py)."""
    port = free_port()
    argv = command(ROOT, port, 1) if factory is None else [
        sys.executable, "-m", "uvicorn", "--factory", factory, "--host", "127.0.0.1",
        "--port", str(port), "--log-level", "warning", "--no-access-log"]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MUSTER_DATA_DIR")}
    env.update(DATABASE_URL=url, MUSTER_CREATION_LIMIT="0", MUSTER_LOG_LEVEL="warning")
    log = folder / f"server-{port}.log"
    with log.open("wb") as sink:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=sink,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start:\n{log.read_text()[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=30)
        text = log.read_text(errors="replace")
        if "Traceback" in text:
            print(f"    server log has tracebacks:\n{text[-3000:]}")


def server_pids(root: int) -> list[int]:
    """The server process (`muster serve`) and its children (the workers), from /proc."""
    pids = [root]
    proc = Path("/proc")
    if not proc.is_dir():
        return pids
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == root:
                pids.append(int(entry.name))
    return pids


# ---- what is requested ----

@dataclass
class Setup:
    port: int
    readable: list[str]  # a 20-unit roster per connection: viewed and read
    edited: list[tuple[str, int]]  # a 30-unit roster per connection, and its version
    cookie: str  # the browser that may edit them all
    csrf: str
    price_body: bytes


def prepare(port: int, connections: int) -> Setup:
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30,
                      follow_redirects=True) as browser:
        browser.get("/")
        readable = [browser.post("/api/v1/rosters", json=roster(20)).json()["id"]
                    for _ in range(connections)]
        edited = []
        for _ in range(connections + 1):  # one more, for the editor's server time
            created = browser.post("/api/v1/rosters", json=roster(EDIT_UNITS)).json()
            opened = browser.get(f"/r/{created['id']}/edit?key={created['edit_key']}")
            assert opened.status_code == 200, opened.text[:300]
            edited.append((created["id"], created["version"]))
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        csrf = browser.cookies["muster_csrf"]
    body = httpx.Request("POST", "/", json=roster(20)).read()
    return Setup(port, readable, edited, cookie, csrf, body)


# A roster's changes are numbered by its version's remainder by FORMS: each sets one unit's
# figures to a number other than the one it has (the unit changed 30 versions before had
# another), so every change stores a version.
FORMS = 150


def change_form(csrf: str, k: int) -> str:
    """Change `k` of FORMS, without the version it is made from (the form's first field)."""
    unit = k % EDIT_UNITS  # its place; made by the API, unit n is given the id u<n + 1>
    return urlencode({"csrf": csrf, "system": "chainmail", "op": "update_unit",
                      "unit": f"u{unit + 1}", "line": "l1", "unit_name": f"Отряд {unit + 1}",
                      "figures_l1": 21 + k % 50, "troop_l1": KINDS[unit % 4][0],
                      "weapon_l1": KINDS[unit % 4][1]})


# ---- rounds run by wrk ----

def wrk_plan(setup: Setup, endpoint: str, connections: int, folder: Path) -> Path:
    """The file bench/wrk_round.lua reads: what to request, and of which rosters."""
    lines = [f"mode {endpoint}", f"connections {connections}"]
    if endpoint == "edit":
        lines += [f"roster {i} {v}" for i, v in setup.edited[:connections]]
        lines += [f"header Cookie: {setup.cookie}", "header HX-Request: true"]
        lines += [f"form {k} {change_form(setup.csrf, k)}" for k in range(FORMS)]
    else:
        lines += [f"roster {i} 1" for i in setup.readable[:connections]]
    if endpoint == "price":
        (folder / "price.json").write_bytes(setup.price_body)
        lines.append(f"body {folder / 'price.json'}")
    plan = folder / "plan"
    plan.write_text("\n".join(lines) + "\n")
    return plan


@dataclass
class Figures:
    rate: float
    p50: float  # ms
    p99: float


def stored_versions(setup: Setup) -> None:
    """Each edited roster's version as stored (wrk stops with changes in flight)."""
    with httpx.Client(base_url=f"http://127.0.0.1:{setup.port}", timeout=30) as client:
        setup.edited = [(i, client.get(f"/api/v1/rosters/{i}").raise_for_status()
                         .json()["version"]) for i, _ in setup.edited]


def wrk_round(setup: Setup, endpoint: str, connections: int, seconds: int) -> Figures:
    if endpoint == "edit":
        stored_versions(setup)
    with tempfile.TemporaryDirectory(prefix="muster-wrk-") as name:
        plan = wrk_plan(setup, endpoint, connections, Path(name))
        run = subprocess.run(
            ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
             "-s", str(WRK_SCRIPT), f"http://127.0.0.1:{setup.port}", "--", str(plan)],
            capture_output=True, text=True, check=False)
    said = dict(line.split(" ", 1) for line in run.stdout.splitlines()
                if line.split(" ", 1)[0] in ("answers", "refused", "errors", "first_refusal",
                                             "quantiles"))
    if run.returncode or "quantiles" not in said:
        raise RuntimeError(f"wrk failed ({run.returncode}): {run.stderr[-1000:]}")
    errors = [int(n) for n in said["errors"].split()]
    if int(said["refused"]) or any(errors):
        raise RuntimeError(f"{endpoint}: {said['refused']} answers not 200 (first: "
                           f"{said['first_refusal'][:300]}), wrk's errors (connect, read, "
                           f"write, status, timeout) {errors}")
    quantiles = [float(q) / 1000 for q in said["quantiles"].split()]  # per 0.1 %, in ms
    return Figures(int(said["answers"]) / seconds, quantiles[499], quantiles[989])


def server_time(setup: Setup, endpoint: str) -> float:
    """The median Server-Timing (ms) of requests made one after another: changes to one
    roster ("edit"), or reads of one ("read")."""
    roster_id, version = setup.edited[-1]
    times = []
    with httpx.Client(base_url=f"http://127.0.0.1:{setup.port}", timeout=30, headers={
            "Cookie": setup.cookie, "HX-Request": "true",
            "Content-Type": "application/x-www-form-urlencoded"}) as client:
        for _ in range(SERVER_TIME_CHANGES):
            if endpoint == "read":
                answer = client.get(f"/api/v1/rosters/{roster_id}")
            else:
                answer = client.post(f"/r/{roster_id}/edit", content=f"version={version}&"
                                     f"{change_form(setup.csrf, version % FORMS)}")
                version += 1
            assert answer.status_code == 200, answer.text[:300]
            times.append(float(answer.headers["server-timing"].split("dur=")[1]))
    return statistics.median(times)


def pooled(found: list[Figures]) -> Figures:
    return Figures(statistics.fmean(f.rate for f in found), statistics.median(f.p50 for f in found),
                   max(f.p99 for f in found))


@dataclass
class Run:
    muster: dict[str, Figures]
    floor: dict[str, Figures]
    edit_ms: float  # an editor change's server time
    read_ms: float  # the API's read's


def run_backend(backend: str, args: argparse.Namespace) -> Run:
    with tempfile.TemporaryDirectory(prefix="muster-load-") as name, ExitStack() as stack:
        url = stack.enter_context(database(backend, args.postgres, Path(name)))
        setup = prepare(stack.enter_context(serving(url, Path(name))), args.connections)
        floor = replace(setup, port=stack.enter_context(serving(url, Path(name), TEXTBOOK)))
        rounds: dict[str, list[Figures]] = {e: [] for e in ENDPOINTS}
        floors: dict[str, list[Figures]] = {e: [] for e in FLOORED}
        for counted in [False] + [True] * args.rounds:  # a short round to warm up first
            seconds = int(args.seconds) if counted else 1
            for endpoint in ENDPOINTS:
                measured = wrk_round(setup, endpoint, args.connections, seconds)
                if counted:
                    rounds[endpoint].append(measured)
                if endpoint in FLOORED:
                    measured = wrk_round(floor, endpoint, args.connections, seconds)
                    if counted:
                        floors[endpoint].append(measured)
        stored_versions(setup)
        edit_ms = server_time(setup, "edit")
        read_ms = server_time(setup, "read")
    return Run({e: pooled(f) for e, f in rounds.items()}, {e: pooled(f) for e, f in floors.items()},
               edit_ms, read_ms)


def _figures(f: Figures) -> str:
    return f"{f.rate:7.0f} req/s  p50 {f.p50:5.1f} ms  p99 {f.p99:6.1f} ms"


def report(backend: str, run: Run, args: argparse.Namespace) -> None:
    print(f"\n{backend}, 1 worker each, {args.connections} connections, "
          f"{args.rounds}×{args.seconds:g} s per endpoint; Muster | textbook floor")
    for endpoint in ENDPOINTS:
        line = f"    {LABELS[endpoint]:<26} {_figures(run.muster[endpoint])}"
        if endpoint in run.floor:
            floor = run.floor[endpoint]
            ratio = run.muster[endpoint].rate / floor.rate if floor.rate else 0.0
            line += f" | {_figures(floor)} | {ratio:4.2f}× floor"
        print(line)
    print(f"    server time (Server-Timing), median of {SERVER_TIME_CHANGES} one after another: "
          f"editor change ({EDIT_UNITS} units) {run.edit_ms:.2f} ms, API's read "
          f"{run.read_ms:.2f} ms")
    print("  Targets")
    for endpoint, share in TARGETS.items():
        floor = run.floor[endpoint].rate
        ratio = run.muster[endpoint].rate / floor if floor else 0.0
        print(f"    {LABELS[endpoint]} ≥ {share:g}× floor: {ratio:.2f} — "
              f"{'met' if ratio >= share else 'MISSED'}")
    times = run.edit_ms / run.read_ms if run.read_ms else float("inf")
    print(f"    editor change ≤ {EDIT_TO_READ:g}× the read's server time: {times:.1f}× — "
          f"{'met' if times <= EDIT_TO_READ else 'MISSED'}")


def positive(kind: type) -> Any:
    """An argparse type: a number of `kind` above zero, or a clear error naming the value."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above zero, not {text}")
        return value
    return parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive(int), default=5, help="length of a round")
    parser.add_argument("--rounds", type=positive(int), default=2)
    parser.add_argument("--connections", type=positive(int), default=16)
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--postgres", default=os.environ.get("MUSTER_TEST_POSTGRES_URL",
                                                             DEFAULT_POSTGRES))
    args = parser.parse_args()
    if not shutil.which("wrk"):
        parser.error("wrk is not installed (apt-get install wrk)")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1
    print(f"Machine: {cores} usable cores, shared by the server, its database and wrk")
    for backend in args.backends.split(","):
        report(backend, run_backend(backend, args), args)


if __name__ == "__main__":
    main()
