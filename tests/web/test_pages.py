"""The HTML builder through a test client: what a player sees and what is stored."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from sqlmodel import Session, col

from app.services import rosters
from app.storage.db import make_engine
from app.storage.tables import DeviceRoster
from tests.helpers.documents import army

HX = {"HX-Request": "true"}


def csrf_of(client: TestClient) -> str:
    client.get("/")
    token = client.cookies.get("muster_csrf")
    assert token, "the home page sets a CSRF cookie"
    return token


def create_army(client: TestClient, name: str = "Орда", nation: str = "mongols",
                limit: str = "300") -> str:
    response = client.post("/rosters/new", data={
        "csrf": csrf_of(client), "name": name, "nation": nation, "points_limit": limit,
        "historical": "on", "ruleset": "chainmail"}, follow_redirects=False)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/r/([A-Za-z0-9_-]+)/edit\?created=1", response.headers["location"])
    assert match
    return match.group(1)


def version_of(client: TestClient, roster_id: str) -> int:
    return client.get(f"/api/v1/rosters/{roster_id}").json()["version"]


def edit(client: TestClient, roster_id: str, htmx: bool = False, **fields: Any) -> Any:
    """Post the editor's form as its page does: the CSRF token, the version, and the rule
    system by which the form is read, with `fields`."""
    read = client.get(f"/api/v1/rosters/{roster_id}").json()
    data = {"csrf": client.cookies.get("muster_csrf"), "version": str(read["version"]),
            "system": read["document"]["ruleset"], **fields}
    return client.post(f"/r/{roster_id}/edit", data=data, headers=HX if htmx else {},
                       follow_redirects=False)


def document(client: TestClient, roster_id: str) -> dict:
    return client.get(f"/api/v1/rosters/{roster_id}").json()["document"]


def unit_id(client: TestClient, roster_id: str, place: int = 0) -> str:
    """The stored id of the unit at `place` in the list, by which the forms name it."""
    return str(document(client, roster_id)["units"][place]["id"])


def unit_form(client: TestClient, roster_id: str, place: int = 0, **fields: str) -> dict[str, Any]:
    """The fields of the unit at `place` as its form posts them: the unit's id and its lines'
    (a hidden `line` per row), read from the stored document, and each line's field given
    as `<name>_<j>` (j the line's place) named by the line's id, as `figures_l2`."""
    unit = document(client, roster_id)["units"][place]
    lines = [line["id"] for line in unit.get("lines", [])]
    named: dict[str, Any] = {"unit": unit["id"]} | ({"line": lines} if lines else {})
    for key, value in fields.items():
        name, _, j = key.rpartition("_")
        named[f"{name}_{lines[int(j)]}" if name and j.isdigit() and lines else key] = value
    return named


def test_home_speaks_english_by_default_and_russian_when_the_browser_asks(
        client: TestClient) -> None:
    assert "New army" in client.get("/").text
    russian = client.get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"}).text
    assert "Новая армия" in russian and 'lang="ru"' in russian


def test_language_switch_is_remembered_and_names_troops_in_russian(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    switch = client.get(f"/lang/ru?next=/r/{roster_id}/edit", follow_redirects=False)
    assert switch.status_code == 303 and switch.headers["location"] == f"/r/{roster_id}/edit"
    page = client.get(f"/r/{roster_id}/edit").text
    assert "Лёгкий всадник" in page and "Композитный лук" in page
    assert "Добавить отряд" in page


def test_language_switch_refuses_to_redirect_off_site(client: TestClient) -> None:
    response = client.get("/lang/ru?next=//evil.example/", follow_redirects=False)
    assert response.headers["location"] == "/"


def test_creating_an_army_opens_the_editor_and_shows_the_edit_link_once(
        client: TestClient) -> None:
    roster_id = create_army(client, name="Кешиг")
    first = client.get(f"/r/{roster_id}/edit?created=1").text
    match = re.search(r'id="edit-link" readonly value="([^"]+)"', first)
    assert match and f"/r/{roster_id}/edit?key=" in match.group(1)
    second = client.get(f"/r/{roster_id}/edit").text
    assert 'id="edit-link"' not in second
    assert "Кешиг" in second


def test_adding_a_unit_without_javascript_posts_and_redirects(client: TestClient) -> None:
    roster_id = create_army(client)
    response = edit(client, roster_id, op="add_unit", preset="swiss_pikemen")
    assert response.status_code == 303
    assert response.headers["location"].startswith(f"/r/{roster_id}/edit")
    units = document(client, roster_id)["units"]
    assert units[0]["lines"] == [{"id": "l1", "troop": "heavy_foot", "figures": 24,
                                  "weapon": "pike"}]
    page = client.get(f"/r/{roster_id}/edit").text
    assert "72" in page  # 24 × 3 points


def test_an_htmx_change_returns_the_fragment_with_totals_and_rules_out_of_band(
        client: TestClient) -> None:
    roster_id = create_army(client)
    response = edit(client, roster_id, htmx=True, op="add_unit", preset="horse_archers")
    assert response.status_code == 200
    assert "HX-Request" in response.headers["vary"]
    body = response.text
    assert "<html" not in body and 'id="editor"' in body
    assert 'id="summary" ' in body and 'id="rules-panel"' in body
    assert body.count('hx-swap-oob="true"') == 3  # totals, rules, the page's version
    # The add form says its answer replaces the whole editor; the server says nothing of it.
    assert "HX-Retarget" not in response.headers and "HX-Reswap" not in response.headers
    assert "70" in body  # 10 light horse with composite bows: 10 × 7


def test_changing_a_units_figures_updates_the_cost_and_the_rule_verdicts(
        client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    body = edit(client, roster_id, htmx=True, op="update_unit", **unit_form(
        client, roster_id, 0, unit_name="Лучники", figures_0="4", troop_0="light_horse",
        weapon_0="composite_bow")).text
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 4
    assert "28" in body
    assert 'data-code="mongols.medium_lancers"' in body


def test_a_mixed_horse_unit_gets_a_second_line(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="light_lancers")
    edit(client, roster_id, op="update_unit", action="add_line", **unit_form(
        client, roster_id, 0, figures_0="10", troop_0="light_horse", weapon_0="lance"))
    lines = document(client, roster_id)["units"][0]["lines"]
    assert [line["troop"] for line in lines] == ["light_horse", "medium_horse"]


def test_duplicate_move_and_remove_units(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="knights")
    edit(client, roster_id, op="add_unit", preset="peasants")
    edit(client, roster_id, op="update_unit", action="duplicate", **unit_form(
        client, roster_id, 1, figures_0="30", troop_0="peasant", weapon_0="none"))
    edit(client, roster_id, op="update_unit", action="move_up", **unit_form(
        client, roster_id, 2, figures_0="30", troop_0="peasant", weapon_0="none"))
    edit(client, roster_id, op="update_unit", action="remove_unit", **unit_form(
        client, roster_id, 0, figures_0="10", troop_0="heavy_horse", weapon_0="lance"))
    units = document(client, roster_id)["units"]
    assert [u["lines"][0]["troop"] for u in units] == ["peasant", "peasant"]


def test_engines_are_added_and_priced(client: TestClient) -> None:
    roster_id = create_army(client, nation="generic")
    edit(client, roster_id, op="add_engine", kind="bombard", count="1", mercenary="on")
    roster = client.get(f"/api/v1/rosters/{roster_id}").json()
    assert roster["document"]["engines"] == [{"id": "e1", "kind": "bombard", "count": 1,
                                              "mercenary": True}]
    assert roster["result"]["total"] == 15


def test_a_russian_page_words_its_refusals_and_conflicts_in_russian(
        client: TestClient) -> None:
    # The route words these before its template is drawn: they must still follow the page's
    # language, not the language of whatever request this thread served before.
    roster_id = create_army(client)
    client.get(f"/lang/ru?next=/r/{roster_id}/edit")
    stale = version_of(client, roster_id)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    response = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": str(stale),
        "system": "chainmail", "op": "add_unit", "preset": "knights"})
    assert response.status_code == 409
    assert "другой вкладке" in response.text and "another tab" not in response.text
    missing = client.get("/r/no-such-roster")
    assert missing.status_code == 404 and "По этому адресу" in missing.text
    client.get("/lang/en?next=/")
    assert "another tab" in client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": str(stale),
        "system": "chainmail", "op": "add_unit", "preset": "knights"}).text


def test_bad_figures_are_refused_with_the_field_named_and_nothing_changes(
        client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    before = version_of(client, roster_id)
    for bad in ("abc", "0", "100001"):
        response = edit(client, roster_id, htmx=True, op="update_unit", **unit_form(
            client, roster_id, 0, figures_0=bad, troop_0="light_horse",
            weapon_0="composite_bow"))
        assert response.status_code == 422
        assert "figures" in response.text
    assert version_of(client, roster_id) == before


def test_a_new_unit_of_no_figures_is_refused_not_given_ten(client: TestClient) -> None:
    roster_id = create_army(client)
    before = version_of(client, roster_id)
    for bad in ("0", "-5", "abc"):
        response = edit(client, roster_id, htmx=True, op="add_unit", figures=bad,
                        troop="light_horse", weapon="none")
        assert response.status_code == 422 and "figures" in response.text
    assert version_of(client, roster_id) == before and document(client, roster_id)["units"] == []
    # Left empty, the form's default of 10 applies.
    edit(client, roster_id, op="add_unit", figures="", troop="light_horse", weapon="none")
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 10


def test_a_stale_tab_sees_a_conflict_and_its_change_is_not_applied(client: TestClient) -> None:
    roster_id = create_army(client)
    stale = version_of(client, roster_id)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    response = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": str(stale),
        "system": "chainmail", "op": "add_unit", "preset": "knights"})
    assert response.status_code == 409
    assert "another tab" in response.text and "Reload" in response.text
    assert len(document(client, roster_id)["units"]) == 1


def test_changes_without_the_csrf_token_or_from_another_site_are_refused(
        client: TestClient) -> None:
    roster_id = create_army(client)
    version = str(version_of(client, roster_id))
    no_token = client.post(f"/r/{roster_id}/edit", data={
        "version": version, "op": "add_unit", "preset": "knights"})
    assert no_token.status_code == 403
    cross_site = client.post(f"/r/{roster_id}/edit", headers={"Origin": "https://evil.example"},
                             data={"csrf": client.cookies.get("muster_csrf"), "version": version,
                                   "op": "add_unit", "preset": "knights"})
    assert cross_site.status_code == 403
    assert document(client, roster_id)["units"] == []


def test_another_browser_can_view_but_not_edit(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    with TestClient(client.app) as stranger:
        view = stranger.get(f"/r/{roster_id}")
        assert view.status_code == 200
        assert "/edit" not in view.text.replace(f"/r/{roster_id}/edit?key", "")
        assert 'name="op"' not in view.text
        assert "Copy to my rosters" in view.text
        assert stranger.get(f"/r/{roster_id}/edit").status_code == 403
        token = csrf_of(stranger)
        refused = stranger.post(f"/r/{roster_id}/edit", data={
            "csrf": token, "version": "2", "op": "add_unit", "preset": "knights"})
        assert refused.status_code == 403


def test_the_edit_link_is_exchanged_for_a_cookie_and_leaves_the_address_bar(
        client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "API army", "ruleset": "chainmail", "nation": "poles"}).json()
    with TestClient(client.app) as owner:
        wrong = owner.get(f"/r/{created['id']}/edit?key=not-the-key", follow_redirects=False)
        assert wrong.status_code == 403
        response = owner.get(f"/r/{created['id']}/edit?key={created['edit_key']}",
                             follow_redirects=False)
        assert response.status_code == 303
        assert response.headers["location"] == f"/r/{created['id']}/edit"
        # A browser not remembered yet carries the key to the editor in a cookie of the
        # editor's own path, and is remembered there (a client that keeps no cookies is not).
        link_cookie = response.headers["set-cookie"].lower()
        assert "muster_link_key" in response.cookies and "muster_device" not in response.cookies
        assert "httponly" in link_cookie and f"path=/r/{created['id']}/edit".lower() in link_cookie
        opened = owner.get(f"/r/{created['id']}/edit")
        assert opened.status_code == 200 and opened.headers["cache-control"] == "no-store"
        cookies = opened.headers.get_list("set-cookie")
        device = next(c for c in cookies if c.startswith("muster_device="))
        assert "httponly" in device.lower()
        assert any(c.startswith('muster_link_key=""') and "max-age=0" in c.lower()
                   for c in cookies), cookies
        assert "muster_link_key" not in owner.cookies
        assert owner.get(f"/r/{created['id']}/edit").status_code == 200
        listing = owner.get("/").text
        assert "API army" in listing


def test_copy_to_my_rosters_makes_an_editable_copy(client: TestClient) -> None:
    roster_id = create_army(client, name="Original")
    with TestClient(client.app) as friend:
        token = csrf_of(friend)
        response = friend.post(f"/r/{roster_id}/copy", data={"csrf": token},
                               follow_redirects=False)
        assert response.status_code == 303
        copy_id = response.headers["location"].split("/")[2]
        assert copy_id != roster_id
        assert friend.get(f"/r/{copy_id}/edit").status_code == 200


def test_my_rosters_search_and_sort(client: TestClient) -> None:
    for name, limit in (("Alpha", "100"), ("Bravo", "300"), ("Charlie", "200")):
        create_army(client, name=name, nation="generic", limit=limit)
    names = re.findall(r'<td><a href="/r/[^"]+" dir="auto">([^<]+)</a>', client.get(
        "/?sort=name&dir=asc").text)
    assert names == ["Alpha", "Bravo", "Charlie"]
    found = client.get("/?q=rav", headers=HX).text
    assert "Bravo" in found and "Alpha" not in found and "<html" not in found


@pytest.mark.parametrize("hostile", ["<script>alert(1)</script>", '" onmouseover="x',
                                     "<img src=x onerror=alert(1)>"])
def test_hostile_names_are_shown_inert(client: TestClient, hostile: str) -> None:
    roster_id = create_army(client, name=hostile)
    edit(client, roster_id, op="add_unit", preset="knights", unit_name=hostile)
    for path in ("/", f"/r/{roster_id}", f"/r/{roster_id}/edit"):
        html = client.get(path).text
        assert hostile not in html
        assert "<script>alert" not in html and 'onmouseover="x' not in html


def test_every_page_carries_a_strict_content_security_policy(client: TestClient) -> None:
    roster_id = create_army(client)
    for path in ("/", "/about", f"/r/{roster_id}", f"/r/{roster_id}/edit"):
        response = client.get(path)
        csp = response.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["referrer-policy"] == "no-referrer"
        assert re.fullmatch(r"app;dur=\d+\.\d\d", response.headers["server-timing"])
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", response.text), "inline script"
        assert not re.search(r"\son[a-z]+=", response.text), "inline event handler"


def test_about_page_lists_the_interpretations_in_both_languages(client: TestClient) -> None:
    assert "Mercenaries cost one half" in client.get("/about").text
    assert "Наёмники стоят половину" in client.get("/about?lang=ru").text


def test_unknown_roster_pages_answer_404(client: TestClient) -> None:
    assert client.get("/r/doesnotexist").status_code == 404
    assert client.get("/r/doesnotexist/edit").status_code == 404


def test_an_exported_file_uploaded_on_the_home_page_becomes_a_new_roster(
        client: TestClient) -> None:
    roster_id = create_army(client, name="Exported")
    edit(client, roster_id, op="add_unit", preset="knights")
    exported = client.get(f"/api/v1/rosters/{roster_id}/export.json").content
    response = client.post("/rosters/import", data={"csrf": csrf_of(client)},
                           files={"file": ("army.json", exported, "application/json")},
                           follow_redirects=False)
    assert response.status_code == 303
    new_id = response.headers["location"].split("/")[2]
    assert new_id != roster_id
    assert document(client, new_id) == document(client, roster_id)


def test_a_broken_upload_is_refused_with_the_reason_and_nothing_is_stored(
        client: TestClient) -> None:
    before = client.get("/").text.count("<tr>")
    bad = (b'{"name": "x", "ruleset": "chainmail",'
           b' "units": [{"lines": [{"troop": "elf", "figures": 1}]}]}')
    response = client.post("/rosters/import", data={"csrf": csrf_of(client)},
                           files={"file": ("army.json", bad, "application/json")})
    assert response.status_code == 422
    assert "Unit 1, line 1, Troop type: not one of the choices" in response.text
    not_json = client.post("/rosters/import", data={"csrf": csrf_of(client)},
                           files={"file": ("army.json", b"\xff\xfe nonsense", "text/plain")})
    assert not_json.status_code == 422
    assert client.get("/").text.count("<tr>") == before


def test_the_roster_pages_link_every_export(client: TestClient) -> None:
    roster_id = create_army(client)
    for path in (f"/r/{roster_id}", f"/r/{roster_id}/edit"):
        html = client.get(path).text
        for ext in ("json", "txt", "md", "bbcode"):
            assert f"/api/v1/rosters/{roster_id}/export.{ext}" in html
    assert client.get(f"/api/v1/rosters/{roster_id}/export.txt").status_code == 200


def test_an_owner_makes_a_new_edit_link_and_the_old_one_stops_working(
        client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Keyed", "ruleset": "chainmail"}).json()
    client.get(f"/r/{created['id']}/edit?key={created['edit_key']}")
    response = client.post(f"/r/{created['id']}/link", data={"csrf": csrf_of(client)},
                           follow_redirects=False)
    assert response.status_code == 303
    page_html = client.get(f"/r/{created['id']}/edit").text
    new_link = re.search(r'id="edit-link" readonly value="[^"]*\?key=([^"]+)"', page_html)
    assert new_link and new_link.group(1) != created["edit_key"]
    old = client.put(f"/api/v1/rosters/{created['id']}", json={
        "name": "Keyed", "ruleset": "chainmail"}, headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v1"'})
    assert old.status_code == 403
    new = client.put(f"/api/v1/rosters/{created['id']}", json={
        "name": "Keyed again", "ruleset": "chainmail"}, headers={
        "Authorization": f"Bearer {new_link.group(1)}", "If-Match": '"v1"'})
    assert new.status_code == 200
    with TestClient(client.app) as stranger:
        refused = stranger.post(f"/r/{created['id']}/link", data={"csrf": csrf_of(stranger)})
        assert refused.status_code == 403


def test_a_new_edit_link_locks_out_every_browser_that_opened_the_old_one(
        client: TestClient) -> None:
    # A link is renewed because it leaked: whoever opened the leaked one must stop editing.
    created = client.post("/api/v1/rosters", json={
        "name": "Leaked", "ruleset": "chainmail", "nation": "generic",
        "units": [{"flags": ["commander"], "lines": [{"troop": "peasant", "figures": 4}]}]}).json()
    roster_id = created["id"]
    client.get(f"/r/{roster_id}/edit?key={created['edit_key']}")
    with TestClient(client.app) as holder:
        holder.get(f"/r/{roster_id}/edit?key={created['edit_key']}")
        assert holder.get(f"/r/{roster_id}/edit").status_code == 200
        renewed = client.post(f"/r/{roster_id}/link", data={"csrf": csrf_of(client)},
                              follow_redirects=False)
        assert renewed.status_code == 303
        assert holder.get(f"/r/{roster_id}/edit").status_code == 403
        removal = holder.post(f"/r/{roster_id}/edit", headers=HX, data={
            "csrf": holder.cookies.get("muster_csrf"),
            "version": str(version_of(holder, roster_id)),
            "system": "chainmail", "op": "update_unit", "unit": "u1",
            "action": "remove_unit"})
        assert removal.status_code == 403
        assert len(document(client, roster_id)["units"]) == 1
        # It keeps the roster in "my rosters", to read.
        assert "view only" in holder.get("/").text
        # The owner who renewed it edits on (asked before the second client closes the app).
        assert client.get(f"/r/{roster_id}/edit").status_code == 200
        edit(client, roster_id, op="settings", name="Kept", points_limit="", nation="generic")
        assert document(client, roster_id)["name"] == "Kept"


def test_an_htmx_change_to_one_unit_redraws_only_that_unit(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    edit(client, roster_id, op="add_unit", preset="medium_lancers")
    version = version_of(client, roster_id)
    response = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": "1", "version_now": str(version),
        "system": "chainmail", "op": "update_unit", "unit": "u2", "line": "l1",
        "unit_name": "Lancers", "figures_l1": "5", "troop_l1": "medium_horse",
        "weapon_l1": "lance"})
    assert response.status_code == 200
    body = response.text
    assert "HX-Retarget" not in response.headers
    assert 'id="unit-u2"' in body
    assert 'id="unit-u1"' not in body and 'id="editor"' not in body
    assert 'id="summary"' in body and 'id="rules-panel"' in body
    assert f'id="version-now" name="version_now" value="{version + 1}"' in body
    assert document(client, roster_id)["units"][1]["lines"][0]["figures"] == 5


def test_a_browser_that_viewed_a_roster_gains_the_edit_right_from_its_link(
        client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Seen first", "ruleset": "chainmail"}).json()
    with TestClient(client.app) as browser:
        browser.post("/rosters/new", data={"csrf": csrf_of(browser), "name": "Mine",
                                           "ruleset": "chainmail"})
        assert browser.get(f"/r/{created['id']}").status_code == 200
        assert browser.get(f"/r/{created['id']}/edit").status_code == 403
        browser.get(f"/r/{created['id']}/edit?key={created['edit_key']}")
        assert browser.get(f"/r/{created['id']}/edit").status_code == 200
        assert "Seen first" in browser.get("/").text


def test_the_share_view_answers_head_as_it_answers_get(client: TestClient) -> None:
    roster_id = create_army(client)
    got, head = client.get(f"/r/{roster_id}"), client.head(f"/r/{roster_id}")
    assert got.status_code == head.status_code == 200
    assert head.content == b""
    for header in ("content-type", "content-security-policy", "referrer-policy", "vary"):
        assert head.headers[header] == got.headers[header]
    assert client.head("/r/no-such-roster").status_code == 404


def test_a_change_proves_the_right_and_the_version_at_its_write(client: TestClient) -> None:
    # A change must refuse a browser whose right was withdrawn, a roster deleted, and a
    # version another worker has moved on.
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    engine = client.app.state.engine  # type: ignore[attr-defined]

    def change(figures: str) -> object:
        return client.post(f"/r/{roster_id}/edit", headers=HX, data={
            "csrf": client.cookies.get("muster_csrf"), "version": "1",
            "version_now": str(version_of(client, roster_id)), "op": "update_unit",
            "system": "chainmail", "unit": "u1", "line": "l1", "figures_l1": figures,
            "troop_l1": "light_horse", "weapon_l1": "composite_bow"})

    assert change("11").status_code == 200
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 11

    with Session(engine) as session:  # the right withdrawn behind the worker's back
        session.exec(update(DeviceRoster).where(col(DeviceRoster.roster_id) == roster_id)
                     .values(can_edit=False))
        session.commit()
    assert change("12").status_code == 403
    with Session(engine) as session:
        session.exec(update(DeviceRoster).where(col(DeviceRoster.roster_id) == roster_id)
                     .values(can_edit=True))
        session.commit()

    # Another worker (a process of its own, with an engine of its own) stores version 4.
    other = make_engine(client.app.state.settings)  # type: ignore[attr-defined]
    try:
        with Session(other) as session:
            stored = rosters.get_roster(session, roster_id)
            moved = rosters.replace_roster(
                session, roster_id, stored.document.model_copy(update={"name": "Другой"}),
                stored.version)
    finally:
        other.dispose()
    response = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": str(moved.version - 1),
        "system": "chainmail", "op": "update_unit", "unit": "u1", "line": "l1",
        "figures_l1": "13", "troop_l1": "light_horse", "weapon_l1": "composite_bow"})
    assert response.status_code == 409 and f"now version {moved.version}" in response.text
    assert document(client, roster_id)["name"] == "Другой"
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 11

    assert change("14").status_code == 200
    last = version_of(client, roster_id)
    with Session(engine) as session:
        rosters.delete_roster(session, roster_id)
    deleted = client.post(f"/r/{roster_id}/edit", headers=HX, data={
        "csrf": client.cookies.get("muster_csrf"), "version": str(last), "op": "update_unit",
        "system": "chainmail", "unit": "u1", "line": "l1", "figures_l1": "15",
        "troop_l1": "light_horse", "weapon_l1": "composite_bow"})
    assert deleted.status_code == 410  # as its share view says it
    with Session(engine) as session:
        rosters.restore_roster(session, roster_id)
    assert version_of(client, roster_id) == last


def test_the_editors_points_limit_allows_in_the_browser_what_the_server_allows(
        client: TestClient) -> None:
    from app.domain.limits import MAX_POINTS_LIMIT

    roster_id = create_army(client)
    editor = client.get(f"/r/{roster_id}/edit").text
    home = client.get("/").text
    for page, field in ((editor, "roster-limit"), (home, "new-limit")):
        tag = re.search(rf'<input id="{field}"[^>]*>', page)
        assert tag and f'max="{MAX_POINTS_LIMIT}"' in tag.group(0) and 'min="1"' in tag.group(0)


def test_the_print_sheet_names_the_sites_icon(client: TestClient) -> None:
    # Without it every printed sheet asks for /favicon.ico, which is not there.
    roster_id = create_army(client)
    sheet = client.get(f"/r/{roster_id}/print").text
    assert '<link rel="icon" href="/static/favicon.svg?v=' in sheet
    assert client.get("/static/favicon.svg").status_code == 200


def test_historical_is_said_only_of_a_nation_with_national_rules(client: TestClient) -> None:
    # "Historical" means "keeps the nation's proportions": a generic army has none to keep.
    generic = client.post("/api/v1/rosters", json={
        "name": "G", "ruleset": "chainmail", "nation": "generic", "units": []}).json()["id"]
    mongols = client.post("/api/v1/rosters", json={
        "name": "M", "ruleset": "chainmail", "nation": "mongols", "units": []}).json()["id"]
    generic_meta = re.search(r'<p class="meta">(.*?)</p>', client.get(f"/r/{generic}").text,
                             re.S)
    mongol_meta = re.search(r'<p class="meta">(.*?)</p>', client.get(f"/r/{mongols}").text,
                            re.S)
    assert generic_meta and "historical" not in generic_meta.group(1)
    assert mongol_meta and "historical" in mongol_meta.group(1)


def test_a_browser_refused_the_editor_is_shown_the_way_to_the_roster(
        client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Чужой", "ruleset": "chainmail", "nation": "generic", "units": []}).json()
    link = f'<a href="/r/{created["id"]}">Open the roster to read it or copy it to your rosters'
    refused = client.get(f"/r/{created['id']}/edit")
    assert refused.status_code == 403 and link in refused.text
    wrong_key = client.get(f"/r/{created['id']}/edit?key=not-the-key", follow_redirects=False)
    assert wrong_key.status_code == 403 and link in wrong_key.text
    assert client.get(f"/r/{created['id']}").status_code == 200  # the share view it names


def test_each_change_is_announced_in_a_live_region_that_stays_on_the_page(
        client: TestClient) -> None:
    roster_id = create_army(client, nation="generic")
    page_html = client.get(f"/r/{roster_id}/edit").text
    # The region is outside what the answers replace, and empty until something changes.
    region = '<p id="announce" class="visually-hidden" role="status" aria-live="polite"></p>'
    assert region in page_html
    assert page_html.index(region) > page_html.index('<div id="editor"')
    assert 'id="summary" class="card summary" aria-labelledby="summary-heading" aria-live' \
        not in page_html
    answer = edit(client, roster_id, htmx=True, op="add_unit", preset="peasants")
    line = re.search(r'<p id="announce" hx-swap-oob="innerHTML">(.*?)</p>', answer.text)
    assert line and line.group(1).startswith("Points ") and "Verdict: " in line.group(1)
    assert answer.text.count('id="announce"') == 1


def test_the_calculators_results_change_inside_a_live_region_that_stays(
        client: TestClient) -> None:
    full = client.get("/calc/order-test").text
    assert re.search(r'<div aria-live="polite">\s*<section id="order-test-result"', full)
    fragment = client.get("/calc/order-test?discipline=1", headers=HX).text
    assert fragment.lstrip().startswith('<section id="order-test-result"')
    assert "aria-live" not in fragment


@pytest.mark.parametrize(("headers", "said", "not_said"), [
    ({}, "This roster was deleted by its owner.", "There is no roster"),
    ({"Accept-Language": "ru"}, "Эта армия удалена её владельцем.", "ростер"),
])
def test_the_share_view_of_a_deleted_roster_says_it_was_deleted(
        client: TestClient, headers: dict[str, str], said: str, not_said: str) -> None:
    # As the API answers it (410), but without how to restore it: that is for the owner, who
    # has the key (the editor tells them).
    roster = client.post("/api/v1/rosters", json=army()).json()
    view = f"/r/{roster['id']}"
    with TestClient(client.app) as owner, TestClient(client.app) as stranger:
        # The owner's browser has "my rosters" (its view is noted there); the stranger's has
        # none.
        assert owner.get(f"{view}/edit?key={roster['edit_key']}").status_code == 200
        assert "muster_device" in owner.cookies
        assert stranger.get(view, headers=headers).status_code == 200
        key = {"Authorization": f"Bearer {roster['edit_key']}"}
        assert client.delete(f"/api/v1/rosters/{roster['id']}", headers=key).status_code == 204
        for browser in (owner, stranger):
            gone = browser.get(view, headers=headers)
            assert gone.status_code == 410
            # Said, and nothing more (no date or way to restore it).
            assert re.findall(r'<p role="alert">(.*?)</p>', gone.text) == [said]
            assert not_said not in gone.text
            assert "Кешиг" not in gone.text  # nothing of the roster
        # A roster that never was is still not there at all.
        missing = stranger.get("/r/nosuchrosterid", headers=headers)
        assert missing.status_code == 404 and said not in missing.text


def test_every_page_of_a_deleted_roster_says_it_was_deleted(client: TestClient) -> None:
    # The share view's word (410) on every page a browser may still hold open: the editor (its
    # owner's offers it back), its change, a new edit link, and "copy to my rosters"; an id
    # that never was stays a 404.
    roster = client.post("/api/v1/rosters", json=army()).json()
    base = f"/r/{roster['id']}"
    with TestClient(client.app) as owner, TestClient(client.app) as reader:
        assert owner.get(f"{base}/edit?key={roster['edit_key']}").status_code == 200
        assert reader.get(base).status_code == 200
        key = {"Authorization": f"Bearer {roster['edit_key']}"}
        assert client.delete(f"/api/v1/rosters/{roster['id']}", headers=key).status_code == 204
        # Its owner's editor offers it back (tests/web/test_delete_and_restore.py).
        editor = owner.get(f"{base}/edit")
        assert editor.status_code == 410
        assert "This roster was deleted. It can be restored before" in editor.text
        answers = {
            "editor of another browser": reader.get(f"{base}/edit"),
            "change": owner.post(f"{base}/edit", data={
                "csrf": csrf_of(owner), "version": "1", "op": "add_unit",
                "preset": "knights"}),
            "new link": owner.post(f"{base}/link", data={"csrf": csrf_of(owner)}),
            "copy": reader.post(f"{base}/copy", data={"csrf": csrf_of(reader)},
                                follow_redirects=False),
        }
        for what, answer in answers.items():
            assert answer.status_code == 410, what
            assert "This roster was deleted by its owner." in answer.text, what
        assert reader.post("/r/nosuchrosterid/copy", data={"csrf": csrf_of(reader)},
                           follow_redirects=False).status_code == 404
