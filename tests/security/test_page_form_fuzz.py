"""Every page's form, posted with its fields mutated one at a time, on SQLite and PostgreSQL:
no answer is a 5xx. The forms are read from the pages themselves (the home page, a roster's
share view and editor, a game's play and join pages, an event's new, hand-in and organiser's
pages), so a new form joins by existing. Each field in turn takes each of a few hostile
values or is left out; the forms are read once, so after the first change their versions
are stale, and the stale paths are walked too."""

from __future__ import annotations

import random
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi.testclient import TestClient

from tests.helpers.events import event, mongols
from tests.helpers.games import chainmail_army, line_and_square_force

HOSTILE = ["", "x", "-1", "0", "1.5", "99999999999999999999999", "9" * 5000, "١٢", " 1 ",
           "NaN", "\x00", "\u202e", "ß" * 300, "<script>", "1; DROP TABLE roster", "u999",
           "l0", "true", "%00"]


class Forms(HTMLParser):
    """The post forms of a page: (action, fields, the submit buttons' (name, value)s)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str], list[tuple[str, str]]]] = []
        self._open: tuple[str, dict[str, str], list[tuple[str, str]]] | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._open = (a.get("action", ""), {}, [])
            self.forms.append(self._open)
        if self._open is None or not a.get("name") and tag != "option":
            return
        fields, buttons = self._open[1], self._open[2]
        if tag == "input" and a.get("type") not in ("file", "submit"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                fields.setdefault(a["name"], "")
            else:
                fields[a["name"]] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag in ("button", "input") and a.get("name"):
            buttons.append((a["name"], a.get("value", "")))
        elif tag == "textarea":
            fields[a["name"]] = ""
        elif tag == "select":
            self._select = a["name"]
            fields.setdefault(a["name"], "")
        elif tag == "option" and self._select and (
                "selected" in a or not fields.get(self._select)):
            fields[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None
        elif tag == "select":
            self._select = None


def forms_of(browser: TestClient, url: str) -> list[tuple[str, dict[str, str], list[Any]]]:
    page = browser.get(url)
    assert page.status_code == 200, (url, page.status_code)
    parser = Forms()
    parser.feed(page.text)
    return parser.forms


def _world(browser: TestClient) -> list[str]:
    """Pages with every kind of post form, this browser holding every right they need."""
    browser.get("/")
    csrf = str(browser.cookies["muster_csrf"])
    pages = ["/", "/e/new"]
    for document in (mongols(), chainmail_army(), line_and_square_force()):
        roster = browser.post("/api/v1/rosters", json=document).json()
        assert browser.get(f"/r/{roster['id']}/edit?key={roster['edit_key']}").status_code == 200
        pages += [f"/r/{roster['id']}", f"/r/{roster['id']}/edit"]
    started = browser.post("/g/new", data={"csrf": csrf, "roster_id": roster["id"],
                                           "version": "1", "weather": "off"},
                           follow_redirects=False)
    play = parse_qs(urlsplit(started.headers["location"]).query)
    game_id = urlsplit(started.headers["location"]).path.split("/")[2]
    pages += [f"/g/{game_id}/play?key={play['key'][0]}",
              f"/g/{game_id}/join?key={play['join'][0]}"]
    made = browser.post("/api/v1/events", json=event()).json()
    handed = browser.post(f"/e/{made['id']}/hand-in", data={
        "csrf": csrf, "key": made["hand_in_key"], "player": "Бату", "roster": roster["id"]},
        follow_redirects=False)
    assert handed.status_code in (303, 409), handed.text  # a Line and Square army: judged ✗
    pages += [f"/e/{made['id']}/hand-in?key={made['hand_in_key']}",
              f"/e/{made['id']}/organise?key={made['organiser_key']}"]
    return pages


@pytest.mark.slow  # a thousand posts or so on each database: a minute
def test_no_page_form_answers_a_5xx_whatever_its_fields_hold(api: TestClient) -> None:
    chosen = random.Random(58)
    posted, failures = 0, []
    for url in _world(api):
        for action, fields, buttons in forms_of(api, url):
            for pressed in buttons or [None]:
                base = {**fields, **(dict([pressed]) if pressed else {})}
                variants = [base] + [{k: v for k, v in base.items() if k != name}
                                     for name in base if name != "csrf"]
                variants += [{**base, name: value} for name in base if name != "csrf"
                             for value in chosen.sample(HOSTILE, 2)]
                for data in variants:
                    answer = api.post(action, data=data, follow_redirects=False)
                    posted += 1
                    if answer.status_code >= 500:
                        failures.append((action, data, answer.status_code))
    assert posted > 500, posted
    assert failures == [], failures[:5]


@pytest.mark.parametrize("turn", ["", "x", "١", "9" * 5000])
def test_a_stale_tap_on_the_play_form_is_told_whatever_its_turn_holds(
        api: TestClient, turn: str) -> None:
    api.get("/")
    csrf = str(api.cookies["muster_csrf"])
    roster = api.post("/api/v1/rosters", json=chainmail_army()).json()
    started = api.post("/g/new", data={"csrf": csrf, "roster_id": roster["id"],
                                       "version": "1", "weather": "off"}, follow_redirects=False)
    game_id = urlsplit(started.headers["location"]).path.split("/")[2]
    key = parse_qs(urlsplit(started.headers["location"]).query)["key"][0]
    fields = {"csrf": csrf, "key": key, "action": "turn", "version": "1"}
    assert api.post(f"/g/{game_id}/play", data=fields, follow_redirects=False).status_code == 303
    stale = api.post(f"/g/{game_id}/play", data={**fields, "turn": turn})
    assert stale.status_code == 409 and "changed meanwhile" in stale.text


@pytest.mark.parametrize("value", ["²", "9" * 5000])
def test_a_pages_number_in_the_address_that_int_cannot_read_is_ignored(
        client: TestClient, value: str) -> None:
    roster = client.post("/api/v1/rosters", json=mongols()).json()
    editor = client.get(f"/r/{roster['id']}/edit?key={roster['edit_key']}&undo_to={value}")
    assert editor.status_code == 200
    assert client.get("/calc/tournament", params={"k0": "Ивейн", "k0t": value}).status_code == 200
