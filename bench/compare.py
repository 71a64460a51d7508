"""Compare two versions of the code: server CPU per request, the servers taking turns.

A change that saves a few per cent of a request's CPU cannot be seen by running the load
figures before and after it: a shared virtual machine's speed drifts by more than that within
minutes. Here both versions run at once, each a real uvicorn server of its own code tree (one
worker, its own database), prepared as `bench/load.py` prepares them; rounds of each endpoint
go to one server and then the other, the order reversed every other round, and each server's
CPU time (user + system, read from /proc) is divided by the requests it answered in that
round. Each figure thus compares rounds seconds apart, on the same machine.

Run from the newer tree, naming the other (say, a `git worktree` of the commit before):

    git worktree add ../before HEAD~1
    python bench/compare.py ../before . [--endpoints edit,healthz] [--rounds 6] [--seconds 3]

Bounded: rounds × endpoints × 2 × seconds, plus about 10 s to start and prepare the servers.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load import (  # noqa: E402
    DEFAULT_POSTGRES,
    ENDPOINTS,
    LABELS,
    Setup,
    _loop_factory,
    cpu_seconds,
    database,
    positive,
    prepare,
    run_round,
    server_pids,
    serving,
    turns,
    warm,
)


async def take_turns(servers: dict[str, tuple[Setup, list[int]]], endpoints: list[str],
                     rounds: int, seconds: float, connections: int
                     ) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """Per (tree, endpoint): (ms of CPU per request, requests per second) of each round."""
    found: dict[tuple[str, str], list[tuple[float, float]]] = {
        (tree, endpoint): [] for tree in servers for endpoint in endpoints}
    await warm([setup for setup, _ in servers.values()], endpoints, connections)
    for endpoint, tree in turns(list(servers), endpoints, rounds):
        setup, pids = servers[tree]
        before = cpu_seconds(pids)
        answered = await run_round(setup, endpoint, connections, seconds)
        spent = cpu_seconds(pids) - before
        found[tree, endpoint].append((1000 * spent / len(answered), len(answered) / seconds))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path, help="the code tree to compare against")
    parser.add_argument("after", type=Path, help="the code tree of the change")
    parser.add_argument("--endpoints", default="edit,healthz",
                        help=f"some of {','.join(ENDPOINTS)}")
    parser.add_argument("--rounds", type=positive(int), default=6)
    parser.add_argument("--seconds", type=positive(float), default=3.0,
                        help="length of one round")
    parser.add_argument("--connections", type=positive(int), default=32)
    parser.add_argument("--backend", default="sqlite", choices=["sqlite", "postgresql"])
    parser.add_argument("--postgres", default=os.environ.get("MUSTER_TEST_POSTGRES_URL",
                                                             DEFAULT_POSTGRES))
    args = parser.parse_args()
    endpoints = args.endpoints.split(",")
    unknown = sorted(set(endpoints) - set(ENDPOINTS))
    if unknown:
        parser.error(f"--endpoints: unknown {unknown}; choose from {','.join(ENDPOINTS)}")
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    for name, tree in trees.items():
        if not (tree / "app" / "asgi.py").is_file():
            parser.error(f"{name}: {tree} holds no app/asgi.py")

    with tempfile.TemporaryDirectory(prefix="muster-compare-") as folder, ExitStack() as stack:
        servers: dict[str, tuple[Setup, list[int]]] = {}
        for name, tree in trees.items():
            place = Path(folder) / name
            place.mkdir()
            url = stack.enter_context(database(args.backend, args.postgres, place))
            port, pid = stack.enter_context(serving(url, 1, place, tree))
            servers[name] = (prepare(port, args.connections), server_pids(pid))
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            found = runner.run(take_turns(servers, endpoints, args.rounds, args.seconds,
                                          args.connections))

    print(f"{args.backend}, 1 worker each, {args.connections} connections, "
          f"{args.rounds}×{args.seconds:g} s per endpoint and server, taking turns")
    for endpoint in endpoints:
        medians = {}
        for name in trees:
            rounds = found[name, endpoint]
            cpu = statistics.median(ms for ms, _ in rounds)
            rate = statistics.median(r for _, r in rounds)
            medians[name] = cpu
            print(f"    {LABELS[endpoint]:<20} {name:<6} CPU {cpu:6.2f} ms/request   "
                  f"{rate:6.0f} req/s   (rounds: {', '.join(f'{ms:.2f}' for ms, _ in rounds)})")
        change = medians["after"] / medians["before"] - 1
        print(f"    {LABELS[endpoint]:<20} after/before: {change:+.1%} CPU per request")


if __name__ == "__main__":
    main()
