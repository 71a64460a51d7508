"""Pricing and judging Chainmail rosters: per-call time in process, and HTTP throughput of
POST /api/v1/price next to the trivial GET /healthz of the same server in the same run.

Run: `python bench/price.py [--seconds S] [--connections C]`. Bounded: about 20 s by default.

(a) In process: a 20-unit and a 500-unit roster are parsed once, then priced and judged
    (`evaluate`, both languages alternately) many times; median and p95 per call.
(b) Over HTTP: one uvicorn process of the app on a free loopback port, its data in a temporary
    folder. A load generator of C keep-alive connections (asyncio, in this process, so it has a
    core of its own when the machine has two) alternates fixed-length rounds of GET /healthz and
    POST /api/v1/price with the 20-unit roster, and counts the answers, all of which must be 200.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.chainmail import ChainmailRoster, evaluate  # noqa: E402

# A Russian host: what a player of this army actually fields, unit by unit.
TEMPLATES: list[dict[str, Any]] = [
    {"name": "Дружина", "flags": ["elite"],
     "lines": [{"troop": "medium_horse", "figures": 12, "weapon": "lance"}]},
    {"name": "Лёгкая конница", "lines": [{"troop": "light_horse", "figures": 8, "weapon": "bow"},
                                          {"troop": "medium_horse", "figures": 2,
                                           "weapon": "lance"}]},
    {"name": "Городовой полк", "lines": [{"troop": "heavy_foot", "figures": 24,
                                           "weapon": "polearm"},
                                          {"troop": "heavy_foot", "figures": 6}]},
    {"name": "Самострельщики", "lines": [{"troop": "light_foot", "figures": 10,
                                           "weapon": "crossbow"}]},
    {"name": "Пешая рать", "lines": [{"troop": "light_foot", "figures": 20,
                                       "weapon": "javelins"}]},
    {"name": "Наёмные копейщики", "mercenary": True,
     "lines": [{"troop": "heavy_foot", "figures": 16, "weapon": "pike"}]},
    {"name": "Ополчение", "lines": [{"troop": "militia", "figures": 30, "weapon": "polearm"}]},
    {"name": "Стрельцы", "lines": [{"troop": "light_foot", "figures": 12, "weapon": "arquebus"}]},
]


def roster(units: int) -> dict[str, Any]:
    chosen = [dict(TEMPLATES[i % len(TEMPLATES)]) for i in range(units)]
    for i, unit in enumerate(chosen):
        unit["name"] = f"{unit['name']} {i + 1}"
        unit["flags"] = list(unit.get("flags", [])) + (["commander"] if i == 0 else [])
    return {"name": f"Русская рать ({units})", "ruleset": "chainmail", "nation": "russians",
            "points_limit": 150 * units, "historical": True, "units": chosen,
            "engines": [{"kind": "light_catapult", "count": 2},
                        {"kind": "bombard", "count": 1, "mercenary": True}]}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def time_calls(call: Callable[[int], object], repeats: int) -> list[float]:
    timings = []
    for n in range(repeats):
        start = time.perf_counter()
        call(n)
        timings.append((time.perf_counter() - start) * 1000)
    return timings


def in_process() -> dict[str, float]:
    print("(a) in process: evaluate() = price + validate + JSON-ready result")
    medians: dict[str, float] = {}
    for units, repeats in ((20, 3000), (500, 400)):
        doc = roster(units)
        parsed = ChainmailRoster.model_validate(doc)
        figures = sum(ln.figures for u in parsed.units for ln in u.lines)
        time_calls(lambda n, r=parsed: evaluate(r, "en"), 20)  # warm caches
        per_call = time_calls(lambda n, r=parsed: evaluate(r, "ru" if n % 2 else "en"), repeats)
        parse = time_calls(lambda n, d=doc: ChainmailRoster.model_validate(d), repeats // 4)
        medians[f"{units}"] = statistics.median(per_call)
        print(f"    {units:>3} units, {figures:>5} figures: evaluate median "
              f"{statistics.median(per_call):.3f} ms, p95 {percentile(per_call, 0.95):.3f} ms "
              f"(n={repeats}); parsing the document median {statistics.median(parse):.3f} ms")
    return medians


# ---- (b) HTTP ----

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("DATABASE_URL", "MUSTER_DATABASE_URL")}
    # The request log goes to stderr; into a pipe nobody reads it would fill the pipe and
    # stall the server, so warnings only, into a file.
    env.update(MUSTER_DATA_DIR=str(folder), MUSTER_LOG_LEVEL="warning")
    with (folder / "server.log").open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.asgi:app", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning", "--no-access-log"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = next((int(h.split(":", 1)[1]) for h in lines[1:]
                   if h.lower().startswith("content-length:")), None)
    if length is None:
        raise RuntimeError(f"answer without Content-Length: {lines}")
    return status, await reader.readexactly(length)


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes,
                   what: str = "answer") -> float:
    """Send one prepared request and read its answer, which must be a 200; milliseconds."""
    start = time.perf_counter()
    writer.write(request)
    status, body = await read_response(reader)
    if status != 200:
        raise RuntimeError(f"{what}: status {status}: {body[:300]!r}")
    return (time.perf_counter() - start) * 1000


def request_bytes(port: int, method: str, path: str, body: bytes = b"",
                  content_type: str = "application/json", extra: str = "") -> bytes:
    """A raw HTTP/1.1 request, prepared once and sent many times; `extra` is more header
    lines, each ending in CRLF."""
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}"
    if body:
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


async def ready(port: int, process: subprocess.Popen[bytes], folder: Path,
                within: float = 30) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log = (folder / "server.log").read_text(errors="replace")
            raise RuntimeError(f"server exited: {log[-2000:]}")
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request_bytes(port, "GET", "/healthz"))
            status, _ = await read_response(reader)
            writer.close()
            if status == 200:
                return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError("server did not answer /healthz in time")


async def load(port: int, request: bytes, connections: int, seconds: float) -> list[float]:
    """Keep `connections` requests in flight for `seconds`; latencies (ms) of the answers."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while time.perf_counter() < stop:
                latencies.append(await exchange(reader, writer, request))
        finally:
            writer.close()

    await asyncio.gather(*(client() for _ in range(connections)))
    return latencies


