"""The browsers one roster is remembered by are bounded, and purging forgets browsers too.

A roster is edited by at most MUSTER_MAX_EDITING_BROWSERS browsers (32) and kept in "my rosters"
only to read by at most MUSTER_MAX_READING_BROWSERS (300): past either, the browsers that opened
it longest ago lose that place, and one remembered for that roster alone is forgotten. So a key
holder who opens the edit link from new browsers and renews it, again and again, cannot grow
the roster's rows (and devices) without end; the owner renewing keeps the right to edit. Purging
deleted rosters forgets the browsers remembered for them alone, and no other. On SQLite and
PostgreSQL (the `api`, `engine` and `session` fixtures).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import Engine, func, update
from sqlmodel import Session, col, select

from app.config import Settings
from app.main import create_app
from app.services import devices, rosters
from app.services.stored_rosters import RESTORE_DAYS
from app.settings_check import from_validation
from app.storage.db import StorageLimits, open_session
from app.storage.tables import Device, DeviceRoster, Roster, utcnow
from tests.helpers.databases import settings_for
from tests.helpers.documents import army

DEVICE_COOKIE = "muster_device"


def engine_of(client: TestClient) -> Engine:
    return client.app.state.engine  # type: ignore[attr-defined,no-any-return]


def device_count(engine: Engine) -> int:
    with Session(engine) as session:
        return int(session.exec(select(func.count()).select_from(Device)).one())


def browsers_of(engine: Engine, roster_id: str) -> tuple[int, int]:
    """The roster's editors and readers (its rows in "my rosters", by right)."""
    with Session(engine) as session:
        rows = session.exec(select(DeviceRoster.can_edit, func.count())
                            .where(DeviceRoster.roster_id == roster_id)
                            .group_by(col(DeviceRoster.can_edit))).all()
    counts = {bool(can_edit): int(count) for can_edit, count in rows}
    return counts.get(True, 0), counts.get(False, 0)


def device_ids(session: Session) -> set[int]:
    found = set(session.exec(select(Device.id)).all())
    session.commit()
    return {d for d in found if d is not None}


def remembered_browser(engine: Engine) -> str:
    """The device token of a browser the site remembers (as after it copied a roster), with no
    roster yet: opening a link is then one request, with no editor to draw."""
    with Session(engine) as session:
        return devices.new_device(session)[1]


def open_as(client: TestClient, token: str, path: str) -> int:
    client.cookies.clear()
    client.cookies.set(DEVICE_COOKIE, token)
    return client.get(path, follow_redirects=False).status_code


def new_roster(client: TestClient, name: str) -> tuple[str, str]:
    created = client.post("/api/v1/rosters", json=army(name=name)).json()
    return created["id"], created["edit_key"]


def renew(owner: TestClient, roster_id: str) -> str:
    """The owner's browser makes a new edit link; the new key, as its editor shows it once."""
    renewed = owner.post(f"/r/{roster_id}/link", data={"csrf": owner.cookies["muster_csrf"]})
    assert renewed.status_code == 200
    found = re.search(r'id="edit-link" readonly value="[^"]*/edit\?key=([A-Za-z0-9_-]+)"',
                      renewed.text)
    assert found is not None
    return found.group(1)


