"""A game's and an event's secret links are exchanged for cookies, as a roster's edit link is:
opened, the key leaves the address (a 303 to the same page without it), the browser keeps it
in an HttpOnly cookie scoped to the game or the event, and neither the address bar, the
history nor the language links' `next=` ever holds it again."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from tests.web.test_event_pages import made
from tests.web.test_games_pages import started


def _opened(client: TestClient, link: str, scope: str, cookie: str, key: str) -> str:
    """The link opened: its key exchanged; the page it lands on, with the key kept."""
    answer = client.get(link, follow_redirects=False)
    assert answer.status_code == 303
    landed = answer.headers["location"]
    assert key not in landed and "key=" not in landed
    set_cookie = answer.headers["set-cookie"]
    assert f"{cookie}={key}" in set_cookie and f"Path={scope}" in set_cookie
    assert "HttpOnly" in set_cookie and "SameSite=lax" in set_cookie
    page = client.get(landed)
    assert page.status_code == 200, page.text
    nexts = [unquote(n) for n in re.findall(r'/lang/\w+\?next=([^"]+)"', page.text)]
    assert nexts and all(key not in n and "key=" not in n for n in nexts)
    return page.text


def test_a_games_secret_links_leave_the_address_for_a_cookie(client: TestClient) -> None:
    game_id, key, _ = started(client)
    page = _opened(client, f"/g/{game_id}/play?key={key}", f"/g/{game_id}", "game_key", key)
    assert 'name="action" value="turn"' in page or "Next turn" in page
    # Its polling asks the page without the key: the cookie carries it.
    assert f'hx-get="/g/{game_id}/play?since=' in page
    # Another browser without the cookie is refused, as before.
    assert TestClient(client.app).get(f"/g/{game_id}/play").status_code == 403


@pytest.mark.parametrize("which", ["organise", "hand-in"])
def test_an_events_secret_links_leave_the_address_for_a_cookie(client: TestClient,
                                                               which: str) -> None:
    event_id, organiser, hand_in = made(client)
    key, cookie = (organiser, "organiser_key") if which == "organise" else (hand_in,
                                                                          "hand_in_key")
    _opened(client, f"/e/{event_id}/{which}?key={key}", f"/e/{event_id}", cookie, key)
    assert TestClient(client.app).get(f"/e/{event_id}/{which}").status_code == 403


def test_the_organisers_sort_keeps_its_order_and_drops_the_key(client: TestClient) -> None:
    event_id, organiser, _ = made(client)
    answer = client.get(f"/e/{event_id}/organise?key={organiser}&sort=points&dir=desc",
                        follow_redirects=False)
    assert answer.headers["location"] == f"/e/{event_id}/organise?sort=points&dir=desc"