async def over_http(connections: int, seconds: float, rounds: int) -> float:
    doc = roster(20)
    body = json.dumps(doc, ensure_ascii=False).encode()
    expected_total = evaluate(ChainmailRoster.model_validate(doc), "en").result["total"]
    with tempfile.TemporaryDirectory(prefix="muster-bench-") as folder:
        port = free_port()
        process = start_server(Path(folder), port)
        try:
            await ready(port, process, Path(folder))
            price = request_bytes(port, "POST", "/api/v1/price", body)
            health = request_bytes(port, "GET", "/healthz")
            # The server must price the bench roster as the rules code does, or we measure junk.
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(price)
            status, answer = await read_response(reader)
            writer.close()
            if status != 200 or json.loads(answer)["total"] != expected_total:
                raise RuntimeError(f"unexpected price answer {status}: {answer[:300]!r}")
            for request in (health, price):  # warm up both paths
                await load(port, request, connections, 0.5)
            counts = {"healthz": 0, "price": 0}
            latencies: dict[str, list[float]] = {"healthz": [], "price": []}
            client_cpu = time.process_time()
            for _ in range(rounds):
                for name, request in (("healthz", health), ("price", price)):
                    found = await load(port, request, connections, seconds)
                    counts[name] += len(found)
                    latencies[name] += found
            client_cpu = time.process_time() - client_cpu
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    spent = rounds * seconds
    rates = {name: counts[name] / spent for name in counts}
    print(f"(b) over HTTP: one uvicorn process (access log off), {connections} keep-alive "
          f"connections, {rounds} alternating rounds of {seconds:g} s per endpoint, "
          f"price body {len(body)} bytes (20 units)")
    for name, label in (("healthz", "GET /healthz        "), ("price", "POST /api/v1/price  ")):
        print(f"    {label} {rates[name]:8.0f} req/s   latency median "
              f"{statistics.median(latencies[name]):6.2f} ms, p95 "
              f"{percentile(latencies[name], 0.95):6.2f} ms   ({counts[name]} answers, all 200)")
    # If the load generator used most of a core it, not the server, would set the pace.
    print(f"    load generator CPU: {client_cpu / (2 * spent):.0%} of one core "
          "(the server, not the client, is the limit)")
    ratio = rates["price"] / rates["healthz"]
    print(f"    price / healthz throughput ratio: {ratio:.2f} (target ≥ 0.33: "
          f"{'met' if ratio >= 1 / 3 else 'MISSED'})")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"Machine: {cores} usable cores ({os.cpu_count()} online), {platform.machine()}, "
          f"Python {platform.python_version()}")
    medians = in_process()
    print(f"    500-unit target < 5 ms: {'met' if medians['500'] < 5 else 'MISSED'}")
    asyncio.run(over_http(args.connections, args.seconds, args.rounds))


if __name__ == "__main__":
    main()
