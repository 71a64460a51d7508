"""Every route that changes data refuses a request without the right capability, and one sent
from another site.

The routes are read from the app itself, so a new route joins these tests by existing: it must
either be protected in one of the known ways (the roster's edit key for the API, this browser's
edit grant for the editor's form) or be listed in OPEN with the reason anyone may call it. A
route that is neither fails the suite. Each refusal is checked against the stored state, and
each route is also called once properly, so a refusal is known to come from the missing
capability and not from a malformed request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlmodel import Session

from app.main import create_app
from app.services import rosters
from app.services.errors import KeyRejected
from tests.helpers.databases import settings_for
from tests.helpers.documents import army
from tests.helpers.events import event
from tests.security.conftest import routes_of, stored_rosters

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
FOREIGN = [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
           {"Sec-Fetch-Site": "same-site"}]

# Changes an existing roster: the API asks for its edit key (Authorization: Bearer).
KEYED = {("PUT", "/api/v1/rosters/{roster_id}"), ("DELETE", "/api/v1/rosters/{roster_id}"),
         ("POST", "/api/v1/rosters/{roster_id}/restore"),
         ("PATCH", "/api/v1/rosters/{roster_id}"), ("POST", "/api/v1/rosters/{roster_id}/undo")}
# Changes an existing roster from a page: this browser must hold the roster's edit grant
# (device cookie, given for the edit link) and echo its CSRF cookie.
GRANTED = {("POST", "/r/{roster_id}/edit"), ("POST", "/r/{roster_id}/link"),
           ("POST", "/r/{roster_id}/delete"), ("POST", "/r/{roster_id}/restore")}
# Changes a game: the API asks for the game's key (Authorization: Bearer), the play page's
# form for it in a field, beside the CSRF field and a same-site origin
# (tests/security/test_game_capabilities.py).
GAME_KEYED = {("POST", f"/api/v1/games/{{game_id}}/{what}")
              for what in ("turns", "tests", "casualties", "undo")}
GAME_FORM = {("POST", "/g/{game_id}/play")}
# Changes an event: the API asks for the event's key of the route's kind (the hand-in key to
# hand a list in, the organiser's to close hand-ins and publish), its pages' forms for it in a
# field, beside the CSRF field and a same-site origin
# (tests/security/test_event_capabilities.py).
EVENT_KEYED = {("POST", "/api/v1/events/{event_id}/lists"),
               ("POST", "/api/v1/events/{event_id}/hand-ins"),
               ("POST", "/api/v1/events/{event_id}/publish")}
EVENT_FORM = {("POST", "/e/{event_id}/hand-in"), ("POST", "/e/{event_id}/hand-ins"),
              ("POST", "/e/{event_id}/publish")}
# Withdraws a list: its own key, in the header, or kept by the browser that handed it in (a
# cookie) beside the CSRF field and a same-site origin. Replacing one is the hand-in routes'
# (with the list's key besides).
LIST_KEYED = {("DELETE", "/api/v1/events/{event_id}/lists/{list_id}"),
              ("POST", "/e/{event_id}/withdraw")}
# Joins a game as its second side: the game's join key, in the header or the join form's field.
GAME_JOIN = {("POST", "/api/v1/games/{game_id}/sides"), ("POST", "/g/{game_id}/join")}
# Open to anyone by design, and why. None of them changes what exists; the page forms among
# them still need the CSRF field and a same-site origin, and the API refuses other sites.
OPEN = {
    ("POST", "/api/v1/price"): "prices the document in the body; stores nothing",
    ("POST", "/api/v1/rulesets/formation_density/melee"):
        "a calculator over units in the body or of rosters anyone may read; stores nothing",
    ("POST", "/api/v1/rulesets/chainmail/weather"): "a calculator over the body; stores nothing",
    ("POST", "/api/v1/rulesets/chainmail/siege"): "a calculator over the body; stores nothing",
    ("POST", "/api/v1/rulesets/chainmail/man-to-man"):
        "a calculator over the body; stores nothing",
    ("POST", "/api/v1/rulesets/formation_density/shooting"):
        "a calculator over the body; stores nothing",
    ("POST", "/api/v1/rosters"): "stores a new roster with a new key; changes nothing else",
    ("POST", "/api/v1/rosters/import"): "stores a new roster from a file, as creation does",
    ("POST", "/api/v1/rosters/{roster_id}/copy"):
        "a new roster from one the caller can read (whoever has the id may read and copy)",
    ("POST", "/rosters/new"): "the home page's form for a new roster",
    ("POST", "/rosters/import"): "the home page's upload of an exported file",
    ("POST", "/r/{roster_id}/copy"): "the share view's 'copy to my rosters'",
    ("POST", "/api/v1/games"):
        "starts a game (a new id and key) of a roster anyone with its id may read",
    ("POST", "/g/new"): "the roster pages' 'Start a game', as the API's start",
    ("POST", "/api/v1/events"): "stores a new event with new keys; changes nothing else",
    ("POST", "/e/new"): "the 'New event' form, as the API's creation",
}


def unsafe_routes() -> list[tuple[str, str]]:
    app = create_app(settings_for("sqlite://", migrate_on_start=False))
    found = set()
    for route in routes_of(app):
        methods = getattr(route, "methods", None) or set()
        for method in methods & UNSAFE:
            found.add((method, route.path))
    return sorted(found)


ROUTES = unsafe_routes()


@dataclass
class World:
    """Two rosters with their keys, the owner's browser (granted on the first) and a stranger's
    browser (with a CSRF cookie of its own, and no grant)."""

    client: TestClient
    owner: TestClient
    stranger: TestClient
    first: dict[str, Any]
    second: dict[str, Any]

    def state(self) -> tuple[Any, ...]:
        """How many rosters are stored, and each roster as read and whether its key holds."""
        seen: list[Any] = [stored_rosters(self.client)]
        with Session(self.client.app.state.engine) as session:  # type: ignore[attr-defined]
            for roster in (self.first, self.second):
                read = self.client.get(f"/api/v1/rosters/{roster['id']}")
                try:
                    rosters.check_edit_key(session, roster["id"], roster["edit_key"])
                    key_holds = True
                except KeyRejected:
                    key_holds = False
                seen.append((read.status_code, read.json(), key_holds))
        return tuple(seen)


@pytest.fixture
def world(client: TestClient) -> World:
    first = client.post("/api/v1/rosters", json=army("Первая")).json()
    second = client.post("/api/v1/rosters", json=army("Вторая")).json()
    owner = TestClient(client.app)
    assert owner.get(f"/r/{first['id']}/edit?key={first['edit_key']}").status_code == 200
    stranger = TestClient(client.app)
    stranger.get("/")
    return World(client, owner, stranger, first, second)


def csrf(browser: TestClient) -> str:
    return str(browser.cookies["muster_csrf"])


Send = Callable[..., httpx.Response]


def api_request(world: World, method: str, path: str) -> Send:
    """A well-formed request to an API route; `send(headers)` sends it with extra headers."""
    url = path.replace("{roster_id}", world.first["id"])
    body: dict[str, Any] | None = {
        "/api/v1/price": army(), "/api/v1/rosters": army(), "/api/v1/rosters/import": army(),
        "/api/v1/rulesets/formation_density/melee": {
            "a": {"density": 1, "files": 1, "lines": [
                {"class": "melee_specialists", "weapon": "sword", "count": 1}]},
            "b": {"density": 3, "files": 1, "lines": [
                {"class": "melee_specialists", "weapon": "improvised", "count": 1}]}},
        "/api/v1/rulesets/chainmail/weather": {"start": "clear", "checks": 2},
        "/api/v1/rulesets/chainmail/siege": {"structures": [{"kind": "bastion", "points": 40}]},
        "/api/v1/rulesets/chainmail/man-to-man": {"attacker": {"weapon_class": 3},
                                                  "defender": {"weapon_class": 5}},
        "/api/v1/rulesets/formation_density/shooting": {
            "hits": 3, "shooter_density": 4, "target": {"density": 3}},
        "/api/v1/rosters/{roster_id}": {"PUT": army("Изменённая"), "PATCH": {"edits": [
            {"op": "set_roster", "name": "Изменённая"}]}}.get(method),
        "/api/v1/games": {"roster_id": world.first["id"]},
        "/api/v1/events": event(),
    }.get(path)
    base = {"If-Match": '"v1"'} if method in ("PUT", "PATCH") else {}
    if path.endswith("/undo"):  # a version to go back from, made with the key beforehand
        made = world.client.patch(
            url.removesuffix("/undo"), json={"edits": [{"op": "remove_unit", "unit": "u1"}]},
            headers={"Authorization": f"Bearer {world.first['edit_key']}", "If-Match": '"v1"'})
        assert made.status_code == 200, made.text
        base = {"If-Match": '"v2"'}

    def send(headers: dict[str, str] | None = None) -> httpx.Response:
        return world.client.request(method, url, json=body, headers={**base, **(headers or {})})

    return send


def page_request(world: World, browser: TestClient, path: str, with_csrf: bool = True) -> Send:
    """A well-formed post of a page's form from `browser`."""
    url = path.replace("{roster_id}", world.first["id"])
    fields: dict[str, str] = {"csrf": csrf(browser)} if with_csrf else {}
    files = None
    if path == "/rosters/new":
        fields |= {"name": "Новая", "ruleset": "chainmail", "nation": "mongols"}
    elif path == "/rosters/import":
        exported = world.client.get(f"/api/v1/rosters/{world.first['id']}/export.json").content
        files = {"file": ("army.json", exported, "application/json")}
    elif path == "/g/new":
        fields |= {"roster_id": world.first["id"], "version": "1"}
    elif path == "/e/new":
        fields |= {"name": "Турнир", "date": "2030-01-05", "ruleset": "chainmail",
                   "deadline": "2030-01-04T18:00"}
    elif path == "/r/{roster_id}/edit":
        fields |= {"version": "1", "system": "chainmail", "op": "add_unit", "preset": "knights"}

    def send(headers: dict[str, str] | None = None) -> httpx.Response:
        return browser.post(url, data=fields, files=files, headers=headers or {},
                            follow_redirects=False)

    return send


