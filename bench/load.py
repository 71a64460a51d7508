"""Load figures: throughput and latency of the share view, the editor's change request and the
price API, each beside GET /healthz of the same server in the same run, with 1 and 2 workers,
on SQLite and on PostgreSQL.

Run: `python bench/load.py [--seconds 4] [--rounds 2] [--connections 32]
                           [--backends sqlite,postgresql] [--workers 1,2] [--postgres URL]
                           [--generator wrk|python]`
Bounded: about 40 s per server (four by default, under three minutes in all).

Each server is `muster serve` (uvicorn) on a free loopback port (access log off, no creation
limit so the preparation can store one roster per connection). A roster of 10 units is stored
for each connection, and one browser identity (device and CSRF cookies, obtained from the edit
links as a browser does) may edit them all. The load generator keeps --connections requests
in flight, on keep-alive HTTP/1.1 connections reopened now and then (below), so that the
workers share the connections, and alternates
fixed-length rounds of the four endpoints. Two generators can send the rounds:

- this process (--generator python, the default: asyncio on uvloop, raw connections,
  requests prepared in advance), which reopens each connection every 50 requests or every
  second, whichever comes first, the time to reopen it counted in that request's latency.
- wrk (--generator wrk; Debian's package `wrk`), a program in C driven by
  bench/wrk_round.lua: 16–33 % less CPU per request than the Python one (most
  of either's is the kernel's, sending and receiving on loopback), which on two shared cores
  the servers then have. Each connection is closed about every two seconds (wrk cannot
  tell its connections apart: one request in 2 × rate ÷ connections asks to close), not
  every 50 requests: a request on a new connection waits for the event loop twice more (to
  be accepted, then read), and with wrk reconnecting at once those made the slowest
  hundredth of a round. Latency is counted from the request's sending, as wrk does; the
  rounds' latencies are pooled from wrk's quantiles (one a tenth of a percentile apart); the
  edit round's changes are read back. On the slow, noisy day it was added, its ratios did
  not stand apart from the script's beyond the machine's own swings, while its share view's
  p99 came out two to six times the script's (its first requests on new connections; README).

    GET  /healthz              the trivial endpoint
    GET  /r/{id}               the share view of a 10-unit roster (a full page)
    POST /r/{id}/edit          htmx: change the figures of one unit (each connection its own
                               roster, so no change conflicts; a stored new version each time)
    POST /api/v1/price         price and judge a 20-unit roster

The servers of one database (one per worker count, each with its own database file or schema)
run side by side and take turns: each round of an endpoint runs on every server in turn, the
order reversed every other round, while the others stand idle. A virtual machine's speed drifts
over minutes (its host lends it more or less of the CPU), so servers measured one after the
other would compare two different machines; taking turns, each ratio (2 workers to 1, an
endpoint to healthz) compares rounds a few seconds apart.

Every answer must be 200. Latency is measured per request from send to the last byte. Those
rounds run flat out (a connection sends its next request as soon as it has an answer: the
server's saturation). A last round of editing, always sent by this process, has each
connection pause --think seconds (±50 %) between changes, as people editing do.

Around each flat-out round the script reads the whole machine's CPU time (Linux's /proc/stat):
how many cores were busy, and how many the host of a virtual machine kept. A server, its load
generator, its database and the kernel share the cores, so two workers can reach at most
cores ÷ (cores busy in the one-worker round) times one worker's rate, were each request to cost
the same CPU: under each verdict on 2 workers against 1 the script prints that ceiling, and how
the CPU per request changed, the server's own processes' (read from /proc too) apart from the
rest's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.price import (  # noqa: E402
    exchange,
    free_port,
    percentile,
    request_bytes,
)
from bench.price import roster as price_roster  # noqa: E402

ENDPOINTS = ("healthz", "view", "edit", "price")
LABELS = {"healthz": "GET /healthz", "view": "GET /r/{id}", "edit": "POST /r/{id}/edit",
          "price": "POST /api/v1/price"}
GENERATORS = {"wrk": "wrk (C)", "python": "this script (asyncio on uvloop)"}
DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
RECONNECT = 50  # requests per connection, as a browser's keep-alive connection ends too
RECONNECT_SECONDS = 1.0  # or seconds, whichever comes first
KINDS = [("light_horse", "composite_bow"), ("medium_horse", "lance"), ("heavy_foot", "pike"),
         ("light_foot", "crossbow")]


def ten_units(name: str) -> dict[str, Any]:
    return {"name": name, "ruleset": "chainmail", "nation": "mongols", "points_limit": 400,
            "historical": True, "units": [
                {"name": f"Отряд {i + 1}", "flags": ["commander"] if i == 0 else [],
                 "lines": [{"troop": KINDS[i % 4][0], "figures": 8 + i,
                            "weapon": KINDS[i % 4][1]}]} for i in range(10)]}


# ---- databases and servers ----

def _libpq(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@contextmanager
def database(backend: str, postgres: str, folder: Path) -> Iterator[str]:
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
    """`muster serve`, as an operator starts the server (migrations once, then uvicorn with the
    bound on a request's head, access log off). A tree from before it had that bound
    (bench/compare.py may measure one) is started with plain uvicorn, as it was then."""
    if (root / "app" / "http_protocol.py").exists():
        return [sys.executable, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port),
                "--workers", str(workers), "--log-level", "warning"]
    return [sys.executable, "-m", "uvicorn", "app.asgi:app", "--host", "127.0.0.1", "--port",
            str(port), "--workers", str(workers), "--log-level", "warning", "--no-access-log"]


@contextmanager
def serving(url: str, workers: int, folder: Path, root: Path) -> Iterator[tuple[int, int]]:
    """A uvicorn server of the code in `root` on a free port; its port and process id."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "MUSTER_DATA_DIR")}
    env.update(DATABASE_URL=url, MUSTER_CREATION_LIMIT="0", MUSTER_LOG_LEVEL="warning")
    log = (folder / f"server-{port}.log").open("wb")
    process = subprocess.Popen(command(root, port, workers), cwd=root, env=env, stdout=log,
                               stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited: {(folder / log.name).read_text()[-2000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start in 60 s")
            time.sleep(0.1)
        yield port, process.pid
    finally:
        os.killpg(process.pid, 15)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
        log.close()
        text = Path(log.name).read_text(errors="replace")
        if "Traceback" in text:
            print(f"    server log has tracebacks:\n{text[-3000:]}")


def server_pids(root: int) -> list[int]:
    """The server process (`muster serve`, which runs uvicorn) and its children (the workers),
    from /proc."""
    pids = [root]
    proc = Path("/proc")
    if not proc.is_dir():  # not Linux: the root alone, and no CPU times (Machine.read)
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


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: Sequence[int]) -> float:
    """User and system CPU time of these processes so far."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICK


# ---- the load generator ----

@dataclass
class Target:
    """What one connection edits: its roster and the version it is at."""

    roster_id: str
    version: int


@dataclass
class Setup:
    port: int
    targets: list[Target]
    cookie: str
    csrf: str
    price_body: bytes
    pids: list[int] = field(default_factory=list)  # the server's processes, for their CPU


def prepare(port: int, connections: int) -> Setup:
    """One 10-unit roster per connection, all editable by one browser identity."""
    base = f"http://127.0.0.1:{port}"
    targets = []
    with httpx.Client(base_url=base, timeout=30, follow_redirects=True) as browser:
        browser.get("/")
        for n in range(connections):
            created = browser.post("/api/v1/rosters", json=ten_units(f"Нагрузка {n}")).json()
            opened = browser.get(f"/r/{created['id']}/edit?key={created['edit_key']}")
            assert opened.status_code == 200, opened.text[:300]
            targets.append(Target(created["id"], created["version"]))
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        csrf = browser.cookies["muster_csrf"]
    return Setup(port, targets, cookie, csrf,
                 json.dumps(price_roster(20), ensure_ascii=False).encode())


def change_form(csrf: str, k: int) -> str:
    """Change `k` of 20, without the version it is made from (the form's first field, which
    the generator puts before it): a unit's figures, unit by unit, each unit's number other
    than the one it has (5 + u and 15 + u in turn, against 8 + u at first). A roster's
    changes are numbered by its version, k being the version's remainder by 20: every change
    stores a version, so each differs from the last, and a round goes on where the one
    before stopped, whichever generator ran it."""
    unit = k % 10
    return urlencode({"csrf": csrf, "op": "update_unit", "unit": unit,
                      "unit_name": f"Отряд {unit + 1}", "figures_0": 5 + k,
                      "troop_0": KINDS[unit % 4][0], "weapon_0": KINDS[unit % 4][1]})


def edit_request(setup: Setup, target: Target) -> bytes:
    """The next change of the target's roster, made from the version it is at."""
    form = f"version={target.version}&{change_form(setup.csrf, target.version % 20)}"
    return request_bytes(setup.port, "POST", f"/r/{target.roster_id}/edit", form.encode(),
                         "application/x-www-form-urlencoded",
                         f"Cookie: {setup.cookie}\r\nHX-Request: true\r\n")


async def run_round(setup: Setup, endpoint: str, connections: int, seconds: float,
                    think: float = 0.0) -> list[float]:
    """Keep `connections` requests of one endpoint in flight, each connection pausing about
    `think` seconds between its requests (0: none, the server's saturation); latencies (ms)."""
    pauses = random.Random(connections)
    latencies: list[float] = []
    stop = time.perf_counter() + seconds
    fixed = {
        "healthz": request_bytes(setup.port, "GET", "/healthz"),
        "price": request_bytes(setup.port, "POST", "/api/v1/price", setup.price_body,
                               "application/json"),
    }

    async def client(index: int) -> None:
        target = setup.targets[index]
        view = request_bytes(setup.port, "GET", f"/r/{target.roster_id}")
        reader, writer = await asyncio.open_connection("127.0.0.1", setup.port)
        n = 0
        if think:
            # People do not all click at the same instant: each editor starts at a random
            # moment of its first pause, or the round would open with 32 changes at once.
            await asyncio.sleep(think * pauses.uniform(0, 1))
        opened = time.perf_counter()
        try:
            while time.perf_counter() < stop:
                n += 1
                connecting = 0.0
                if n % RECONNECT == 0 or time.perf_counter() - opened > RECONNECT_SECONDS:
                    # Workers share one listening socket; a connection held for a whole round
                    # stays with whichever worker accepted it, which can leave one worker idle
                    # (slow requests, as edits are, reach 50 only after a round is over). The
                    # time to connect counts in the latency of the request that waited for it.
                    writer.close()
                    opened = time.perf_counter()
                    reader, writer = await asyncio.open_connection("127.0.0.1", setup.port)
                    connecting = (time.perf_counter() - opened) * 1000
                if endpoint == "edit":
                    request = edit_request(setup, target)
                else:
                    request = fixed.get(endpoint, view)
                latencies.append(connecting + await exchange(reader, writer, request, endpoint))
                if endpoint == "edit":
                    target.version += 1
                if think:
                    await asyncio.sleep(think * pauses.uniform(0.5, 1.5))
        finally:
            writer.close()

    await asyncio.gather(*(client(i) for i in range(connections)))
    return latencies


# ---- the same rounds run by wrk ----

WRK_SCRIPT = ROOT / "bench" / "wrk_round.lua"


def wrk_plan(setup: Setup, endpoint: str, connections: int, folder: Path) -> Path:
    """The file bench/wrk_round.lua reads: what to request, and of which rosters."""
    lines = [f"mode {endpoint}", f"connections {connections}"]
    lines += [f"roster {t.roster_id} {t.version}" for t in setup.targets[:connections]]
    if endpoint == "edit":
        lines += [f"header Cookie: {setup.cookie}", "header HX-Request: true"]
        lines += [f"form {k} {change_form(setup.csrf, k)}" for k in range(20)]
    if endpoint == "price":
        body = folder / "price.json"
        body.write_bytes(setup.price_body)
        lines.append(f"body {body}")
    plan = folder / "plan"
    plan.write_text("\n".join(lines) + "\n")
    return plan


def wrk_latencies(quantiles: list[float], answers: int) -> list[float]:
    """`answers` latencies (ms) spread as wrk's quantiles (microseconds, one per tenth of a
    percentile) lie: pooled over rounds, they give percentiles to a tenth of a percentile."""
    return [quantiles[min(len(quantiles) - 1, i * len(quantiles) // answers)] / 1000
            for i in range(answers)]


async def stored_versions(setup: Setup, targets: Sequence[Target]) -> int:
    """Set each target's version to the one stored; the sum of the versions."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{setup.port}",
                                 timeout=30) as client:
        for target in targets:
            answer = await client.get(f"/api/v1/rosters/{target.roster_id}")
            target.version = answer.raise_for_status().json()["version"]
    return sum(t.version for t in targets)


async def wrk_round(setup: Setup, endpoint: str, connections: int,
                    seconds: int) -> tuple[list[float], float]:
    """One round as run_round's, flat out, run by wrk; latencies (ms) and wrk's CPU time (s).
    Every answer must be a 200 and, for editing, every change acknowledged must be stored,
    one version each."""
    targets = setup.targets[:connections]
    # wrk stops with a change in flight on every connection, which the server may store
    # after wrk has gone: each round starts from the versions stored.
    before = await stored_versions(setup, targets) if endpoint == "edit" else 0
    with tempfile.TemporaryDirectory(prefix="muster-wrk-") as name:
        plan = wrk_plan(setup, endpoint, connections, Path(name))
        process = await asyncio.create_subprocess_exec(
            "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
            "-s", str(WRK_SCRIPT), f"http://127.0.0.1:{setup.port}", "--", str(plan),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await process.communicate()
    said = dict(line.split(" ", 1) for line in out.decode().splitlines()
                if line.split(" ", 1)[0] in ("cpu", "answers", "refused", "errors",
                                             "first_refusal", "quantiles"))
    if process.returncode or "quantiles" not in said:
        raise RuntimeError(f"wrk failed ({process.returncode}): {err.decode()[-1000:]}"
                           f"{out.decode()[-1000:]}")
    answers, refused = int(said["answers"]), int(said["refused"])
    errors = [int(n) for n in said["errors"].split()]
    if refused or any(errors):
        raise RuntimeError(f"{endpoint}: {refused} answers not 200 (first: "
                           f"{said['first_refusal'][:300]}), wrk's errors (connect, read, "
                           f"write, status, timeout) {errors}")
    if endpoint == "edit":
        stored = await stored_versions(setup, targets) - before
        if not answers <= stored <= answers + connections:
            raise RuntimeError(f"edit: {answers} changes acknowledged, {stored} stored")
    return (wrk_latencies([float(q) for q in said["quantiles"].split()], answers),
            float(said["cpu"]))


async def one_round(setup: Setup, endpoint: str, connections: int, seconds: float,
                    generator: str) -> tuple[list[float], float]:
    """A flat-out round; its latencies (ms) and the generator's CPU time in it (s)."""
    if generator == "wrk":
        return await wrk_round(setup, endpoint, connections, int(seconds))
    started = time.process_time()
    latencies = await run_round(setup, endpoint, connections, seconds)
    return latencies, time.process_time() - started


@dataclass(frozen=True)
class Machine:
    """The CPU time of the whole machine, all cores together, from Linux's /proc/stat: busy
    (user, system and interrupts) and stolen (a virtual machine's host kept it), and of it the
    server's processes', in seconds, with the moment it was read."""
    busy: float
    stolen: float
    at: float
    server: float = 0.0

    @classmethod
    def read(cls, stat: Path = Path("/proc/stat"), pids: Sequence[int] = ()) -> Machine | None:
        """Now, with the CPU time of the processes `pids`; or None where there is no
        /proc/stat (not Linux), without looking for the processes: the figures then go
        without what the machine spent."""
        try:
            first = stat.read_text().split("\n", 1)[0].split()
        except OSError:
            return None
        if not first or first[0] != "cpu":
            return None
        user, nice, system, _idle, _iowait, irq, softirq, steal = (
            [int(t) for t in first[1:9]] + [0] * 8)[:8]
        return cls((user + nice + system + irq + softirq) / TICK, steal / TICK,
                   time.monotonic(), cpu_seconds(pids))

    def since(self, before: Machine) -> tuple[float, float]:
        """Cores busy and cores stolen, on average, from `before` to this reading."""
        return self._cores(self.busy - before.busy, before), \
            self._cores(self.stolen - before.stolen, before)

    def server_since(self, before: Machine) -> float:
        """Cores the server's processes used, on average, from `before` to this reading."""
        return self._cores(self.server - before.server, before)

    def _cores(self, seconds: float, before: Machine) -> float:
        elapsed = self.at - before.at
        return seconds / elapsed if elapsed > 0 else 0.0


def ceiling(cores: int, busy: float) -> float:
    """How many times its throughput a server that kept `busy` of the machine's `cores` busy
    (itself, the load generator, the database and the kernel together) could reach with the
    whole machine, were each request to cost the same CPU: cores / busy. Two workers cannot
    pass it, whatever the server does, while the load generator and the database share the
    cores; infinite when nothing was measured."""
    return cores / busy if busy > 0 else math.inf


def machine_share(one: Figures, two: Figures, cores: int) -> str:
    """Why two workers gave the ratio they did: the ratio is exactly the cores kept busy with
    two workers over those with one, divided by how much more CPU each request took with two
    (all the machine's CPU: servers, load generator, database, kernel). The first factor cannot
    pass `ceiling`. The growth is split between the server's own processes and the rest."""
    def growth(one_cores: float, two_cores: float) -> float:
        """How many times the CPU per request of `one` that of `two` is."""
        return share(two_cores / two.rate, one_cores / one.rate) if one.rate and two.rate \
            else 0.0

    return (f"the machine: {one.busy:.2f} → {two.busy:.2f} of {cores} cores busy "
            f"(so at most {ceiling(cores, one.busy):.2f}×), CPU per request "
            f"×{growth(one.busy, two.busy):.2f}: the server's ×{growth(one.server, two.server):.2f}"
            f" ({one.server:.2f} → {two.server:.2f} cores), the rest's (load generator, "
            f"database, kernel) ×{growth(one.busy - one.server, two.busy - two.server):.2f}")


@dataclass
class Figures:
    rate: float
    p50: float
    p99: float
    answers: int
    rates: list[float]  # of each round, in the order run
    busy: float = 0.0  # cores the whole machine kept busy during the rounds (0: unknown)
    stolen: float = 0.0  # cores the host kept from this virtual machine meanwhile
    server: float = 0.0  # of `busy`, the server's processes (its workers)

    @classmethod
    def of(cls, rounds: list[list[float]], seconds: float) -> Figures:
        """Figures of rounds of `seconds` each, given each round's latencies. Rounds with no
        answer at all have no latency to take percentiles of: theirs is infinite, so every
        target on it reads MISSED rather than the script failing on an empty list."""
        latencies = [ms for one in rounds for ms in one]
        p50, p99 = (percentile(latencies, 0.5), percentile(latencies, 0.99)) if latencies \
            else (math.inf, math.inf)
        return cls(len(latencies) / (seconds * len(rounds)), p50, p99, len(latencies),
                   [len(one) / seconds for one in rounds])


def share(part: float, whole: float) -> float:
    """part / whole, or 0 when the whole is nothing (a server that answered nothing): a
    target read off it is then missed, not a division by zero."""
    return part / whole if whole else 0.0


K = TypeVar("K")


def turns(servers: list[K], endpoints: Sequence[str], rounds: int) -> Iterator[tuple[str, K]]:
    """(endpoint, server) of each round, every server in turn; the order is reversed every
    other round, so that neither server always follows the other."""
    for n in range(rounds):
        for endpoint in endpoints:
            for server in (servers if n % 2 == 0 else servers[::-1]):
                yield endpoint, server


async def warm(setups: Sequence[Setup], endpoints: Sequence[str], connections: int,
               generator: str = "python") -> None:
    """A second of every endpoint on every server (and so every worker), not counted."""
    for endpoint in endpoints:
        for setup in setups:
            await one_round(setup, endpoint, connections, 1.0, generator)


def positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    """An argparse type: a number of `kind` above zero, or a clear error naming the value."""
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be above zero, not {text}")
        return value
    return parse


async def measure(setups: dict[int, Setup], connections: int, seconds: float, rounds: int,
                  think: float, generator: str = "python",
                  ) -> tuple[dict[int, dict[str, Figures]], dict[int, float]]:
    """Rounds of every endpoint on every server in turn (`setups` by worker count); the
    figures and the load generator's share of a core, by worker count."""
    order = list(setups)
    await warm(list(setups.values()), ENDPOINTS, connections, generator)
    found: dict[int, dict[str, list[list[float]]]] = {
        c: {e: [] for e in ENDPOINTS} for c in order}
    spent: dict[int, dict[str, list[tuple[float, float, float]]]] = {
        c: {e: [] for e in ENDPOINTS} for c in order}
    cpu = dict.fromkeys(order, 0.0)
    for endpoint, count in turns(order, ENDPOINTS, rounds):
        before = Machine.read(pids=setups[count].pids)
        latencies, used = await one_round(setups[count], endpoint, connections, seconds,
                                          generator)
        after = Machine.read(pids=setups[count].pids)
        found[count][endpoint].append(latencies)
        if before and after:
            spent[count][endpoint].append((*after.since(before), after.server_since(before)))
        cpu[count] += used
    figures = {c: {e: Figures.of(v, seconds) for e, v in found[c].items()} for c in order}
    for count in order:
        for endpoint, readings in spent[count].items():
            if readings:
                f = figures[count][endpoint]
                f.busy, f.stolen, f.server = (statistics.fmean(r[n] for r in readings)
                                              for n in range(3))
    if think:  # editors at a human pace rather than flat out
        for count in order:
            await stored_versions(setups[count], setups[count].targets[:connections])
            paced = await run_round(setups[count], "edit", connections, 2 * seconds, think)
            figures[count]["edit_paced"] = Figures.of([paced], 2 * seconds)
    return figures, {c: cpu[c] / (len(ENDPOINTS) * rounds * seconds) for c in order}


def run_backend(backend: str, workers: list[int],
                args: argparse.Namespace) -> dict[int, dict[str, Figures]]:
    """Every worker count's server for one database, measured taking turns."""
    with tempfile.TemporaryDirectory(prefix="muster-load-") as name, ExitStack() as stack:
        setups = {}
        for count in workers:
            folder = Path(name) / f"{count}-workers"
            folder.mkdir()
            url = stack.enter_context(database(backend, args.postgres, folder))
            port, pid = stack.enter_context(serving(url, count, folder, ROOT))
            setups[count] = prepare(port, args.connections)
            setups[count].pids = server_pids(pid)
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            figures, generator_cpu = runner.run(
                measure(setups, args.connections, args.seconds, args.rounds, args.think,
                        args.generator))
    for count in workers:
        report(backend, count, figures[count], generator_cpu[count], args)
    return figures


def report(backend: str, workers: int, figures: dict[str, Figures], generator_cpu: float,
           args: argparse.Namespace) -> None:
    print(f"\n{backend}, {workers} worker{'s' if workers > 1 else ''}, {args.connections} "
          f"connections, {args.rounds}×{args.seconds:g} s per endpoint "
          f"(load generator: {generator_cpu:.0%} of one core)")
    health = figures["healthz"].rate
    for endpoint in ENDPOINTS:
        f = figures[endpoint]
        print(f"    {LABELS[endpoint]:<20} {f.rate:7.0f} req/s   p50 {f.p50:6.1f} ms   "
              f"p99 {f.p99:6.1f} ms   {share(f.rate, health):4.2f}× healthz   ({f.answers} × 200)")
    if any(figures[e].busy for e in ENDPOINTS):
        print("    the whole machine meanwhile, in cores busy (stolen by the host): " + ", ".join(
            f"{LABELS[e].split()[1]} {figures[e].busy:.2f} ({figures[e].stolen:.2f})"
            for e in ENDPOINTS))
    if "edit_paced" in figures:
        f = figures["edit_paced"]
        print(f"    {LABELS['edit']:<20} {f.rate:7.0f} req/s   p50 {f.p50:6.1f} ms   "
              f"p99 {f.p99:6.1f} ms   each connection pausing ~{args.think * 1000:.0f} ms "
              f"between changes ({f.answers} × 200)")


def _loop_factory() -> Any:
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def verdicts(results: dict[tuple[str, int], dict[str, Figures]], workers: list[int],
             cores: int) -> None:
    print("\nTargets")
    for (backend, count), figures in results.items():
        health = figures["healthz"].rate
        for endpoint in ("view", "price"):
            ratio = share(figures[endpoint].rate, health)
            print(f"    {backend}, {count}w: {LABELS[endpoint]} ≥ 1/3 of healthz: "
                  f"{ratio:.2f} — {'met' if ratio >= 1 / 3 else 'MISSED'}")
        for name, how in (("edit", "flat out"), ("edit_paced", "paced")):
            if name in figures:
                p99 = figures[name].p99
                print(f"    {backend}, {count}w: edit p99 < 100 ms ({how}): {p99:.1f} ms — "
                      f"{'met' if p99 < 100 else 'MISSED'}")
    if 1 in workers and 2 in workers:
        for backend in sorted({b for b, _ in results}):
            one, two = results.get((backend, 1)), results.get((backend, 2))
            if one and two:
                for endpoint in ENDPOINTS:
                    scale = share(two[endpoint].rate, one[endpoint].rate)
                    # Round n of one server ran right before or after round n of the other:
                    # the spread of these pairs shows how far the machine moved meanwhile.
                    pairs = [b / a for a, b in zip(one[endpoint].rates, two[endpoint].rates,
                                                   strict=True) if a]
                    spread = f" (round by round {min(pairs):.2f}–{max(pairs):.2f}×)" \
                        if len(pairs) > 1 else ""
                    print(f"    {backend}: 2 workers / 1 worker, {LABELS[endpoint]}: "
                          f"{scale:.2f}×{spread} — {'met' if scale >= 1.5 else 'MISSED'} "
                          f"(≥ 1.5)")
                    if one[endpoint].busy and two[endpoint].busy:
                        print("        " + machine_share(one[endpoint], two[endpoint], cores))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive(float), default=4.0,
                        help="length of one round")
    parser.add_argument("--rounds", type=positive(int), default=2)
    parser.add_argument("--connections", type=positive(int), default=32)
    parser.add_argument("--think", type=float, default=0.25,
                        help="seconds an editor pauses between changes in the paced edit "
                             "round (0: no paced round)")
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--postgres", default=os.environ.get("MUSTER_TEST_POSTGRES_URL",
                                                             DEFAULT_POSTGRES))
    parser.add_argument("--generator", choices=("python", "wrk"), default="python",
                        help="what sends the flat-out rounds: this script's own asyncio "
                             "generator, or wrk (a program in C, Debian's package wrk); the "
                             "paced round is always this script's")
    args = parser.parse_args()
    # The arguments first, then the machine: a wrong value is refused the same everywhere.
    if args.generator == "wrk" and args.seconds != int(args.seconds):
        parser.error(f"--seconds {args.seconds:g}: wrk runs whole seconds only")
    if args.generator == "wrk" and not shutil.which("wrk"):
        parser.error("--generator wrk: wrk is not installed (apt-get install wrk)")
    workers = [int(w) for w in args.workers.split(",")]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
        else os.cpu_count() or 1
    print(f"Machine: {cores} usable cores, {platform.machine()}, Python "
          f"{platform.python_version()}; server and load generator share them; flat-out "
          f"rounds sent by {GENERATORS[args.generator]}")
    results = {}
    for backend in args.backends.split(","):
        for count, figures in run_backend(backend, workers, args).items():
            results[backend, count] = figures
    verdicts(results, workers, cores)


if __name__ == "__main__":
    main()
