"""No lost updates and no lost data, shown on real uvicorn processes over real databases."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.documents import army
from tests.helpers.servers import running_server

pytestmark = pytest.mark.slow
ROSTERS = "/api/v1/rosters"
WRITERS = 20
ROUNDS = 4


def race(writer: Callable[[int], None]) -> None:
    """`writer(n)` for each of the WRITERS, each in a thread of its own, all at once."""
    threads = [threading.Thread(target=writer, args=(n,), daemon=True) for n in range(WRITERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


def test_twenty_racing_writers_lose_no_update(database_url: str, tmp_path: Path) -> None:
    # Two worker processes: the writers race across processes, not only across threads.
    with running_server(database_url, tmp_path, workers=2) as server:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            created = http.post(ROSTERS, json=army(name="start")).json()
        roster = f"{ROSTERS}/{created['id']}"
        auth = {"Authorization": f"Bearer {created['edit_key']}"}
        read_done = threading.Barrier(WRITERS, timeout=60)
        round_done = threading.Barrier(WRITERS, timeout=60)
        # (round, writer) -> (If-Match sent, status, body, document sent)
        outcomes: dict[tuple[int, int], tuple[str, int, dict[str, Any], dict[str, Any]]] = {}
        failures: list[str] = []

        def writer(n: int) -> None:
            try:
                with httpx.Client(base_url=server.url, timeout=60) as http:
                    for round_ in range(ROUNDS):
                        etag = http.get(roster).headers["ETag"]
                        document = army(name=f"round {round_} writer {n}",
                                        figures=1 + n + round_)
                        read_done.wait()  # everyone holds the same ETag; now all write at once
                        answer = http.put(roster, json=document,
                                          headers={**auth, "If-Match": etag})
                        outcomes[round_, n] = (etag, answer.status_code, answer.json(), document)
                        round_done.wait()
            except threading.BrokenBarrierError:
                pass  # another writer failed and said so
            except Exception as error:  # reported below, with the others
                failures.append(f"writer {n}: {error!r}")
                read_done.abort()
                round_done.abort()

        race(writer)
        assert failures == []
        assert len(outcomes) == WRITERS * ROUNDS

        winners: dict[int, dict[str, Any]] = {}
        for round_ in range(ROUNDS):
            answers = [outcomes[round_, n] for n in range(WRITERS)]
            assert {etag for etag, *_ in answers} == {f'"v{round_ + 1}"'}
            assert {status for _, status, _, _ in answers} <= {200, 412}
            won = [(body, doc) for _, status, body, doc in answers if status == 200]
            assert len(won) == 1, f"round {round_}: {len(won)} writers won"
            body, document = won[0]
            assert body["version"] == round_ + 2 and body["document"] == document
            winners[round_ + 2] = document
            assert all(body["version"] == round_ + 2
                       for _, status, body, _ in answers if status == 412)

        with httpx.Client(base_url=server.url, timeout=30) as http:
            final = http.get(roster).json()
            revisions = http.get(f"{roster}/revisions").json()
            assert final["version"] == ROUNDS + 1
            assert [r["version"] for r in revisions] == list(range(1, ROUNDS + 2))
            for version, document in winners.items():
                stored = http.get(f"{roster}/revisions/{version}").json()["document"]
                assert stored == document
            assert final["document"] == winners[ROUNDS + 1]
            assert final["result"] == http.post("/api/v1/price", json=final["document"]).json()


def test_racing_changes_in_the_editor_lose_no_update(database_url: str, tmp_path: Path) -> None:
    # The editor's htmx change: on PostgreSQL made on the event loop from the version a worker
    # keeps, or the long way; two worker processes, so that both ways race.
    with running_server(database_url, tmp_path, workers=2) as server:
        with httpx.Client(base_url=server.url, timeout=30) as browser:
            browser.get("/")
            created = browser.post(ROSTERS, json=army(name="start")).json()
            opened = browser.get(f"/r/{created['id']}/edit?key={created['edit_key']}",
                                 follow_redirects=True)
            assert opened.status_code == 200
            cookies = dict(browser.cookies)
        roster_id = created["id"]
        failures: list[str] = []
        for round_ in range(ROUNDS):
            with httpx.Client(base_url=server.url, timeout=30) as http:
                version = http.get(f"{ROSTERS}/{roster_id}").json()["version"]
            at_once = threading.Barrier(WRITERS, timeout=60)
            answers: dict[int, int] = {}

            def writer(n: int, version: int = version, round_: int = round_,
                       at_once: threading.Barrier = at_once,
                       answers: dict[int, int] = answers) -> None:
                try:
                    with httpx.Client(base_url=server.url, timeout=60, cookies=cookies) as http:
                        form = {"csrf": cookies["muster_csrf"], "version": str(version),
                                "system": "chainmail", "op": "update_unit", "unit": "u1",
                                "line": "l1", "unit_name": "Кешиг",
                                "figures_l1": str(100 * (round_ + 1) + n),
                                "troop_l1": "medium_horse", "weapon_l1": "lance"}
                        at_once.wait()
                        answers[n] = http.post(f"/r/{roster_id}/edit", data=form,
                                               headers={"HX-Request": "true"}).status_code
                except Exception as error:  # reported below, with the others
                    failures.append(f"writer {n}: {error!r}")
                    at_once.abort()

            race(writer)
            assert failures == []
            assert sorted(answers.values()) == [200] + [409] * (WRITERS - 1), answers
            [winner] = [n for n, status in answers.items() if status == 200]
            with httpx.Client(base_url=server.url, timeout=30) as http:
                read = http.get(f"{ROSTERS}/{roster_id}").json()
            assert read["version"] == version + 1
            assert read["document"]["units"][0]["lines"][0]["figures"] == \
                100 * (round_ + 1) + winner


def test_writes_answered_before_a_sigkill_survive_the_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"  # the default SQLite file, in a directory the server creates
    acknowledged: dict[str, dict[int, dict[str, Any]]] = {}
    lock = threading.Lock()
    stop = threading.Event()
    refused: list[int] = []  # answers other than success while the server was up

    with running_server(None, tmp_path, data_dir=data_dir) as server:

        def writer(n: int) -> None:
            with httpx.Client(base_url=server.url, timeout=10) as http:
                serial = 0
                while not stop.is_set():
                    try:
                        serial += 1
                        document = army(name=f"writer {n} roster {serial}")
                        created = http.post(ROSTERS, json=document)
                        if created.status_code != 201:
                            refused.append(created.status_code)
                            continue
                        body = created.json()
                        with lock:
                            acknowledged[body["id"]] = {1: document}
                        auth = {"Authorization": f"Bearer {body['edit_key']}"}
                        for version in range(1, 4):
                            document = army(name=f"writer {n} roster {serial} v{version + 1}",
                                            figures=version + 1)
                            changed = http.put(f"{ROSTERS}/{body['id']}", json=document,
                                               headers={**auth, "If-Match": f'"v{version}"'})
                            if changed.status_code != 200:
                                refused.append(changed.status_code)
                                break
                            with lock:
                                acknowledged[body["id"]][version + 1] = document
                    except httpx.TransportError:
                        return

        threads = [threading.Thread(target=writer, args=(n,), daemon=True) for n in range(4)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with lock:
                if sum(len(v) for v in acknowledged.values()) >= 60:
                    break
            time.sleep(0.05)
        server.kill()  # mid-stream: the writers are still sending
        stop.set()
        for thread in threads:
            thread.join(timeout=30)

    assert refused == []
    assert sum(len(v) for v in acknowledged.values()) >= 60
    database = data_dir / "muster.db"
    with sqlite3.connect(database) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    with (running_server(None, tmp_path, data_dir=data_dir) as again,
          httpx.Client(base_url=again.url) as http):
        for roster_id, versions in acknowledged.items():
            current = http.get(f"{ROSTERS}/{roster_id}")
            assert current.status_code == 200, f"acknowledged roster {roster_id} was lost"
            assert current.json()["version"] >= max(versions)
            listed = http.get(f"{ROSTERS}/{roster_id}/revisions").json()
            assert [r["version"] for r in listed] == list(range(1, current.json()["version"] + 1))
            for version, document in versions.items():
                stored = http.get(f"{ROSTERS}/{roster_id}/revisions/{version}").json()
                assert stored["document"] == document
    with sqlite3.connect(database) as check:
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
