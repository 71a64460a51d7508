"""How cost grows with a roster's size: the server time (Server-Timing) of the price and of the
share view of 20, 100 and 500 units, and "Make it legal" on a 50-unit army of every nation with
rules of its own.

Run: `python bench/growth.py [--repeats 30]`

In-process (Starlette's TestClient against Muster's app on a SQLite file of its own): the median
of --repeats requests one after another, so that it is the work and not a queue.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from bench.load import positive, roster  # noqa: E402

SIZES = (20, 100, 500)
LEGAL_UNITS = 50


def server_ms(answer: object) -> float:
    headers = answer.headers  # type: ignore[attr-defined]
    assert answer.status_code == 200, answer.text[:300]  # type: ignore[attr-defined]
    return float(headers["server-timing"].split("dur=")[1])


def sizes(repeats: int) -> None:
    from fastapi.testclient import TestClient

    from app.config import get_settings
    from app.main import create_app

    with TestClient(create_app(get_settings())) as client:
        print("units   price ms  per unit µs   share view ms  per unit µs")
        for units in SIZES:
            body = roster(units)
            made = client.post("/api/v1/rosters", json=body).raise_for_status().json()
            client.get(f"/r/{made['id']}")  # not counted: templates compiled, caches warm
            price = statistics.median(server_ms(client.post("/api/v1/price", json=body))
                                      for _ in range(repeats))
            view = statistics.median(server_ms(client.get(f"/r/{made['id']}"))
                                     for _ in range(repeats))
            print(f"{units:5}   {price:8.2f}  {price / units * 1000:11.0f}   {view:13.2f}  "
                  f"{view / units * 1000:11.0f}")


def make_it_legal() -> None:
    from app.systems.chainmail.make_legal import make_legal
    from app.systems.chainmail.nations import NATIONAL_RULES
    from app.systems.chainmail.roster import ChainmailRoster

    print(f'"Make it legal", {LEGAL_UNITS} units, each nation with rules (seconds)')
    worst = 0.0
    make_legal(ChainmailRoster.model_validate(roster(LEGAL_UNITS)))  # not counted: imports
    for nation in NATIONAL_RULES:
        army = ChainmailRoster.model_validate({**roster(LEGAL_UNITS), "nation": nation})
        started = time.perf_counter()
        suggestion = make_legal(army)
        took = time.perf_counter() - started
        worst = max(worst, took)
        print(f"    {nation:<24} {took:6.3f}  {type(suggestion).__name__}")
    print(f"  slowest {worst:.3f} s — {'met' if worst <= 0.5 else 'MISSED'} (≤ 0.5 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=positive(int), default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="muster-growth-") as folder:
        os.environ.update(DATABASE_URL=f"sqlite:///{folder}/muster.db",
                          MUSTER_CREATION_LIMIT="0", MUSTER_LOG_LEVEL="warning")
        sizes(args.repeats)
    make_it_legal()


if __name__ == "__main__":
    main()