def test_every_route_that_changes_data_is_protected_or_listed_with_a_reason() -> None:
    known = (KEYED | GRANTED | GAME_KEYED | GAME_FORM | GAME_JOIN | EVENT_KEYED | EVENT_FORM
             | LIST_KEYED | set(OPEN))
    unknown = [route for route in ROUTES if route not in known]
    assert not unknown, (f"{unknown}: protect these routes (edit key or edit grant) and add "
                         "them to KEYED or GRANTED, or list them in OPEN with the reason")
    assert not known - set(ROUTES), f"listed but gone: {known - set(ROUTES)}"


def test_the_walk_finds_the_routes_it_must() -> None:
    assert ("PUT", "/api/v1/rosters/{roster_id}") in ROUTES
    assert ("POST", "/r/{roster_id}/edit") in ROUTES
    assert ("POST", "/rosters/new") in ROUTES


@pytest.mark.parametrize(("method", "path"), sorted(KEYED & set(ROUTES)))
def test_the_api_changes_a_roster_only_with_its_own_edit_key(
        world: World, method: str, path: str) -> None:
    send = api_request(world, method, path)
    before = world.state()
    assert send().status_code == 401
    assert send().headers["www-authenticate"].startswith("Bearer")
    assert send({"Authorization": "Bearer not-the-key"}).status_code == 403
    assert send({"Authorization": f"Bearer {world.second['edit_key']}"}).status_code == 403
    assert send({"Authorization": "Basic dXNlcjpwYXNz"}).status_code == 401
    for foreign in FOREIGN:
        assert send({**foreign,
                     "Authorization": f"Bearer {world.first['edit_key']}"}).status_code == 403
    assert world.state() == before, "a refused request changed something"
    proper = send({"Authorization": f"Bearer {world.first['edit_key']}"})
    assert proper.status_code in (200, 204), proper.text