@pytest.mark.slow
def test_renewing_the_edit_link_again_and_again_keeps_a_bounded_number_of_browsers(
        api: TestClient) -> None:
    engine = engine_of(api)
    roster_id, key = new_roster(api, "Renewed")
    with TestClient(api.app) as owner:
        assert owner.get(f"/r/{roster_id}/edit?key={key}").status_code == 200
        before = device_count(engine)
        # Each round: the link opened from as many new browsers as may edit beside the owner
        # (more would take the owner's own right), then renewed, leaving them all as readers.
        per_round = devices.MAX_EDITING_BROWSERS - 1
        rounds = devices.MAX_READING_BROWSERS // per_round + 2
        first_readers: list[str] = []
        tokens: list[str] = []
        for round_ in range(rounds):
            tokens = [remembered_browser(engine) for _ in range(per_round)]
            for token in tokens:
                assert open_as(api, token, f"/r/{roster_id}/edit?key={key}") == 303
            first_readers = first_readers or tokens
            key = renew(owner, roster_id)
            assert browsers_of(engine, roster_id)[1] == min(
                (round_ + 1) * per_round, devices.MAX_READING_BROWSERS)
        # The last round's browsers are editors until the next renewal: the bound on editors.
        for token in [remembered_browser(engine) for _ in range(per_round)]:
            assert open_as(api, token, f"/r/{roster_id}/edit?key={key}") == 303
        assert browsers_of(engine, roster_id) == (devices.MAX_EDITING_BROWSERS,
                                                  devices.MAX_READING_BROWSERS)
        # The browsers forgotten (remembered for this roster alone) are gone with their rows.
        assert device_count(engine) - before == (
            devices.MAX_READING_BROWSERS + devices.MAX_EDITING_BROWSERS - 1)
        # The owner renewing kept its right all along; the first readers were forgotten and
        # start afresh; the latest still read the roster in "my rosters".
        assert owner.get(f"/r/{roster_id}/edit").status_code == 200
        assert "can edit" in owner.get("/").text
        for reader, listed in ((first_readers[0], False), (tokens[0], True)):
            api.cookies.clear()
            api.cookies.set(DEVICE_COOKIE, reader)
            home = api.get("/")
            assert home.status_code == 200
            assert ("Renewed" in home.text and "view only" in home.text) is listed
        api.cookies.clear()


def test_readers_past_the_bound_forget_the_roster_and_lone_browsers_are_forgotten(
        engine: Engine) -> None:
    # The bounds as the app's sessions carry its settings (app.storage.db.open_session).
    limits = StorageLimits(max_editing_browsers=2, max_reading_browsers=3)
    with open_session(engine, limits) as session:
        roster_id = rosters.create_roster(session, army(name="Shared")).roster.id
        other_id = rosters.create_roster(session, army(name="Other")).roster.id
        editors = [devices.new_device(session)[0] for _ in range(3)]
        for device_id in editors:
            devices.open_with_key(session, device_id, roster_id)
        # The first editor had this roster alone: past the editors' bound, it is forgotten.
        assert browsers_of(engine, roster_id) == (2, 0)
        assert editors[0] not in device_ids(session)
        readers = [devices.new_device(session)[0] for _ in range(5)]
        devices.remember(session, readers[0], other_id, True)  # its own roster besides
        for minutes_ago, device_id in zip(range(10, 0, -1), readers, strict=False):
            devices.remember(session, device_id, roster_id, False)  # a share link opened
            opened(session, device_id, roster_id, minutes_ago)
        assert browsers_of(engine, roster_id) == (2, 3)
        # The two that opened it longest ago forget it; the one with a roster of its own stays
        # remembered for that, the other is forgotten altogether.
        assert [r.id for r in devices.my_rosters(session, readers[0])] == [other_id]
        assert readers[1] not in device_ids(session)
        assert all(devices.my_rosters(session, d) for d in readers[2:])
        assert all(devices.can_edit(session, d, roster_id) for d in editors[1:])


def opened(session: Session, device_id: int, roster_id: str, minutes_ago: int) -> None:
    """Date the browser's last opening of the roster back (all were within a second)."""
    session.exec(update(DeviceRoster)  # type: ignore[call-overload]
                 .where(col(DeviceRoster.device_id) == device_id,
                        col(DeviceRoster.roster_id) == roster_id)
                 .values(last_opened=utcnow() - timedelta(minutes=minutes_ago)))
    session.commit()


def test_a_new_link_keeps_the_renewing_browser_and_bounds_the_others(engine: Engine) -> None:
    limits = StorageLimits(max_editing_browsers=4, max_reading_browsers=2)
    with open_session(engine, limits) as session:
        roster_id = rosters.create_roster(session, army(name="Leaked")).roster.id
        owner = devices.new_device(session)[0]
        devices.open_with_key(session, owner, roster_id)
        opened(session, owner, roster_id, 24 * 60)  # the owner opened it longest ago
        others = [devices.new_device(session)[0] for _ in range(3)]
        for device_id in others:
            devices.open_with_key(session, device_id, roster_id)
        rosters.new_edit_key(session, roster_id, keep_device=owner)
        assert browsers_of(engine, roster_id) == (1, 2)
        assert devices.can_edit(session, owner, roster_id)
        assert others[0] not in device_ids(session)  # remembered for this roster alone


