"""The share view is drawn once per roster version and kept: a kept page must never show one
visitor's CSRF token to another, an old version after a change, another language, or a roster
that was deleted."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.helpers.documents import army


def token_on_page(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found
    return found.group(1)


def test_each_visitor_sees_its_own_csrf_token_on_a_kept_page(client: TestClient) -> None:
    roster = client.post("/api/v1/rosters", json=army()).json()
    tokens = set()
    for _ in range(3):
        with TestClient(client.app) as visitor:
            page = visitor.get(f"/r/{roster['id']}")
            assert token_on_page(page.text) == visitor.cookies["muster_csrf"]
            tokens.add(token_on_page(page.text))
            copied = visitor.post(f"/r/{roster['id']}/copy",
                                  data={"csrf": token_on_page(page.text)},
                                  follow_redirects=False)
            assert copied.status_code == 303
    assert len(tokens) == 3


def test_a_change_or_a_deletion_shows_at_once(client: TestClient) -> None:
    roster = client.post("/api/v1/rosters", json=army("Старое имя")).json()
    assert "Старое имя" in client.get(f"/r/{roster['id']}").text
    key = {"Authorization": f"Bearer {roster['edit_key']}"}
    changed = client.put(f"/api/v1/rosters/{roster['id']}", json=army("Новое имя"),
                         headers={**key, "If-Match": '"v1"'})
    assert changed.status_code == 200
    page = client.get(f"/r/{roster['id']}").text
    assert "Новое имя" in page and "Старое имя" not in page
    assert client.delete(f"/api/v1/rosters/{roster['id']}", headers=key).status_code == 204
    assert client.get(f"/r/{roster['id']}").status_code == 404
    assert client.post(f"/api/v1/rosters/{roster['id']}/restore", headers=key).status_code == 200
    assert "Новое имя" in client.get(f"/r/{roster['id']}").text


def test_a_kept_page_is_kept_per_language(client: TestClient) -> None:
    roster = client.post("/api/v1/rosters", json=army()).json()
    english = client.get(f"/r/{roster['id']}").text
    russian = client.get(f"/r/{roster['id']}", headers={"Accept-Language": "ru"}).text
    assert 'lang="en"' in english and "Copy to my rosters" in english
    assert 'lang="ru"' in russian and "Copy to my rosters" not in russian