@pytest.mark.parametrize(("method", "path"), sorted(GRANTED & set(ROUTES)))
def test_the_editor_form_changes_a_roster_only_from_a_granted_browser_of_this_site(
        world: World, method: str, path: str) -> None:
    before = world.state()
    assert page_request(world, world.stranger, path)().status_code == 403
    assert page_request(world, world.owner, path, with_csrf=False)().status_code == 403
    wrong = page_request(world, world.owner, path)
    # Put in place of the real cookie, not beside it: with two of the same name in the jar, which
    # one a client sends is up to the client.
    world.owner.cookies.delete("muster_csrf")
    world.owner.cookies.set("muster_csrf", "forged-token")
    assert wrong().status_code == 403
    world.owner.cookies.delete("muster_csrf")
    world.owner.get("/")
    for foreign in FOREIGN:
        assert page_request(world, world.owner, path)(foreign).status_code == 403
    assert world.state() == before, "a refused request changed something"
    assert page_request(world, world.owner, path)().status_code == 303


@pytest.mark.parametrize(("method", "path"),
                         sorted(r for r in OPEN if r in ROUTES and not r[1].startswith("/api/")))
def test_open_page_forms_still_need_the_csrf_field_and_this_site(
        world: World, method: str, path: str) -> None:
    before = world.state()
    assert page_request(world, world.stranger, path, with_csrf=False)().status_code == 403
    for foreign in FOREIGN:
        assert page_request(world, world.stranger, path)(foreign).status_code == 403
    assert world.state() == before, "a refused request changed something"
    assert page_request(world, world.stranger, path)().status_code == 303


@pytest.mark.parametrize(("method", "path"),
                         sorted(r for r in OPEN if r in ROUTES and r[1].startswith("/api/")))
def test_open_api_routes_refuse_browsers_of_other_sites_and_change_nothing_that_exists(
        world: World, method: str, path: str) -> None:
    send = api_request(world, method, path)
    before = world.state()
    for foreign in FOREIGN:
        refused = send(foreign)
        assert refused.status_code == 403
        assert "another site" in refused.json()["detail"]
    assert world.state() == before, "a refused request changed something"
    answer = send({"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert answer.status_code in (200, 201), answer.text
    after = world.state()
    assert after[1:] == before[1:], "an open route changed an existing roster"