def test_purging_forgets_the_browsers_remembered_for_purged_rosters_alone(
        session: Session) -> None:
    purged = rosters.create_roster(session, army(name="Purged")).roster.id
    kept = rosters.create_roster(session, army(name="Kept")).roster.id
    recent = rosters.create_roster(session, army(name="Deleted lately")).roster.id
    only_purged, also_kept, only_recent = (devices.new_device(session)[0] for _ in range(3))
    fresh = devices.new_device(session)[0]  # no roster yet: as between its making and its first
    for device_id, roster_id in ((only_purged, purged), (also_kept, purged), (also_kept, kept),
                                 (only_recent, recent)):
        devices.remember(session, device_id, roster_id, True)
    for roster_id in (purged, recent):
        rosters.delete_roster(session, roster_id)
    session.exec(update(Roster).where(col(Roster.id) == purged)  # type: ignore[call-overload]
                 .values(deleted_at=utcnow() - timedelta(days=RESTORE_DAYS + 1)))
    session.commit()
    assert rosters.purge_deleted(session) == 1
    assert device_ids(session) == {also_kept, only_recent, fresh}
    assert [r.id for r in devices.my_rosters(session, also_kept)] == [kept]
    assert rosters.restore_roster(session, recent).name == "Deleted lately"
    assert [r.id for r in devices.my_rosters(session, only_recent)] == [recent]


def test_a_browser_forgotten_by_the_purge_starts_afresh(api: TestClient) -> None:
    engine = engine_of(api)
    roster_id, key = new_roster(api, "Gone for good")
    with TestClient(api.app) as browser:
        assert browser.get(f"/r/{roster_id}/edit?key={key}").status_code == 200
        token = browser.cookies[DEVICE_COOKIE]
        assert api.delete(f"/api/v1/rosters/{roster_id}",
                          headers={"Authorization": f"Bearer {key}"}).status_code == 204
        with Session(engine) as session:
            session.exec(update(Roster).values(  # type: ignore[call-overload]
                deleted_at=utcnow() - timedelta(days=RESTORE_DAYS + 1)))
            session.commit()
            before = device_count(engine)
            assert rosters.purge_deleted(session) == 1
            assert devices.find_device(session, token) is None
        assert device_count(engine) == before - 1
        # Its cookie finds nothing: the home page lists nothing and makes no device; its next
        # roster makes it a new one.
        home = browser.get("/")
        assert home.status_code == 200 and "Gone for good" not in home.text
        assert device_count(engine) == before - 1
        made = browser.post("/rosters/new", data={
            "csrf": browser.cookies["muster_csrf"], "name": "Afresh", "ruleset": "chainmail"})
        assert made.status_code == 200
        assert browser.cookies[DEVICE_COOKIE] != token
        assert "Afresh" in browser.get("/").text


@pytest.mark.parametrize("name", ["MAX_EDITING_BROWSERS", "MAX_READING_BROWSERS"])
def test_the_bounds_are_settings_from_one_to_a_million(monkeypatch: pytest.MonkeyPatch,
                                                        name: str) -> None:
    field = name.lower()
    assert getattr(Settings(_env_file=None), field) == getattr(devices, name)  # type: ignore[call-arg]
    for taken in ("7", "1", "1000000"):
        monkeypatch.setenv(f"MUSTER_{name}", taken)
        assert getattr(Settings(_env_file=None), field) == int(taken)  # type: ignore[call-arg]
    # A number past what the database's integers hold failed every edit link with a 500.
    for refused in ("0", "-3", "1000001", "99999999999999999999"):
        monkeypatch.setenv(f"MUSTER_{name}", refused)
        with pytest.raises(ValidationError) as caught:
            Settings(_env_file=None)  # type: ignore[call-arg]
        lines = from_validation(caught.value).lines()
        assert lines.startswith(f"muster: MUSTER_{name}: '{refused}' is not accepted")
        assert lines.endswith("accepted: a whole number, at least 1, at most 1000000")


@pytest.fixture
def bounded_app(database_url: str) -> Iterator[TestClient]:
    settings = settings_for(database_url, max_editing_browsers=2, max_reading_browsers=1)
    with TestClient(create_app(settings)) as client:
        yield client


