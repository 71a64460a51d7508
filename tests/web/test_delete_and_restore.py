"""Deleting an army from its editor and restoring it from the home page, as a player does in a
browser: what each browser may do, what the share link answers meanwhile, what is kept."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, col

from app.services.stored_rosters import RESTORE_DAYS
from app.storage.tables import Roster, utcnow
from tests.helpers.documents import army
from tests.web.test_pages import create_army, document, edit


@contextmanager
def another_browser(client: TestClient) -> Iterator[TestClient]:
    """The same client with a cookie jar of its own for a while: another browser, on the same
    app and event loop (a second TestClient would start the app's lifespan again)."""
    own = client.cookies
    client.cookies = type(own)()  # the client's own kind of jar (httpx2's, for TestClient)
    try:
        yield client
    finally:
        client.cookies = own


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def delete(browser: TestClient, roster_id: str, csrf: str | None = None) -> object:
    return browser.post(f"/r/{roster_id}/delete",
                        data={"csrf": csrf or browser.cookies.get("muster_csrf")},
                        follow_redirects=False)


def restore(browser: TestClient, roster_id: str, **fields: str) -> object:
    return browser.post(f"/r/{roster_id}/restore",
                        data={"csrf": browser.cookies.get("muster_csrf"), **fields},
                        follow_redirects=False)


def deleted_section(html: str) -> str:
    found = re.search(r'<section[^>]*aria-labelledby="deleted-heading".*?</section>', html, re.S)
    return found.group(0) if found else ""


def test_the_owner_deletes_from_the_editor_and_restores_from_the_home_page(
        client: TestClient) -> None:
    roster_id = create_army(client, name="Тумен")
    assert edit(client, roster_id, op="add_unit", preset="knights").status_code == 303
    before = client.get(f"/api/v1/rosters/{roster_id}").json()
    editor = client.get(f"/r/{roster_id}/edit").text
    assert f'action="/r/{roster_id}/delete"' in editor

    deleted = delete(client, roster_id)
    assert deleted.status_code == 303
    assert deleted.headers["location"] == f"/?deleted={roster_id}"
    # Gone for everyone who holds a link, the API included.
    assert client.get(f"/r/{roster_id}").status_code == 410
    with another_browser(client) as stranger:
        assert stranger.get(f"/r/{roster_id}").status_code == 410
    assert client.get(f"/api/v1/rosters/{roster_id}").status_code == 410

    home = client.get(deleted.headers["location"]).text
    section = deleted_section(home)
    assert "“Тумен” was deleted." in text_of(section)
    assert f'action="/r/{roster_id}/restore"' in section
    until = (utcnow() + timedelta(days=RESTORE_DAYS)).date()
    assert f"can be restored before {until.day} {until.strftime('%B')} {until.year}" in \
        text_of(section)
    # No longer among the rosters to open.
    assert f'href="/r/{roster_id}/edit"' not in home

    restored = restore(client, roster_id)
    assert restored.status_code == 303
    assert restored.headers["location"] == f"/r/{roster_id}/edit?restored=1"
    editor = client.get(restored.headers["location"])
    # Said once, where the keyboard's focus starts.
    assert editor.status_code == 200
    assert re.search(r'<p class="notice card" role="status" tabindex="-1" autofocus>\s*The army '
                     r'was restored\.', editor.text)
    assert "The army was restored." not in client.get(f"/r/{roster_id}/edit").text
    assert client.get(f"/r/{roster_id}").status_code == 200
    after = client.get(f"/api/v1/rosters/{roster_id}").json()
    assert (after["version"], after["document"]) == (before["version"], before["document"])
    home = client.get("/").text
    assert deleted_section(home) == "" and f'href="/r/{roster_id}/edit"' in home


def test_a_browser_that_may_not_edit_can_neither_delete_nor_restore(client: TestClient) -> None:
    roster_id = create_army(client)
    jars = []
    for opens_share_link in (True, False):  # a reader, remembered to read; a stranger
        with another_browser(client) as browser:
            if opens_share_link:
                assert browser.get(f"/r/{roster_id}").status_code == 200
            browser.get("/")
            assert delete(browser, roster_id).status_code == 403
            jars.append(browser.cookies)
    assert client.get(f"/r/{roster_id}").status_code == 200

    assert delete(client, roster_id).status_code == 303
    for jar in jars:
        with another_browser(client) as browser:
            browser.cookies = jar
            assert restore(browser, roster_id).status_code == 403
            assert restore(browser, roster_id, key="not-the-key").status_code == 403
            # Neither is offered the roster back.
            assert deleted_section(browser.get("/").text) == ""
            editor = browser.get(f"/r/{roster_id}/edit")
            assert editor.status_code == 410 and "/restore" not in editor.text
    assert client.get(f"/r/{roster_id}").status_code == 410


def test_a_form_without_its_csrf_field_deletes_and_restores_nothing(client: TestClient) -> None:
    roster_id = create_army(client)
    assert client.post(f"/r/{roster_id}/delete", data={}).status_code == 403
    assert delete(client, roster_id, csrf="forged").status_code == 403
    assert client.get(f"/r/{roster_id}").status_code == 200
    assert delete(client, roster_id).status_code == 303
    assert client.post(f"/r/{roster_id}/restore", data={}).status_code == 403
    assert client.get(f"/r/{roster_id}").status_code == 410


def test_the_editor_of_a_deleted_roster_offers_it_back_to_its_owner(client: TestClient) -> None:
    roster_id = create_army(client)
    assert delete(client, roster_id).status_code == 303
    page = client.get(f"/r/{roster_id}/edit")
    assert page.status_code == 410
    assert "This roster was deleted. It can be restored before" in text_of(page.text)
    assert f'action="/r/{roster_id}/restore"' in page.text
    assert page.headers["Cache-Control"] == "no-store"


def test_the_edit_link_of_a_deleted_roster_restores_it_in_a_new_browser(
        client: TestClient) -> None:
    made = client.post("/api/v1/rosters", json=army("Орда")).json()
    assert client.delete(f"/api/v1/rosters/{made['id']}", headers={
        "Authorization": f"Bearer {made['edit_key']}"}).status_code == 204
    with another_browser(client) as browser:
        page = browser.get(made["edit_url"], follow_redirects=False)
        assert page.status_code == 410 and page.headers["Cache-Control"] == "no-store"
        assert f'name="key" value="{made["edit_key"]}"' in page.text
        # A wrong key restores nothing.
        refused = restore(browser, made["id"], key="x" * 22)
        assert refused.status_code == 403
        assert browser.get(f"/r/{made['id']}").status_code == 410

        restored = restore(browser, made["id"], key=made["edit_key"])
        assert restored.status_code == 303
        # The key holder edits in this browser from now on, as after opening the link.
        assert browser.get(restored.headers["location"]).status_code == 200
        assert edit(browser, made["id"], op="add_unit", preset="knights").status_code == 303
        assert len(document(browser, made["id"])["units"]) == len(army("Орда")["units"]) + 1


def test_past_the_restore_window_the_roster_is_not_offered_and_not_restored(
        client: TestClient) -> None:
    roster_id = create_army(client)
    assert delete(client, roster_id).status_code == 303
    long_ago = utcnow() - timedelta(days=RESTORE_DAYS, hours=1)
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        session.exec(update(Roster).where(col(Roster.id) == roster_id)  # type: ignore[call-overload]
                     .values(deleted_at=long_ago))
        session.commit()
    assert deleted_section(client.get("/").text) == ""
    # Gone (410), as its share view and editor say; an id that never was is another thing (404).
    refused = restore(client, roster_id)
    assert refused.status_code == 410
    assert "can no longer be restored" in text_of(refused.text)
    assert restore(client, "neverstoredid", key="x" * 22).status_code == 404
    assert client.get(f"/r/{roster_id}").status_code in (404, 410)
    # Until the purge removes it, its editor and edit link say it is too late, with no button.
    page = client.get(f"/r/{roster_id}/edit")
    assert page.status_code == 410 and "/restore" not in page.text
    assert "can no longer be restored" in text_of(page.text)


def test_restoring_a_roster_that_is_not_deleted_changes_nothing(client: TestClient) -> None:
    roster_id = create_army(client)
    before = client.get(f"/api/v1/rosters/{roster_id}").json()
    answer = restore(client, roster_id)
    assert answer.status_code == 303 and answer.headers["location"] == f"/r/{roster_id}/edit"
    assert client.get(f"/api/v1/rosters/{roster_id}").json() == before


def test_the_deleted_list_stays_on_a_home_page_that_refuses_a_form(client: TestClient) -> None:
    roster_id = create_army(client, name="Тумен")
    assert delete(client, roster_id).status_code == 303
    csrf = client.cookies["muster_csrf"]
    refused = client.post("/rosters/new", data={"csrf": csrf, "name": "", "ruleset": "chainmail",
                                                "points_limit": "-5"})
    assert refused.status_code == 422
    assert f'action="/r/{roster_id}/restore"' in deleted_section(refused.text)
    bad_file = client.post("/rosters/import", data={"csrf": csrf},
                           files={"file": ("army.json", b"{}", "application/json")})
    assert bad_file.status_code == 422
    assert f'action="/r/{roster_id}/restore"' in deleted_section(bad_file.text)


def test_a_plain_forms_refusal_keeps_the_editors_cards(client: TestClient) -> None:
    roster_id = create_army(client)
    refused = edit(client, roster_id, op="settings", name="Орда", points_limit="abc")
    assert refused.status_code == 422
    assert f'action="/r/{roster_id}/delete"' in refused.text
    assert f'action="/r/{roster_id}/link"' in refused.text


def test_a_wrong_key_for_a_deleted_roster_offers_no_share_view(client: TestClient) -> None:
    made = client.post("/api/v1/rosters", json=army("Орда")).json()
    with another_browser(client) as browser:
        wrong = browser.get(f"/r/{made['id']}/edit?key={'x' * 22}")
        assert wrong.status_code == 403 and f'href="/r/{made["id"]}"' in wrong.text
    assert client.delete(f"/api/v1/rosters/{made['id']}", headers={
        "Authorization": f"Bearer {made['edit_key']}"}).status_code == 204
    with another_browser(client) as browser:
        wrong = browser.get(f"/r/{made['id']}/edit?key={'x' * 22}")
        assert wrong.status_code == 403 and f'href="/r/{made["id"]}"' not in wrong.text
        browser.get("/")
        refused = restore(browser, made["id"], key="x" * 22)
        assert refused.status_code == 403 and f'href="/r/{made["id"]}"' not in refused.text


def test_deleting_and_restoring_speak_russian(client: TestClient) -> None:
    client.headers["Accept-Language"] = "ru"
    roster_id = create_army(client, name="Тумен")
    editor = text_of(client.get(f"/r/{roster_id}/edit").text)
    assert "Удаление армии" in editor and "срок — 30 дней" in editor
    deleted = delete(client, roster_id)
    section = text_of(deleted_section(client.get(deleted.headers["location"]).text))
    assert "Армия «Тумен» удалена." in section
    until = (utcnow() + timedelta(days=RESTORE_DAYS)).date()
    months = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа",
              "сентября", "октября", "ноября", "декабря"]
    assert f"можно восстановить до {until.day} {months[until.month - 1]} {until.year}" in section
    page = text_of(client.get(f"/r/{roster_id}/edit").text)
    assert "Эта армия удалена. Её можно восстановить до" in page and "Восстановить армию" in page


@pytest.mark.parametrize("lang, said", [("en", "deleted by its owner"),
                                        ("ru", "удалена её владельцем")])
def test_a_change_posted_to_a_deleted_roster_is_answered_gone_in_the_pages_language(
        client: TestClient, lang: str, said: str) -> None:
    roster_id = create_army(client)
    stale = {"csrf": client.cookies.get("muster_csrf"), "version": "1", "system": "chainmail",
             "op": "settings", "name": "Поздно", "lang": lang}
    assert delete(client, roster_id).status_code == 303
    for headers in ({}, {"HX-Request": "true"}):
        answer = client.post(f"/r/{roster_id}/edit?lang={lang}", data=stale, headers=headers,
                             follow_redirects=False)
        assert answer.status_code == 410, answer.text[:300]
        assert said in text_of(answer.text).lower()
