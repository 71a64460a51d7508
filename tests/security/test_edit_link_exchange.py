"""Opening an edit link stores what a browser needs and no more, however often it is opened.

The link's key is exchanged for a grant to a remembered browser (a device, by its cookie). A
browser not remembered yet is remembered when it comes back from the link with the key in a
cookie: a client that keeps no cookies stores nothing. And a roster is edited by at most
devices.MAX_EDITING_BROWSERS browsers: past that, the ones that opened it longest ago lose
the right, and a device remembered for that roster alone is forgotten. On SQLite and
PostgreSQL (the `api` fixture).
"""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.services import devices
from app.storage.tables import Device, DeviceRoster
from tests.helpers.documents import army


def stored(client: TestClient) -> tuple[int, int]:
    """Devices, and rosters remembered by devices, in the database."""
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        browsers = session.exec(select(func.count()).select_from(Device)).one()
        remembered = session.exec(select(func.count()).select_from(DeviceRoster)).one()
        return int(browsers), int(remembered)


def editing_browsers(client: TestClient, roster_id: str) -> int:
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        return int(session.exec(select(func.count()).select_from(DeviceRoster).where(
            DeviceRoster.roster_id == roster_id, col(DeviceRoster.can_edit))).one())


def new_roster(client: TestClient, name: str = "Linked") -> tuple[str, str]:
    created = client.post("/api/v1/rosters", json=army(name=name)).json()
    return created["id"], created["edit_key"]


def test_an_edit_link_opened_again_and_again_without_cookies_stores_nothing(
        api: TestClient) -> None:
    roster_id, key = new_roster(api)
    before = stored(api)
    for _ in range(40):
        api.cookies.clear()
        opened = api.get(f"/r/{roster_id}/edit?key={key}", follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"] == f"/r/{roster_id}/edit"
        api.cookies.clear()
        # Where the link leads, without the cookie that carried its key: nothing to exchange.
        assert api.get(opened.headers["location"]).status_code == 403
    assert stored(api) == before


def test_browsers_that_keep_opening_an_edit_link_are_bounded_per_roster(
        api: TestClient) -> None:
    roster_id, key = new_roster(api)
    link = f"/r/{roster_id}/edit?key={key}"
    with TestClient(api.app) as owner, TestClient(api.app) as passerby:
        # The owner's browser has rosters of its own; the passer-by's only this one.
        owner.get("/")
        made = owner.post("/rosters/new", data={
            "csrf": owner.cookies["muster_csrf"], "name": "Owner's own", "ruleset": "chainmail"})
        assert made.status_code == 200
        assert owner.get(link).status_code == passerby.get(link).status_code == 200
        assert editing_browsers(api, roster_id) == 2
        before = stored(api)
        # A script that keeps each answer's cookies, but as a new browser every time.
        newcomers = devices.MAX_EDITING_BROWSERS + 8
        for _ in range(newcomers):
            api.cookies.clear()
            assert api.get(link).status_code == 200  # the editor: this one may edit
        assert editing_browsers(api, roster_id) == devices.MAX_EDITING_BROWSERS
        browsers, remembered = stored(api)
        assert browsers - before[0] <= devices.MAX_EDITING_BROWSERS - 1  # the passer-by's went
        assert remembered - before[1] <= devices.MAX_EDITING_BROWSERS - 1
        # The newest may edit; the owner, who opened it longest ago, keeps it to read.
        assert api.get(f"/r/{roster_id}/edit").status_code == 200
        assert owner.get(f"/r/{roster_id}/edit").status_code == 403
        mine = owner.get("/").text
        assert "Linked" in mine and "view only" in mine and "Owner&#39;s own" in mine
        # The passer-by's browser is forgotten: nothing in its "my rosters", no right.
        assert passerby.get(f"/r/{roster_id}/edit").status_code == 403
        assert "Linked" not in passerby.get("/").text
        # Its link opens the roster again for either of them, as for anyone holding it.
        for browser in (owner, passerby):
            reopened = browser.get(link)
            assert reopened.status_code == 200
            assert re.search(r'<h1 id="settings-heading"[^>]*>Linked</h1>', reopened.text)
        assert editing_browsers(api, roster_id) == devices.MAX_EDITING_BROWSERS


def test_a_link_renewed_before_the_browser_comes_back_stores_nothing(api: TestClient) -> None:
    roster_id, key = new_roster(api)
    with TestClient(api.app) as owner:
        owner.get(f"/r/{roster_id}/edit?key={key}")
        owner.get("/")
        renewed = owner.post(f"/r/{roster_id}/link", data={"csrf": owner.cookies["muster_csrf"]},
                             follow_redirects=False)
        assert renewed.status_code == 303
    api.cookies.clear()
    opened = api.get(f"/r/{roster_id}/edit?key={key}", follow_redirects=False)
    assert opened.status_code == 403 and "This edit link is not valid." in opened.text
    before = stored(api)
    # The old key, as the cookie a browser got from the link before it was renewed.
    api.cookies.set("muster_link_key", key, path=f"/r/{roster_id}/edit")
    came_back = api.get(f"/r/{roster_id}/edit")
    assert came_back.status_code == 403 and "This edit link is not valid." in came_back.text
    assert any(c.startswith('muster_link_key=""') and "max-age=0" in c.lower()
               for c in came_back.headers.get_list("set-cookie"))
    assert stored(api) == before