def test_the_app_bounds_browsers_by_its_settings(bounded_app: TestClient) -> None:
    engine = engine_of(bounded_app)
    roster_id, key = new_roster(bounded_app, "Set")
    for token in [remembered_browser(engine) for _ in range(3)]:
        assert open_as(bounded_app, token, f"/r/{roster_id}/edit?key={key}") == 303
    assert browsers_of(engine, roster_id) == (2, 0)
    reader = remembered_browser(engine)
    assert open_as(bounded_app, reader, f"/r/{roster_id}") == 200  # the share link
    assert browsers_of(engine, roster_id) == (2, 1)
    assert open_as(bounded_app, remembered_browser(engine), f"/r/{roster_id}") == 200
    assert browsers_of(engine, roster_id) == (2, 1)
    bounded_app.cookies.clear()


def test_a_browser_pushed_out_while_it_creates_a_roster_keeps_the_new_roster(
        bounded_app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # The browser is a reader of X alone. Between the page reading its device cookie and
    # noting its new roster, another browser opens X's share link, and the readers' bound (1)
    # forgets it: the page must make it a new browser that keeps its new roster (whose key is
    # shown only on the editor), not answer 500 and leave the roster unreachable.
    from app.web import pages

    engine = engine_of(bounded_app)
    x, _ = new_roster(bounded_app, "X")
    token = remembered_browser(engine)
    assert open_as(bounded_app, token, f"/r/{x}") == 200
    other = remembered_browser(engine)
    looked_up = pages.browser_device
    pushed: list[bool] = []

    def device_then_pushed_out(request, session, create=False):  # type: ignore[no-untyped-def]
        found = looked_up(request, session, create)
        if create and not pushed:
            pushed.append(True)
            with open_session(engine, StorageLimits(max_reading_browsers=1)) as elsewhere:
                device = devices.find_device(elsewhere, other)
                assert device is not None
                devices.remember(elsewhere, device, x, False)  # the real bound, now
        return found

    bounded_app.get("/")
    csrf = bounded_app.cookies["muster_csrf"]
    monkeypatch.setattr(pages, "browser_device", device_then_pushed_out)
    made = bounded_app.post("/rosters/new", data={
        "csrf": csrf, "name": "Новая", "ruleset": "chainmail", "nation": "mongols"},
        follow_redirects=False)
    monkeypatch.undo()
    assert pushed and made.status_code == 303, made.text[:300]
    new_token = made.cookies.get(DEVICE_COOKIE)
    assert new_token and new_token != token  # a new browser from now on
    editor = bounded_app.get(made.headers["location"])
    assert editor.status_code == 200 and "Новая" in editor.text
    assert "Новая" in bounded_app.get("/").text


def test_the_readers_bound_keeps_a_browser_that_notes_another_roster_meanwhile(
        database_url: str) -> None:
    # PostgreSQL: the browser's note of roster Y is written but not committed when the bound
    # pushes it out of X. The bound waits for the note (the device's lock) and then sees it, so
    # the browser and its Y stay; deciding from what it saw before would delete both.
    import threading

    from sqlalchemy import text

    from app.storage.db import make_engine, migrate

    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite's writers take turns: a note and the bound never overlap")
    engine = make_engine(settings_for(database_url))
    migrate(engine)
    try:
        with Session(engine, expire_on_commit=False) as session:
            x = rosters.create_roster(session, army()).roster.id
            y = rosters.create_roster(session, army()).roster.id
            old, _ = devices.new_device(session)
            new, _ = devices.new_device(session)
            devices.remember(session, old, x, False)
        noting = engine.connect()
        note = noting.begin()
        noting.execute(text("INSERT INTO device_roster (device_id, roster_id, can_edit, "
                            "last_opened) VALUES (:d, :r, true, now())"), {"d": old, "r": y})

        def pushes_out() -> None:
            with open_session(engine, StorageLimits(max_reading_browsers=1)) as other:
                devices.remember(other, new, x, False)

        bound = threading.Thread(target=pushes_out)
        bound.start()
        bound.join(0.5)
        assert bound.is_alive(), "the bound waits for the browser's note"
        note.commit()
        noting.close()
        bound.join(10)
        assert not bound.is_alive()
        with Session(engine) as session:
            assert session.get(Device, old) is not None
            rows = session.exec(select(DeviceRoster.roster_id)
                                .where(DeviceRoster.device_id == old)).all()
        assert rows == [y]  # pushed out of X's readers, kept with its own Y
    finally:
        engine.dispose()
