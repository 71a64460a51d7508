"""`bench/load.py`, the README's load figures, kept runnable: a short run against real uvicorn
servers (1 and 2 workers, on this run's database) must get a 200 for every request of every
endpoint and print each server's figures and the verdicts. Nothing here judges speed: a route,
form field or cookie the script no longer matches fails it, not a slow machine."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from tests.helpers.databases import POSTGRES_URL, TEST_BACKEND
from tests.helpers.servers import PROJECT

ENDPOINT_LINE = re.compile(r"^\s+(GET|POST) (\S+)\s+(\d+) req/s .*\((\d+) × 200\)$")


@pytest.mark.parametrize(("generator", "seconds"), [("python", "0.3"), ("wrk", "1")])
def test_a_short_load_run_gets_a_200_for_every_request_on_both_servers(
        generator: str, seconds: str) -> None:
    if generator == "wrk" and shutil.which("wrk") is None:
        message = "wrk is not installed: install Debian's package (`apt-get install wrk`)"
        if os.environ.get("MUSTER_REQUIRE_WRK") == "1":  # .ci/run installs it
            pytest.fail(message)
        pytest.skip(message)
    run = subprocess.run(  # wrk runs whole seconds only
        [sys.executable, "bench/load.py", "--backends", TEST_BACKEND, "--workers", "1,2",
         "--seconds", seconds, "--rounds", "2", "--connections", "4", "--think", "0.05",
         "--postgres", POSTGRES_URL, "--generator", generator],
        cwd=PROJECT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    assert "server log has tracebacks" not in run.stdout
    from bench.load import GENERATORS

    assert f"flat-out rounds sent by {GENERATORS[generator]}" in run.stdout

    blocks = run.stdout.split(f"\n{TEST_BACKEND}, ")[1:]
    assert [b.split(",")[0] for b in blocks] == ["1 worker", "2 workers"], run.stdout
    for block in blocks:
        lines = [m for m in map(ENDPOINT_LINE.match, block.splitlines()) if m]
        # The four endpoints flat out, then editing at a human pace; each answered.
        assert [(m[1], m[2]) for m in lines] == [
            ("GET", "/healthz"), ("GET", "/r/{id}"), ("POST", "/r/{id}/edit"),
            ("POST", "/api/v1/price"), ("POST", "/r/{id}/edit")], block
        assert all(int(m[4]) > 0 for m in lines), block

    verdicts = run.stdout.split("\nTargets\n")[1]
    for endpoint in ("GET /healthz", "GET /r/{id}", "POST /r/{id}/edit", "POST /api/v1/price"):
        # The ratio of the whole run, and the spread of the rounds run side by side.
        # And what the machine allowed: its cores kept busy by each server, read off Linux.
        assert re.search(rf"{TEST_BACKEND}: 2 workers / 1 worker, {re.escape(endpoint)}: "
                         r"[\d.]+× \(round by round [\d.]+–[\d.]+×\) — (met|MISSED) "
                         r"\(≥ 1.5\)\n\s+the machine: [\d.]+ → [\d.]+ of \d+ cores busy "
                         r"\(so at most [\d.]+×\), CPU per request ×[\d.]+: the server's ×[\d.]+ "
                         r"\([\d.]+ → [\d.]+ cores\), the rest's \(load generator, database, "
                         r"kernel\) ×[\d.]+\n",
                         verdicts), verdicts


def test_figures_of_rounds_give_the_whole_rate_and_each_rounds() -> None:
    from bench.load import Figures

    figures = Figures.of([[1.0] * 40, [3.0] * 20, [2.0] * 60], seconds=2.0)
    assert figures.rates == [20.0, 10.0, 30.0]
    assert figures.rate == 20.0 and figures.answers == 120
    assert figures.p50 == 2.0


def test_figures_of_rounds_without_answers_read_as_missed() -> None:
    from bench.load import Figures, verdicts

    silent = Figures.of([[], []], seconds=2.0)
    assert silent.rate == 0.0 and silent.answers == 0 and silent.rates == [0.0, 0.0]
    assert silent.p50 == silent.p99 == float("inf")
    # A server that answered nothing at all: every target on it is missed, none divides by 0.
    answered = Figures.of([[1.0] * 100, [2.0] * 100], seconds=2.0)
    results = {("sqlite", 1): dict.fromkeys(("healthz", "view", "edit", "price"), silent),
               ("sqlite", 2): dict.fromkeys(("healthz", "view", "edit", "price"), answered)}
    out = io.StringIO()
    with redirect_stdout(out):
        verdicts(results, [1, 2], cores=2)
    lines = [line.strip() for line in out.getvalue().splitlines() if line.startswith("    ")]
    on_silent = [line for line in lines if "1w" in line or "/ 1 worker" in line]
    assert len(on_silent) == 3 + 4 and all(line.endswith("MISSED (≥ 1.5)")
                                           or line.endswith("MISSED") for line in on_silent)
    assert "sqlite, 1w: edit p99 < 100 ms (flat out): inf ms — MISSED" in lines


def test_the_machines_cpu_time_is_read_off_proc_stat(tmp_path: Path) -> None:
    from bench.load import Machine

    tick = os.sysconf("SC_CLK_TCK")
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal guest guest_nice, in ticks
    stat.write_text(f"cpu  {100 * tick} 0 {50 * tick} 900 7 {3 * tick} {2 * tick} {5 * tick} "
                    "0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n")
    before = Machine.read(stat)
    assert before is not None and before.busy == 155.0 and before.stolen == 5.0
    later = Machine(before.busy + 3.0, before.stolen + 0.5, before.at + 2.0)
    assert later.since(before) == (1.5, 0.25)  # cores busy, cores stolen
    assert Machine.read(tmp_path / "absent") is None
    stat.write_text("intr 1 2 3\n")
    assert Machine.read(stat) is None


def test_the_servers_cpu_time_is_read_with_the_machines_and_only_where_it_can_be(
        tmp_path: Path) -> None:
    from bench.load import Machine, cpu_seconds

    # This process stands for a server: its own CPU time, read beside the machine's. (Not its
    # children: servers an earlier test started may still be ending.)
    me = [os.getpid()]
    start = Machine.read(pids=me)
    assert start is not None and start.server > 0
    deadline = time.process_time() + 0.2
    while time.process_time() < deadline:  # spend a fifth of a second of CPU
        pass
    end = Machine.read(pids=me)
    assert end is not None and end.server - start.server >= 0.1
    assert 0 < end.server_since(start) <= 1.0  # of one core: this process has one thread busy
    assert start.server <= cpu_seconds(me) and end.busy >= start.busy
    # Without /proc/stat (not Linux) the processes are not looked for: no error from a pid
    # that /proc does not have.
    assert Machine.read(tmp_path / "absent", pids=[2 ** 22 + 1]) is None


def test_two_workers_ratio_is_the_machines_share_over_the_cost_per_request() -> None:
    from bench.load import Figures, ceiling, machine_share

    # One worker: 1000 req/s with 1.25 of 2 cores busy; two: 1400 req/s with all 2.
    # The server's workers are 1.0 and 1.54 of those cores, the rest 0.25 and 0.46.
    one = Figures(1000.0, 1.0, 2.0, 4000, [1000.0], busy=1.25, server=1.0)
    two = Figures(1400.0, 1.0, 2.0, 5600, [1400.0], busy=2.0, server=1.54)
    assert ceiling(2, 1.25) == 1.6 and ceiling(2, 0.0) == float("inf")
    said = machine_share(one, two, cores=2)
    # 1.4× = (2.0 / 1.25 = 1.6×, the ceiling) / (CPU per request 2.0/1400 ÷ 1.25/1000)
    assert said == "the machine: 1.25 → 2.00 of 2 cores busy (so at most 1.60×), " \
        "CPU per request ×1.14: the server's ×1.10 (1.00 → 1.54 cores), the rest's (load " \
        "generator, database, kernel) ×1.31"
    cost = (two.busy / two.rate) / (one.busy / one.rate)
    assert abs((two.busy / one.busy) / cost - two.rate / one.rate) < 1e-9


def test_wrk_quantiles_pool_as_latencies() -> None:
    from bench.load import Figures, wrk_latencies

    # A round of 2 000 answers: 90 % at 1 ms, the slowest tenth at 5 ms (in microseconds,
    # one point per tenth of a percentile, as bench/wrk_round.lua prints them).
    quantiles = [1000.0] * 900 + [5000.0] * 100
    fast = wrk_latencies(quantiles, 2000)
    assert len(fast) == 2000 and fast.count(5.0) == 200
    # Pooled with a round of 1 000 answers all at 2 ms: the median is 1 ms, and the slowest
    # 200 of 3 000 (6.7 %) are the 5 ms ones, so p99 is 5 ms and p90 2 ms.
    figures = Figures.of([fast, wrk_latencies([2000.0] * 1000, 1000)], seconds=1.0)
    assert figures.p50 == 1.0 and figures.p99 == 5.0 and figures.rates == [2000.0, 1000.0]
    assert sorted(fast + [2.0] * 1000)[2699] == 2.0


def test_load_refuses_wrk_for_part_of_a_second() -> None:
    run = subprocess.run([sys.executable, "bench/load.py", "--generator", "wrk", "--seconds",
                          "0.5"], cwd=PROJECT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "--seconds 0.5: wrk runs whole seconds only" in run.stderr


COMPARE_LINE = re.compile(r"^\s+(GET|POST) (\S+)\s+(before|after)\s+CPU\s+([\d.]+) ms/request\s+"
                          r"(\d+) req/s")


def test_bench_compare_measures_two_code_trees_taking_turns() -> None:
    # The tree against itself: both servers start from their own tree, answer every round
    # and report a CPU time per request for each endpoint asked for.
    run = subprocess.run(
        [sys.executable, "bench/compare.py", str(PROJECT), ".", "--endpoints", "edit,healthz",
         "--rounds", "2", "--seconds", "0.3", "--connections", "4", "--backend", TEST_BACKEND,
         "--postgres", POSTGRES_URL],
        cwd=PROJECT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    assert "server log has tracebacks" not in run.stdout
    found = [m for m in map(COMPARE_LINE.match, run.stdout.splitlines()) if m]
    assert [(m[2], m[3]) for m in found] == [
        ("/r/{id}/edit", "before"), ("/r/{id}/edit", "after"),
        ("/healthz", "before"), ("/healthz", "after")], run.stdout
    assert all(float(m[4]) > 0 and int(m[5]) > 0 for m in found), run.stdout
    assert run.stdout.count("after/before: ") == 2


def test_bench_compare_refuses_a_folder_without_the_app() -> None:
    run = subprocess.run([sys.executable, "bench/compare.py", "bench", "."], cwd=PROJECT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "before:" in run.stderr and "app/asgi.py" in run.stderr


@pytest.mark.parametrize(("script", "arguments", "named"), [
    ("bench/compare.py", [".", ".", "--endpoints", "edit,nope"], "--endpoints"),
    ("bench/compare.py", [".", ".", "--rounds", "0"], "--rounds"),
    ("bench/compare.py", [".", ".", "--seconds", "fast"], "--seconds"),
    ("bench/load.py", ["--seconds", "0"], "--seconds"),
    ("bench/load.py", ["--connections", "-4"], "--connections"),
])
def test_bench_scripts_refuse_bad_arguments_by_name_before_starting_anything(
        script: str, arguments: list[str], named: str) -> None:
    # A round of no seconds or no connections would end in a division by zero after the
    # servers had started; the scripts say which argument is wrong instead.
    run = subprocess.run([sys.executable, script, *arguments], cwd=PROJECT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert named in run.stderr and "Traceback" not in run.stderr
    assert "Machine:" not in run.stdout  # nothing was started


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
