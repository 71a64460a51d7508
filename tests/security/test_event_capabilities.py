"""An event changes only with its own key of the route's kind: every event route that changes
it (read from the app, tests/security/test_capabilities.py) refuses no key, a forged key, the
other kind of key, another event's key, a missing CSRF field and another site, changing
nothing; each is then called properly. And the keys never leak: not into the public page or
read, the lists, the CSV, the printed sheets, the hand-in page (the organiser's key) or the
request log."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from app.services import events as event_service
from tests.helpers.events import event, mongols
from tests.security.test_capabilities import (
    EVENT_FORM,
    EVENT_KEYED,
    FOREIGN,
    LIST_KEYED,
    ROUTES,
)


@dataclass
class Events:
    client: TestClient
    event: dict[str, Any]
    other: dict[str, Any]
    roster: dict[str, Any]

    def state(self) -> Any:
        lists = self.client.get(f"/api/v1/events/{self.event['id']}/lists", headers={
            "Authorization": f"Bearer {self.event['organiser_key']}"})
        return lists.json(), self.client.get(f"/api/v1/events/{self.event['id']}").json()

    def key(self, path: str) -> str:
        return str(self.event["organiser_key" if _organisers(path) else "hand_in_key"])

    def other_kind(self, path: str) -> str:
        return str(self.event["hand_in_key" if _organisers(path) else "organiser_key"])


def _organisers(path: str) -> bool:
    return path.endswith(("/publish", "/hand-ins"))


@pytest.fixture
def world(client: TestClient) -> Events:
    made = [client.post("/api/v1/events", json=event()).json() for _ in range(2)]
    roster = client.post("/api/v1/rosters", json=mongols()).json()
    return Events(client, made[0], made[1], roster)


def _past_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    later = datetime.now(UTC) + timedelta(days=8)
    monkeypatch.setattr(event_service, "utcnow", lambda: later)


@pytest.mark.parametrize(("method", "path"), sorted(EVENT_KEYED & set(ROUTES)))
def test_the_api_changes_an_event_only_with_its_own_key_of_the_routes_kind(
        world: Events, method: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    url = path.replace("{event_id}", world.event["id"])
    body = ({"player": "Бату", "roster_id": world.roster["id"]} if path.endswith("/lists")
            else {"open": False} if path.endswith("/hand-ins") else None)

    def send(headers: dict[str, str] | None = None) -> httpx.Response:
        return world.client.post(url, json=body, headers=headers or {})

    if path.endswith("publish"):
        _past_deadline(monkeypatch)
    before = world.state()
    assert send().status_code == 401
    for wrong in ("not-the-key", world.other_kind(path), world.other["organiser_key"],
                  world.other["hand_in_key"]):
        assert send({"Authorization": f"Bearer {wrong}"}).status_code == 403
    for foreign in FOREIGN:
        assert send({**foreign, "Authorization": f"Bearer {world.key(path)}"}).status_code == 403
    assert world.state() == before, "a refused request changed something"
    proper = send({"Authorization": f"Bearer {world.key(path)}"})
    assert proper.status_code in (200, 201), proper.text
    assert world.state() != before


@pytest.mark.parametrize(("method", "path"), sorted(EVENT_FORM & set(ROUTES)))
def test_the_event_forms_change_it_only_with_its_key_and_this_sites_csrf_field(
        world: Events, method: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    browser = TestClient(world.client.app)
    browser.get("/")
    csrf = str(browser.cookies["muster_csrf"])
    url = path.replace("{event_id}", world.event["id"])
    fields = ({"player": "Бату", "roster": world.roster["id"]} if path.endswith("/hand-in")
              else {"open": "0"} if path.endswith("/hand-ins") else {})

    def send(key: str, headers: dict[str, str] | None = None,
             token: str | None = csrf) -> httpx.Response:
        data = {**fields, "key": key, **({"csrf": token} if token else {})}
        return browser.post(url, data=data, headers=headers or {}, follow_redirects=False)

    if path.endswith("publish"):
        _past_deadline(monkeypatch)
    before = world.state()
    assert send(world.key(path), token=None).status_code == 403
    assert send(world.key(path), token="forged").status_code == 403
    for wrong in ("", "not-the-key", world.other_kind(path), world.other["organiser_key"]):
        assert send(wrong).status_code == 403
    for foreign in FOREIGN:
        assert send(world.key(path), foreign).status_code == 403
    assert world.state() == before, "a refused request changed something"
    assert send(world.key(path)).status_code == 303
    assert world.state() != before


def test_the_routes_that_withdraw_a_list_are_walked_here() -> None:
    assert sorted(LIST_KEYED & set(ROUTES)) == sorted(LIST_KEYED)


def test_the_api_withdraws_a_list_only_with_its_own_key(world: Events) -> None:
    lists = f"/api/v1/events/{world.event['id']}/lists"
    hand_in = {"Authorization": f"Bearer {world.event['hand_in_key']}"}
    mine, theirs = (world.client.post(lists, json={"player": p, "roster_id": world.roster["id"]},
                                      headers=hand_in).json() for p in ("Бату", "Ян"))
    elsewhere = world.client.post(
        f"/api/v1/events/{world.other['id']}/lists", json={
            "player": "Бату", "roster_id": world.roster["id"]},
        headers={"Authorization": f"Bearer {world.other['hand_in_key']}"}).json()
    url = f"{lists}/{mine['id']}"
    before = world.state()
    assert world.client.delete(url).status_code == 401
    for wrong in ("not-the-key", theirs["list_key"], elsewhere["list_key"],
                  world.event["hand_in_key"], world.event["organiser_key"]):
        assert world.client.delete(url, headers={
            "Authorization": f"Bearer {wrong}"}).status_code == 403
    for foreign in FOREIGN:
        assert world.client.delete(url, headers={
            **foreign, "Authorization": f"Bearer {mine['list_key']}"}).status_code == 403
    # Another event's list by its own key: not this event's.
    assert world.client.delete(f"/api/v1/events/{world.event['id']}/lists/{elsewhere['id']}",
                               headers={"Authorization": f"Bearer {elsewhere['list_key']}"}
                               ).status_code == 404
    assert world.state() == before, "a refused request changed something"
    assert world.client.delete(url, headers={
        "Authorization": f"Bearer {mine['list_key']}"}).status_code == 204
    assert [r["player"] for r in world.state()[0]] == ["Ян"]


def test_a_list_is_withdrawn_from_a_page_only_by_the_browser_that_handed_it_in(
        world: Events) -> None:
    made = world.event
    player, stranger = TestClient(world.client.app), TestClient(world.client.app)
    for browser in (player, stranger):
        browser.get("/")
    handed = player.post(f"/e/{made['id']}/hand-in", data={
        "csrf": str(player.cookies["muster_csrf"]), "key": made["hand_in_key"],
        "player": "Бату", "roster": world.roster["id"]}, follow_redirects=False)
    assert handed.status_code == 303
    (row,) = world.state()[0]

    def send(browser: TestClient, headers: dict[str, str] | None = None,
             token: str | None = "") -> httpx.Response:
        token = str(browser.cookies["muster_csrf"]) if token == "" else token
        data = {"key": made["hand_in_key"], "list": row["id"],
                **({"csrf": token} if token else {})}
        return browser.post(f"/e/{made['id']}/withdraw", data=data, headers=headers or {},
                            follow_redirects=False)

    before = world.state()
    assert send(player, token=None).status_code == 403
    assert send(player, token="forged").status_code == 403
    assert send(stranger).status_code == 403  # the hand-in link is not the list's key
    for foreign in FOREIGN:
        assert send(player, foreign).status_code == 403
    assert world.state() == before, "a refused request changed something"
    assert send(player).status_code == 303
    assert world.state()[0] == []


def test_the_keys_never_leak_into_public_pages_exports_or_the_log(
        world: Events, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    client, made = world.client, world.event
    organiser, hand_in = made["organiser_key"], made["hand_in_key"]
    handed = client.post(f"/api/v1/events/{made['id']}/lists", json={
        "player": "Бату", "roster_id": world.roster["id"]},
        headers={"Authorization": f"Bearer {hand_in}"})
    assert handed.status_code == 201 and organiser not in handed.text
    assert hand_in not in handed.text
    hand_in_page = client.get(f"/e/{made['id']}/hand-in?key={hand_in}")
    assert hand_in_page.status_code == 200 and organiser not in hand_in_page.text
    organiser_page = client.get(f"/e/{made['id']}/organise?key={organiser}")
    # The organiser sees the hand-in link again (drawn from the organiser's key), and only he.
    assert organiser_page.status_code == 200 and hand_in in organiser_page.text
    _past_deadline(monkeypatch)
    assert client.post(f"/api/v1/events/{made['id']}/publish", headers={
        "Authorization": f"Bearer {organiser}"}).status_code == 200
    read = client.get(f"/api/v1/events/{made['id']}")
    sheet = read.json()["armies"][0]["sheet_url"]
    seen = [read, client.get(f"/e/{made['id']}"), client.get(sheet),
            client.get(sheet.removesuffix("/print")),
            client.get(f"/api/v1/events/{made['id']}/lists",
                       headers={"Authorization": f"Bearer {organiser}"}),
            client.get(f"/api/v1/events/{made['id']}/lists.csv",
                       headers={"Authorization": f"Bearer {organiser}"}),
            client.get(f"/e/{made['id']}/lists.csv?key={organiser}")]
    for answer in seen:
        assert answer.status_code == 200, answer.url
        # Nor the roster's id, which reads its later edits: a list is its own frozen version.
        for key in (organiser, hand_in, world.roster["id"], handed.json()["list_key"]):
            assert key not in answer.text, answer.url
    # The app's own records (the test client's httpx logs the URLs it was given).
    logged = "\n".join(record.getMessage() for record in caplog.records
                       if record.name.startswith("muster"))
    assert "/organise" in logged and "/hand-in" in logged
    assert organiser not in logged and hand_in not in logged


def test_events_count_against_the_creation_limit_as_rosters_do(app_with: Any) -> None:
    with app_with(creation_limit=2) as limited:
        assert limited.post("/api/v1/rosters", json=mongols()).status_code == 201
        assert limited.post("/api/v1/events", json=event()).status_code == 201
        refused = limited.post("/api/v1/events", json=event())
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        limited.get("/")
        page = limited.post("/e/new", data={
            "csrf": str(limited.cookies["muster_csrf"]), "name": "Турнир",
            "date": "2030-01-05", "ruleset": "chainmail", "deadline": "2030-01-04T18:00"})
        assert page.status_code == 429
        # Rules refused for themselves are answered so, whatever the limit.
        assert limited.post("/api/v1/events", json=event(name=" ")).status_code == 422


def test_a_new_list_counts_against_the_creation_limit_so_one_key_cannot_fill_the_event(
        app_with: Any) -> None:
    with app_with(creation_limit=3) as limited:
        made = limited.post("/api/v1/events", json=event()).json()
        army = limited.post("/api/v1/rosters", json=mongols()).json()
        lists, key = f"/api/v1/events/{made['id']}/lists", made["hand_in_key"]

        def hand_in(player: str, **more: Any) -> httpx.Response:
            return limited.post(lists, json={"player": player, "roster_id": army["id"], **more},
                                headers={"Authorization": f"Bearer {key}"})

        first = hand_in("Бату")
        assert first.status_code == 201
        over = hand_in("Ян")
        assert over.status_code == 429 and int(over.headers["retry-after"]) >= 1
        # A replacement is no new list: it is not counted.
        assert hand_in("Бату", list_key=first.json()["list_key"]).status_code == 200
        assert limited.get(f"/api/v1/events/{made['id']}").json()["lists"] == 1
