"""The event pages as a browser without JavaScript uses them: made from the home page, a list
handed in from My rosters or a pasted link (its verdict at once), the organiser's page with
its lists, reminders and CSV, the public page (the rules and the count until published), in
English and Russian."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services import events as event_service
from tests.helpers.events import mongols, poles_with_engine


def made(client: TestClient, **fields: str) -> tuple[str, str, str]:
    """An event made with the form: (id, organiser key, hand-in key)."""
    home = client.get("/")
    assert 'href="/e/new"' in home.text
    assert client.get("/e/new").status_code == 200
    deadline = (datetime.now(UTC) + timedelta(days=7)).strftime("%Y-%m-%dT%H:%M")
    form = {"csrf": str(client.cookies["muster_csrf"]), "name": "Зимний турнир",
            "date": "2030-01-05", "ruleset": "chainmail", "points_limit": "300",
            "deadline": deadline, "nations": ["mongols", "poles"], "no_engines": "1",
            "historical": "1", **fields}
    answer = client.post("/e/new", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    organiser = client.get(answer.headers["location"])
    assert organiser.status_code == 200, organiser.text
    organiser_link = re.search(r'id="organiser-link" readonly value="[^"]*/e/([^/]+)/organise'
                               r'\?key=([^"]+)"', organiser.text)
    hand_in_link = re.search(r'id="hand-in-link" readonly value="[^"]*hand-in\?key=([^"]+)"',
                             organiser.text)
    assert organiser_link and hand_in_link
    # Shown once: the cookie that carried them is gone.
    again = client.get(answer.headers["location"])
    assert again.status_code == 403 and hand_in_link.group(1) not in again.text
    return organiser_link.group(1), organiser_link.group(2), hand_in_link.group(1)


def mine(client: TestClient, document: dict[str, Any]) -> str:
    roster = client.post("/api/v1/rosters", json=document).json()
    assert client.get(f"/r/{roster['id']}/edit?key={roster['edit_key']}").status_code == 200
    return str(roster["id"])


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_list_from_my_rosters_is_judged_at_once_and_shown_to_the_organiser(
        client: TestClient, lang: str) -> None:
    client.cookies.set("lang", lang)
    event_id, organiser, hand_in = made(client)
    legal, engine = mine(client, mongols()), mine(client, poles_with_engine())
    page = client.get(f"/e/{event_id}/hand-in?key={hand_in}")
    assert page.status_code == 200 and f'value="{legal}"' in page.text
    assert organiser not in page.text
    csrf = str(client.cookies["muster_csrf"])
    for player, roster in (("Бату", legal), ("Болеслав", engine)):
        answer = client.post(f"/e/{event_id}/hand-in", data={
            "csrf": csrf, "key": hand_in, "player": player, "roster": roster},
            follow_redirects=False)
        assert answer.status_code == 303, answer.text
    shown = client.get(answer.headers["location"])
    assert "✗" in shown.text
    assert ("no engines" if lang == "en" else "осадных машин") in shown.text
    board = client.get(f"/e/{event_id}/organise?key={organiser}&sort=verdict")
    assert board.status_code == 200
    rows = re.findall(r"<tr>\s*<td><bdi>([^<]+)</bdi>.*?class=\"mark\"[^>]*>(.)<", board.text,
                      re.S)
    assert rows == [("Болеслав", "✗"), ("Бату", "✓")]
    assert ("Reminder to send" if lang == "en" else "Напоминание") in board.text
    csv = client.get(f"/e/{event_id}/lists.csv?key={organiser}")
    assert csv.status_code == 200 and "Болеслав" in csv.text and hand_in not in csv.text
    public = client.get(f"/e/{event_id}")
    assert public.status_code == 200 and "Бату" not in public.text
    assert organiser not in public.text and hand_in not in public.text
    assert ("Lists handed in: 2" if lang == "en" else "Подано списков: 2") in public.text


def test_a_pasted_share_link_hands_in_and_the_deadline_closes_the_form(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    event_id, organiser, hand_in = made(client)
    roster = client.post("/api/v1/rosters", json=mongols()).json()
    csrf = str(client.cookies["muster_csrf"])
    answer = client.post(f"/e/{event_id}/hand-in", data={
        "csrf": csrf, "key": hand_in, "player": "Ян",
        "link": f"https://muster.example/r/{roster['id']}"}, follow_redirects=False)
    assert answer.status_code == 303
    assert client.post(f"/e/{event_id}/hand-in", data={
        "key": hand_in, "player": "Ян", "roster": roster["id"]}).status_code == 403
    for name in ("", "\u200b\u200b", "я" * 121):
        refused = client.post(f"/e/{event_id}/hand-in", data={
            "csrf": csrf, "key": hand_in, "player": name, "roster": roster["id"]})
        assert refused.status_code == 422 and "120" in refused.text
    assert client.post(f"/e/{event_id}/hand-in", data={
        "csrf": csrf, "key": organiser, "player": "Ян", "roster": roster["id"]}).status_code == 403
    later = datetime.now(UTC) + timedelta(days=8)
    monkeypatch.setattr(event_service, "utcnow", lambda: later)
    late = client.post(f"/e/{event_id}/hand-in", data={
        "csrf": csrf, "key": hand_in, "player": "Ян", "roster": roster["id"]})
    assert late.status_code == 409
    published = client.post(f"/e/{event_id}/publish", data={"csrf": csrf, "key": organiser},
                            follow_redirects=False)
    assert published.status_code == 303
    public = client.get(f"/e/{event_id}")
    sheet = re.search(rf'href="(/e/{event_id}/l/[^"/]+/print)"', public.text)
    assert sheet and "Ян" in public.text
    printed = client.get(sheet.group(1))
    assert printed.status_code == 200 and "Орда Субэдэя" in printed.text
    assert organiser not in printed.text and hand_in not in printed.text


def test_a_refused_form_says_why_and_keeps_what_was_written(client: TestClient) -> None:
    client.get("/")
    answer = client.post("/e/new", data={"csrf": str(client.cookies["muster_csrf"]),
                                         "name": "Турнир", "date": "2030-01-05",
                                         "ruleset": "chainmail", "deadline": "soon"})
    assert answer.status_code == 422 and 'value="Турнир"' in answer.text
    assert client.get("/e/nosuchevent00000").status_code == 404
    assert client.get("/e/nosuchevent00000/organise?key=x").status_code == 404


def test_an_exported_file_is_handed_in_and_a_bad_one_refused_in_the_pages_language(
        client: TestClient) -> None:
    event_id, organiser, hand_in = made(client)
    roster = client.post("/api/v1/rosters", json=poles_with_engine()).json()
    exported = client.get(f"/api/v1/rosters/{roster['id']}/export.json").content
    csrf = str(client.cookies["muster_csrf"])
    fields = {"csrf": csrf, "key": hand_in, "player": "Ян"}
    answer = client.post(f"/e/{event_id}/hand-in", data=fields, follow_redirects=False,
                         files={"file": ("export.json", exported, "application/json")})
    assert answer.status_code == 303, answer.text
    assert "✗" in client.get(answer.headers["location"]).text
    client.cookies.set("lang", "ru")
    bad = client.post(f"/e/{event_id}/hand-in", data=fields,
                      files={"file": ("export.json", b"{not json", "application/json")})
    assert bad.status_code == 422 and "Файл не прочитан" in bad.text
    board = client.get(f"/e/{event_id}/organise?key={organiser}")
    assert "Хоругвь" in board.text


def test_a_players_hostile_name_stays_text_on_every_event_page(client: TestClient) -> None:
    event_id, organiser, hand_in = made(client)
    roster = client.post("/api/v1/rosters", json=mongols()).json()
    name = '<script>alert(1)</script>\u202eБату'
    handed = client.post(f"/api/v1/events/{event_id}/lists", json={
        "player": name, "roster_id": roster["id"]},
        headers={"Authorization": f"Bearer {hand_in}"})
    assert handed.status_code == 201, handed.text
    board = client.get(f"/e/{event_id}/organise?key={organiser}")
    listed = client.get(f"/e/{event_id}/l/{handed.json()['id']}?key={organiser}")
    for page in (board, listed):
        assert page.status_code == 200
        assert "<script>alert" not in page.text and "&lt;script&gt;" in page.text
        assert "\u202e" not in page.text


def test_only_the_browser_that_handed_a_list_in_or_its_key_replaces_it(
        client: TestClient) -> None:
    event_id, organiser, hand_in = made(client)
    legal, engine = mine(client, mongols()), mine(client, poles_with_engine())

    def send(browser: TestClient, player: str, roster: str, **more: str) -> Any:
        return browser.post(f"/e/{event_id}/hand-in", data={
            "csrf": str(browser.cookies["muster_csrf"]), "key": hand_in, "player": player,
            "roster": roster, **more}, follow_redirects=False)

    assert send(client, "Alice", legal).status_code == 303
    shown = client.get(f"/e/{event_id}/hand-in?key={hand_in}")
    key = re.search(r'id="new-list-key" readonly value="([^"]+)"', shown.text)
    assert key, shown.text
    again = client.get(f"/e/{event_id}/hand-in?key={hand_in}")  # shown once
    assert key.group(1) not in again.text and "Alice" in again.text  # the list stays shown
    other = TestClient(client.app)
    other.get("/")
    taken = send(other, "ALICE", engine)
    assert taken.status_code == 409 and "under this name already" in taken.text
    assert "Alice" not in other.get(f"/e/{event_id}/hand-in?key={hand_in}").text
    assert send(client, "alice", engine).status_code == 303  # this browser keeps the key
    assert send(other, "ALICE", legal, list_key=key.group(1)).status_code == 303
    board = client.get(f"/e/{event_id}/organise?key={organiser}")
    assert board.text.count("<tr>") == 2 and "replacements: 2" in board.text
    list_id = re.search(rf'href="/e/{event_id}/l/([^"?]+)"', board.text)
    assert list_id
    history = client.get(f"/e/{event_id}/l/{list_id.group(1)}?key={organiser}")
    assert history.text.count("replaced 20") == 2 and "Хоругвь" in history.text


def test_the_organiser_sees_the_hand_in_link_again_on_his_page(client: TestClient) -> None:
    event_id, organiser, hand_in = made(client)
    later = client.get(f"/e/{event_id}/organise?key={organiser}")
    shown = re.search(r'id="hand-in-link" readonly value="[^"]*hand-in\?key=([^"]+)"',
                      later.text)
    assert shown and shown.group(1) == hand_in
    assert client.get(f"/e/{event_id}/hand-in?key={hand_in}").status_code == 200
