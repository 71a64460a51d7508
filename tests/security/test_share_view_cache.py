"""The share view must never show one visitor's CSRF token to another, an old version after a
change, another language, or a roster that was deleted; and a visitor's query string never
reaches its links. Browsers revalidate it (ETag, 304)."""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi.testclient import TestClient

from tests.helpers.documents import army
from tests.security.conftest import AppFactory


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
    assert client.get(f"/r/{roster['id']}").status_code == 410
    assert client.post(f"/api/v1/rosters/{roster['id']}/restore", headers=key).status_code == 200
    assert "Новое имя" in client.get(f"/r/{roster['id']}").text


def test_a_kept_page_is_kept_per_language(client: TestClient) -> None:
    roster = client.post("/api/v1/rosters", json=army()).json()
    english = client.get(f"/r/{roster['id']}").text
    russian = client.get(f"/r/{roster['id']}", headers={"Accept-Language": "ru"}).text
    assert 'lang="en"' in english and "Copy to my rosters" in english
    assert 'lang="ru"' in russian and "Copy to my rosters" not in russian


def test_a_query_string_that_changes_nothing_is_the_same_kept_page(client: TestClient) -> None:
    # Else anyone could have a page drawn again (pricing, judging, the template) as often as
    # they like, and push other rosters' pages out, with `?x=1`, `?x=2` …
    roster = client.post("/api/v1/rosters", json=army()).json()
    view = f"/r/{roster['id']}"
    marked = client.get(f"{view}?utm_source=mark-1&x=2")
    assert marked.status_code == 200
    pages = [client.get(view).text] + [client.get(f"{view}?x={n}").text for n in range(5)]
    plain = pages[0]
    assert all(page == plain for page in pages)
    # The page is the one of the plain address: no visitor's query string in its links.
    assert "mark-1" not in marked.text and "mark-1" not in plain
    assert f'href="/lang/ru?next={quote(view)}"' in plain
    assert f'value="http://testserver{view}"' in plain  # the share link

    # A language asked for in the address does change the page, and its links keep it.
    russian = client.get(f"{view}?lang=ru&x=1")
    assert 'lang="ru"' in russian.text
    assert f'href="/lang/en?next={quote(view + "?lang=ru")}"' in russian.text
    assert client.get(f"{view}?x=3&lang=ru").text == russian.text

    # The share link shows the site as it was reached.
    elsewhere = client.get(view, headers={"Host": "muster.example"})
    assert f'value="http://muster.example{view}"' in elsewhere.text
    assert "testserver" not in elsewhere.text
    assert f'value="http://testserver{view}"' in client.get(f"{view}?y").text


def test_without_a_public_url_each_host_is_a_page_of_its_own(client: TestClient) -> None:
    roster = client.post("/api/v1/rosters", json=army()).json()
    view = f"/r/{roster['id']}"
    for host in ("one.example", "two.example", "one.example"):
        page = client.get(view, headers={"Host": host})
        assert f'value="http://{host}{view}"' in page.text


def test_with_a_public_url_every_host_gets_its_links(
        app_with: AppFactory) -> None:
    # MUSTER_PUBLIC_URL: the links a page writes name the site the operator chose, whatever
    # Host a request names.
    with app_with(public_url="https://muster.example/club/") as client:
        roster = client.post("/api/v1/rosters", json=army()).json()
        view = f"/r/{roster['id']}"
        link = f"https://muster.example/club{view}"
        pages = [client.get(view, headers={"Host": host})
                 for host in ("one.example", "two.example", "evil.example:81")]
        assert all(page.status_code == 200 for page in pages)
        for page in pages:
            assert f'value="{link}"' in page.text
            assert "one.example" not in page.text and "two.example" not in page.text
        assert f'value="{link}"' in client.get(f"{view}?lang=ru").text

        # The print sheet's link and QR code, and the edit link shown once on creation.
        sheet = client.get(f"{view}/print", headers={"Host": "two.example"}).text
        assert f"<figcaption>{link}</figcaption>" in sheet and "two.example" not in sheet
        client.get("/")
        created = client.post("/rosters/new", headers={"Host": "two.example"}, data={
            "csrf": client.cookies["muster_csrf"], "name": "Орда", "nation": "mongols",
            "points_limit": "300", "historical": "on", "ruleset": "chainmail"},
            follow_redirects=False)
        assert created.status_code == 303
        editor = client.get(created.headers["location"], headers={"Host": "two.example"})
        edit_link = re.search(r'id="edit-link" readonly value="([^"]+)"', editor.text)
        assert edit_link and edit_link.group(1).startswith("https://muster.example/club/r/")
