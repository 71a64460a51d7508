"""`bench/load.py`, the figures of docs/speed.md, kept runnable: a short run against a real
server and its textbook floor on this run's database must get a 200 for every request of every
endpoint and print the figures and the verdicts. Nothing here judges speed: a route, form field
or cookie the script no longer matches fails it, not a slow machine."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tests.helpers.databases import POSTGRES_URL, TEST_BACKEND
from tests.helpers.servers import PROJECT

ENDPOINT_LINE = re.compile(r"^\s+(GET|POST) (\S+)\s+(\d+) req/s  p50 +[\d.]+ ms  p99 +[\d.]+ ms"
                           r"(?: \| +(\d+) req/s .* \| ([\d.]+)× floor)?$")


@pytest.mark.slow
@pytest.mark.app_backend
def test_a_short_load_run_gets_a_200_for_every_request() -> None:
    if shutil.which("wrk") is None:
        message = "wrk is not installed: install Debian's package (`apt-get install wrk`)"
        if os.environ.get("MUSTER_REQUIRE_WRK") == "1":  # .ci/run installs it
            pytest.fail(message)
        pytest.skip(message)
    run = subprocess.run(
        [sys.executable, "bench/load.py", "--backends", TEST_BACKEND, "--seconds", "1",
         "--rounds", "1", "--connections", "4", "--postgres", POSTGRES_URL],
        cwd=PROJECT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    assert "server log has tracebacks" not in run.stdout
    lines = [m for m in map(ENDPOINT_LINE.match, run.stdout.splitlines()) if m]
    assert [(m[1], m[2]) for m in lines] == [
        ("GET", "/healthz"), ("GET", "/r/{id}"), ("GET", "/api/v1/rosters/{id}"),
        ("POST", "/api/v1/price"), ("POST", "/r/{id}/edit")], run.stdout
    assert all(int(m[3]) > 0 for m in lines), run.stdout
    # Every route but the change beside its floor, the textbook app, in the same run.
    assert [m[4] is not None and int(m[4]) > 0 for m in lines] == [True] * 4 + [False], run.stdout
    assert re.search(r"editor change \(30 units\) [\d.]+ ms, API's read [\d.]+ ms", run.stdout), \
        run.stdout
    for target in ("GET /healthz ≥ 0.7× floor", "GET /r/{id} ≥ 0.6× floor",
                   "GET /api/v1/rosters/{id} ≥ 0.6× floor", "POST /api/v1/price ≥ 0.6× floor",
                   "editor change ≤ 2× the read's server time"):
        assert re.search(rf"{re.escape(target)}.*— (met|MISSED)", run.stdout), run.stdout


@pytest.mark.parametrize(("arguments", "named"), [
    (["--seconds", "0"], "--seconds"), (["--seconds", "0.5"], "--seconds"),
    (["--connections", "-4"], "--connections"),
])
def test_load_refuses_bad_arguments_by_name_before_starting_anything(
        arguments: list[str], named: str) -> None:
    run = subprocess.run([sys.executable, "bench/load.py", *arguments], cwd=PROJECT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert named in run.stderr and "Traceback" not in run.stderr
    assert "Machine:" not in run.stdout  # nothing was started


@pytest.mark.slow
@pytest.mark.app_backend
def test_a_short_soak_run_answers_every_request_and_reads_back_every_write() -> None:
    # bench/soak.py drives the pages and the API as a browser and a script do (edit links
    # followed, forms posted with their CSRF field): a change to any of them that the script no
    # longer matches shows up as refused requests here. A run this short says nothing of
    # memory, so its verdict on memory (and the exit code it sets) is not judged.
    command = [sys.executable, "bench/soak.py", "--minutes", "0.15", "--clients", "3"]
    if TEST_BACKEND == "postgresql":
        command += ["--postgres", POSTGRES_URL]
    run = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=240)
    out = run.stdout
    assert "    errors: 0\n" in out, out[-3000:] + run.stderr[-3000:]
    assert re.search(r"read back at the end: [1-9]\d* \(0 missing\)", out), out[-3000:]
    assert ", 0 tracebacks" in out, out[-3000:]
    answers = out.split("answers: ")[1].splitlines()[0]
    # Every kind of request was made and answered as a browser expects it.
    for kind in ("GET 200", "GET 303", "POST 200", "POST 201", "PUT 200"):
        assert kind in answers, answers


@pytest.mark.slow
def test_the_growth_run_times_every_size_and_every_nation() -> None:
    # bench/growth.py, the growth figures of docs/speed.md: a size or nation it no longer
    # measures, or an answer not 200, fails it; the times are not judged here.
    run = subprocess.run([sys.executable, "bench/growth.py", "--repeats", "1"], cwd=PROJECT,
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    sizes = re.findall(r"^\s+(\d+)\s+[\d.]+\s+\d+\s+[\d.]+\s+\d+$", run.stdout, re.M)
    assert sizes == ["20", "100", "500"], run.stdout
    assert re.search(r"^\s+mongols\s+[\d.]+ ", run.stdout, re.M), run.stdout
    assert re.search(r"slowest [\d.]+ s — (met|MISSED)", run.stdout), run.stdout
