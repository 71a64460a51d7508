"""`bench/inprocess.py`, the in-process figures of docs/speed.md, kept runnable: a run of tiny
passes must get a 200 for every request of every route, Muster's and its floor's, and print
each route's time, its ratio to the floor and a profile's shares. Nothing here judges speed."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.helpers.servers import PROJECT

ROUTE_LINE = re.compile(r"^\s+(GET|POST) (\S+)\s+(\d+) µs(?: \|\s+(\d+) µs \| ([\d.]+)× floor)?$")


@pytest.mark.slow
def test_a_tiny_inprocess_run_times_every_route_beside_its_floor() -> None:
    run = subprocess.run(
        [sys.executable, "bench/inprocess.py", "--passes", "1", "--requests", "3",
         "--profile", "edit"], cwd=PROJECT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    lines = [m for m in map(ROUTE_LINE.match, run.stdout.splitlines()) if m]
    assert [(m[1], m[2]) for m in lines] == [
        ("GET", "/healthz"), ("GET", "/api/v1/rosters/{id}"), ("GET", "/r/{id}"),
        ("POST", "/api/v1/price"), ("POST", "/r/{id}/edit")], run.stdout
    assert all(int(m[3]) > 0 for m in lines), run.stdout
    # Every route but the change beside its floor; the change against the read.
    assert [m[5] is not None and float(m[5]) > 0 for m in lines] == [True] * 4 + [False], \
        run.stdout
    assert re.search(r"editor change \(30 units\) against the API's read: [\d.]+×", run.stdout), \
        run.stdout
    assert re.search(r"^\s+app\s+[\d.]+%$", run.stdout, re.M), run.stdout


@pytest.mark.slow
@pytest.mark.parametrize("route", ["read", "price", "view"])
def test_each_part_bench_times_is_called_by_its_route(route: str) -> None:
    run = subprocess.run(
        [sys.executable, "bench/inprocess.py", "--passes", "1", "--requests", "3",
         "--parts", route], cwd=PROJECT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    parts = re.findall(r"^\s+(\d+) µs  .+ \((\S+:\S+)\)$", run.stdout, re.M)
    assert parts and all(int(took) > 0 for took, _ in parts), run.stdout
