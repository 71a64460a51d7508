"""The Formation Density melee calculator: one exchange of 40 warriors a side, in process and
through POST /api/v1/rulesets/formation_density/melee next to GET /healthz of the same server.

Run: `python bench/melee.py [--requests N] [--seconds S] [--connections C]`. About 15 s.

(a) In process: each scenario's units are parsed once, then `exchange` + the JSON answer
    (`melee_json`, exact fractions as strings) are timed many times; median and p95 per call,
    and the first (cold) call.
(b) Over HTTP: one uvicorn process on a free loopback port, data in a temporary folder.
    First N sequential requests on one keep-alive connection, alternating GET /healthz and the
    melee POST of each scenario (latency median and p95); then C connections kept busy for S
    seconds per endpoint (throughput). Every answer must be 200, and the server's expectations
    must equal the in-process ones, or nothing is reported.

Target: a 40-a-side exchange answers in under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.formation_density import Unit, exchange, melee_json  # noqa: E402
from bench.price import (  # noqa: E402
    free_port,
    load,
    percentile,
    read_response,
    ready,
    request_bytes,
    start_server,
)

TARGET_MS = 100.0


def line(kind: str, weapon: str, count: int, **flags: bool) -> dict[str, Any]:
    return {"class": kind, "weapon": weapon, "count": count, **flags}


# Forty warriors a side, chosen to exercise every costly path: fast strikes thinning ranks,
# swords kept as parries, shields before armour with armour-piercing hits, cavalry split.
SCENARIOS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "legion (pila, swords) vs pike block": (
        {"name": "Легион", "density": 3, "files": 20, "lines": [
            line("melee_specialists", "heavy_throwing", 20, shield=True, armour=True),
            line("melee_specialists", "sword", 20, shield=True, armour=True)]},
        {"name": "Фаланга", "density": 5, "files": 10, "lines": [
            line("shock_troops", "pike", 40, armour=True)]}),
    "axes and swords vs charging lancers": (
        {"name": "Хускарлы", "density": 2, "files": 20, "lines": [
            line("melee_specialists", "axe", 10, armour=True),
            line("melee_specialists", "sword", 10, armour=True, shield=True),
            line("shock_troops", "halberd", 20, armour=True)]},
        {"name": "Катафракты", "density": 3, "files": 20, "lines": [
            line("shock_cavalry", "cavalry_lance", 40, mounted=True, moved_straight=True,
                 armour=True, shield=True, cavalry_armour=True)]}),
    "40 in one rank: swords and pila on both sides": (
        {"name": "Мечники", "density": 2, "files": 40, "lines": [
            line("melee_specialists", "heavy_throwing", 20, shield=True, armour=True),
            line("melee_specialists", "sword", 20, shield=True, armour=True)]},
        {"name": "Дружина", "density": 2, "files": 40, "lines": [
            line("melee_specialists", "axe", 20, armour=True),
            line("melee_specialists", "sword", 20, shield=True, armour=True)]}),
}


def time_calls(call: Any, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def in_process(repeats: int) -> dict[str, dict[str, Any]]:
    print("(a) in process: exchange() + melee_json(), 40 warriors a side")
    answers: dict[str, dict[str, Any]] = {}
    for name, (a_doc, b_doc) in SCENARIOS.items():
        a, b = Unit.model_validate(a_doc), Unit.model_validate(b_doc)
        cold = time_calls(lambda a=a, b=b: melee_json(exchange(a, b)), 1)[0]
        timings = time_calls(lambda a=a, b=b: melee_json(exchange(a, b)), repeats)
        answers[name] = melee_json(exchange(a, b))
        median, p95 = statistics.median(timings), percentile(timings, 0.95)
        print(f"    {name:<48} median {median:6.2f} ms, p95 {p95:6.2f} ms, first call "
              f"{cold:6.2f} ms (n={repeats}) — target < {TARGET_MS:.0f} ms: "
              f"{'met' if p95 < TARGET_MS else 'MISSED'}")
    return answers


async def _one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
               request: bytes) -> tuple[float, bytes]:
    start = time.perf_counter()
    writer.write(request)
    status, body = await read_response(reader)
    elapsed = (time.perf_counter() - start) * 1000
    if status != 200:
        raise RuntimeError(f"status {status}: {body[:300]!r}")
    return elapsed, body


async def over_http(answers: dict[str, dict[str, Any]], requests: int, seconds: float,
                    connections: int) -> None:
    with tempfile.TemporaryDirectory(prefix="muster-bench-") as folder:
        port = free_port()
        process = start_server(Path(folder), port)
        try:
            await ready(port, process, Path(folder))
            health = request_bytes(port, "GET", "/healthz")
            posts = {name: request_bytes(port, "POST", "/api/v1/rulesets/formation_density/melee",
                                         json.dumps({"a": a, "b": b}, ensure_ascii=False)
                                         .encode())
                     for name, (a, b) in SCENARIOS.items()}
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            for name, request in posts.items():  # the server must answer as the code does
                _, body = await _one(reader, writer, request)
                got = json.loads(body)
                for side in ("a", "b"):
                    for key in ("hits", "blocked", "lost"):
                        if got[side][key] != answers[name][side][key]:
                            raise RuntimeError(f"{name}: the server's {side}.{key} differs")
            for _ in range(20):  # warm up
                await _one(reader, writer, health)
            latencies: dict[str, list[float]] = {"GET /healthz": []}
            latencies |= {name: [] for name in posts}
            for _ in range(requests):
                latencies["GET /healthz"].append((await _one(reader, writer, health))[0])
                for name, request in posts.items():
                    latencies[name].append((await _one(reader, writer, request))[0])
            writer.close()
            print(f"(b) over HTTP: one uvicorn process (access log off), one keep-alive "
                  f"connection, {requests} requests per endpoint, alternating")
            for name, found in latencies.items():
                label = name if name.startswith("GET") else f"POST melee: {name}"
                p95 = percentile(found, 0.95)
                verdict = "" if name.startswith("GET") else (
                    f" — target < {TARGET_MS:.0f} ms: {'met' if p95 < TARGET_MS else 'MISSED'}")
                print(f"    {label:<60} median {statistics.median(found):6.2f} ms, "
                      f"p95 {p95:6.2f} ms{verdict}")
            first = posts[next(iter(posts))]
            rates = {}
            for name, request in (("GET /healthz", health), ("POST melee", first)):
                await load(port, request, connections, 0.5)
                found = await load(port, request, connections, seconds)
                rates[name] = len(found) / seconds
                print(f"    {connections} connections, {seconds:g} s: {name:<14} "
                      f"{rates[name]:7.0f} req/s, latency median "
                      f"{statistics.median(found):6.2f} ms, p95 {percentile(found, 0.95):6.2f} ms")
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except Exception:
                process.kill()
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=200, help="in-process calls per scenario")
    parser.add_argument("--requests", type=int, default=100, help="HTTP requests per endpoint")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of a load round")
    parser.add_argument("--connections", type=int, default=8)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"Machine: {cores} usable cores ({os.cpu_count()} online), {platform.machine()}, "
          f"Python {platform.python_version()}")
    answers = in_process(args.repeats)
    asyncio.run(over_http(answers, args.requests, args.seconds, args.connections))


if __name__ == "__main__":
    main()
