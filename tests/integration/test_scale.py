"""Beyond one process: several servers over one PostgreSQL database, SIGTERM with a request in
flight, and a database that goes away and comes back — all on real `muster serve` processes.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url

from tests.helpers.databases import app_database, fresh_schema
from tests.helpers.documents import army
from tests.helpers.proxy import tcp_proxy
from tests.helpers.servers import free_port, running_server, running_servers

pytestmark = pytest.mark.slow
ROSTERS = "/api/v1/rosters"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    with fresh_schema() as url:
        yield url


def log_entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(errors="replace").splitlines()
            if line.startswith("{")]


def test_two_servers_on_one_database_serve_the_same_rosters_to_api_clients(
        postgres_url: str, tmp_path: Path) -> None:
    # Started together on an empty schema: both migrate at once, and must take turns.
    with running_servers(2, postgres_url, tmp_path, muster=True) as (one, two), \
            httpx.Client(timeout=30) as http:
        created = http.post(f"{one.url}{ROSTERS}", json=army(name="Орда")).json()
        roster = f"{ROSTERS}/{created['id']}"
        auth = {"Authorization": f"Bearer {created['edit_key']}"}

        read = http.get(f"{two.url}{roster}")
        assert read.status_code == 200 and read.headers["etag"] == '"v1"'
        assert read.json()["document"]["name"] == "Орда"

        changed = http.put(f"{two.url}{roster}", json=army(name="Тумен"),
                           headers={**auth, "If-Match": '"v1"'})
        assert changed.status_code == 200 and changed.json()["version"] == 2
        # A writer on the other server still holding version 1 is told, not obeyed.
        stale = http.put(f"{one.url}{roster}", json=army(name="Опоздал"),
                         headers={**auth, "If-Match": '"v1"'})
        assert stale.status_code == 412
        assert stale.json()["version"] == 2 and stale.headers["etag"] == '"v2"'
        for server in (one, two):
            assert http.get(f"{server.url}{roster}").json()["document"]["name"] == "Тумен"
            assert http.get(f"{server.url}/readyz").status_code == 200


def test_a_browser_may_be_answered_by_either_server_without_noticing(
        postgres_url: str, tmp_path: Path) -> None:
    with running_servers(2, postgres_url, tmp_path, muster=True) as (one, two), \
            httpx.Client(timeout=30, follow_redirects=False) as browser:
        # One cookie jar for both: cookies belong to the host, whatever the port, as behind
        # a load balancer they belong to the site whichever server answers.
        created = browser.post(f"{one.url}{ROSTERS}", json=army(name="Орда")).json()
        roster_id = created["id"]

        # The edit link opened on one server sends its key on to the editor in a cookie...
        opened = browser.get(f"{two.url}/r/{roster_id}/edit?key={created['edit_key']}")
        assert opened.status_code == 303 and browser.cookies.get("muster_link_key")
        # ...where the other server exchanges it for this browser's right to edit...
        editor = browser.get(f"{one.url}/r/{roster_id}/edit")
        assert editor.status_code == 200 and "Орда" in editor.text
        assert browser.cookies.get("muster_device") and not browser.cookies.get("muster_link_key")
        # ...which the first server honours, with the CSRF cookie the other set.
        csrf = browser.cookies.get("muster_csrf")
        assert csrf

        added = browser.post(f"{two.url}/r/{roster_id}/edit",
                             data={"csrf": csrf, "version": "1", "system": "chainmail",
                                   "op": "add_unit", "preset": "horse_archers"})
        assert added.status_code == 303, added.text
        # The same form sent again through the other server is a stale edit: 409, no change.
        again = browser.post(f"{one.url}/r/{roster_id}/edit",
                             data={"csrf": csrf, "version": "1", "system": "chainmail",
                                   "op": "add_unit", "preset": "horse_archers"})
        assert again.status_code == 409
        stored = browser.get(f"{two.url}{ROSTERS}/{roster_id}").json()
        assert stored["version"] == 2 and len(stored["document"]["units"]) == 2

        # Language chosen on one server is spoken by the other.
        assert browser.get(f"{one.url}/lang/ru?next=/").status_code == 303
        page = browser.get(f"{two.url}/r/{roster_id}/edit").text
        assert 'lang="ru"' in page and "Добавить отряд" in page
        # "My rosters" is the same list on both.
        for server in (one, two):
            assert f"/r/{roster_id}" in browser.get(f"{server.url}/").text


def large_roster(units: int = 400) -> dict[str, Any]:
    """A real roster near the 1 MiB body limit: many units with long notes."""
    document = army(name="Великая орда")
    line = document["units"][0]["lines"][0]
    document["units"] = [{"id": f"u{n + 1}", "name": f"Отряд {n}", "mercenary": False, "flags": [],
                          "note": "Летописец пишет: " + "ж" * 900, "lines": [dict(line)]}
                         for n in range(units)]
    return document


@pytest.mark.app_backend
def test_a_request_in_flight_when_sigterm_arrives_still_gets_its_answer(tmp_path: Path) -> None:
    document = large_roster()
    body = json.dumps(document, ensure_ascii=False).encode()
    assert 700_000 < len(body) < 1024 * 1024
    pieces = [body[i:i + len(body) // 20] for i in range(0, len(body), len(body) // 20)]
    halfway = threading.Event()
    outcome: dict[str, Any] = {}

    def slowly() -> Iterator[bytes]:
        for n, piece in enumerate(pieces):
            if n == len(pieces) // 2:
                halfway.set()
            yield piece
            time.sleep(0.1)

    def upload(url: str) -> None:
        try:
            outcome["answer"] = httpx.post(f"{url}{ROSTERS}", content=slowly(), timeout=60,
                                           headers={"Content-Type": "application/json"})
        except httpx.HTTPError as error:
            outcome["error"] = error

    with app_database(tmp_path) as url:
        env = {"MUSTER_LOG_FORMAT": "json", "MUSTER_WORKERS": "2"}
        with running_server(url, tmp_path, muster=True, env=env) as server:
            sender = threading.Thread(target=upload, args=(server.url,), daemon=True)
            sender.start()
            assert halfway.wait(timeout=30)
            # As `docker stop` does: SIGTERM to the main process, which passes it on.
            code = server.terminate()
            sender.join(timeout=60)
            assert code == 0
            assert "error" not in outcome, outcome.get("error")
            answer = outcome["answer"]
            assert answer.status_code == 201, answer.text[:300]
            entries = log_entries(server.log)
            lines = [e for e in entries if e.get("path") == ROSTERS]
            assert [(e["method"], e["status"]) for e in lines] == [("POST", 201)]
            assert lines[0]["request_id"] == answer.headers["x-request-id"]
            # Two workers (MUSTER_WORKERS), each finished cleanly.
            messages = [e["message"] for e in entries]
            assert len({m for m in messages if m.startswith("Started server process")}) == 2
            assert len({m for m in messages if m.startswith("Finished server process")}) == 2
        with running_server(url, tmp_path) as again:
            stored = httpx.get(f"{again.url}{ROSTERS}/{answer.json()['id']}", timeout=30)
            assert stored.status_code == 200 and stored.json()["document"] == document


def test_a_server_cut_off_from_its_database_answers_503_and_recovers_by_itself(
        postgres_url: str, tmp_path: Path) -> None:
    real = make_url(postgres_url)
    with tcp_proxy((real.host or "127.0.0.1", real.port or 5432)) as proxy:
        via_proxy = real.set(host="127.0.0.1", port=proxy.port).render_as_string(
            hide_password=False)
        env = {"MUSTER_LOG_FORMAT": "json", "MUSTER_DB_CONNECT_TIMEOUT": "3"}
        with running_server(via_proxy, tmp_path, muster=True, env=env) as server, \
                httpx.Client(base_url=server.url, timeout=30) as http:
            created = http.post(ROSTERS, json=army(name="До обрыва")).json()
            roster = f"{ROSTERS}/{created['id']}"
            assert http.get(roster).status_code == 200

            proxy.cut()
            api = http.get(roster)
            assert api.status_code == 503, api.text
            assert "database" in api.json()["message"].lower()
            assert int(api.headers["retry-after"]) > 0
            page = http.get(f"/r/{created['id']}", headers={"Accept-Language": "ru"})
            assert page.status_code == 503 and "База данных недоступна" in page.text
            refused = http.put(roster, json=army(name="Во время обрыва"),
                               headers={"Authorization": f"Bearer {created['edit_key']}",
                                        "If-Match": '"v1"'})
            assert refused.status_code == 503
            assert http.get("/healthz").status_code == 200
            assert http.get("/readyz").status_code == 503

            proxy.restore()
            deadline = time.monotonic() + 20
            while http.get(roster).status_code != 200:
                assert time.monotonic() < deadline, "the server did not recover"
                time.sleep(0.2)
            assert http.get("/readyz").status_code == 200
            # Nothing was half-written during the outage: version 1 is still current.
            after = http.put(roster, json=army(name="После обрыва"),
                             headers={"Authorization": f"Bearer {created['edit_key']}",
                                      "If-Match": '"v1"'})
            assert after.status_code == 200 and after.json()["version"] == 2
            assert server.process.poll() is None, "recovered without a restart"

            # Each refusal is logged with the cause, under the id the client was given.
            entries = log_entries(server.log)
            warned = {e.get("request_id") for e in entries if e["logger"] == "muster.health"}
            failed = {e["request_id"] for e in entries
                      if e.get("status") == 503 and e["path"] != "/readyz"}
            assert api.headers["x-request-id"] in failed and failed <= warned


@pytest.mark.app_backend
def test_the_request_log_of_a_real_server_has_one_line_per_request(tmp_path: Path) -> None:
    with app_database(tmp_path) as url, \
            running_server(url, tmp_path, muster=True, env={"MUSTER_LOG_FORMAT": "plain"}) as s:
        ids = [httpx.get(f"{s.url}/about", headers={"X-Request-ID": f"about-{n}"}).headers[
            "x-request-id"] for n in range(3)]
        assert ids == ["about-0", "about-1", "about-2"]
        s.terminate()
        text = s.log.read_text(errors="replace")
    lines = [line for line in text.splitlines() if "muster.access" in line]
    assert len([line for line in lines if " GET /about 200 " in line]) == 3
    for n in range(3):
        assert sum(f"[about-{n}]" in line for line in lines) == 1
    assert all(re.search(r" [\d.]+ms$", line) for line in lines)


def test_muster_serve_will_not_start_on_a_database_it_cannot_reach_and_says_why(
        tmp_path: Path) -> None:
    url = f"postgresql+psycopg://muster@127.0.0.1:{free_port()}/muster"
    with pytest.raises(RuntimeError, match="migration failed: .*refused"), \
            running_server(url, tmp_path, muster=True, ready_within=30):
        pass
