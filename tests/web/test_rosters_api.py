"""The stored-roster API, as a client uses it, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers.documents import army

ROSTERS = "/api/v1/rosters"


def create(api: TestClient, document: dict[str, Any] | None = None) -> dict[str, Any]:
    response = api.post(ROSTERS, json=document or army())
    assert response.status_code == 201, response.text
    return response.json()


def key_of(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['edit_key']}"}


def put(api: TestClient, created: dict[str, Any], document: dict[str, Any],
        etag: str | None, **headers: str) -> Any:
    sent = {**key_of(created), **headers}
    if etag is not None:
        sent["If-Match"] = etag
    return api.put(f"{ROSTERS}/{created['id']}", json=document, headers=sent)


def state(api: TestClient, roster_id: str) -> tuple[int, list[int], str]:
    """Version, revision numbers and name: what a failed request must leave alone."""
    read = api.get(f"{ROSTERS}/{roster_id}").json()
    revisions = api.get(f"{ROSTERS}/{roster_id}/revisions").json()
    return read["version"], [r["version"] for r in revisions], read["document"]["name"]


def test_creating_answers_links_key_and_the_priced_result(api: TestClient) -> None:
    response = api.post(f"{ROSTERS}?lang=ru", json=army())
    body = response.json()
    assert response.status_code == 201
    assert body["version"] == 1 and body["copied_from"] is None
    assert body["view_url"] == f"/r/{body['id']}"
    assert body["edit_url"] == f"/r/{body['id']}/edit?key={body['edit_key']}"
    assert body["edit_key"] not in body["view_url"]
    assert response.headers["ETag"] == '"v1"'
    assert response.headers["Location"] == f"{ROSTERS}/{body['id']}"
    assert response.headers["Cache-Control"] == "no-store"
    assert body["result"] == api.post("/api/v1/price?lang=ru", json=army()).json()
    assert body["document"]["name"] == "Орда Субэдэя"


def test_reading_needs_only_the_id_and_gives_the_etag(api: TestClient) -> None:
    created = create(api)
    response = api.get(f"{ROSTERS}/{created['id']}")
    body = response.json()
    assert response.status_code == 200
    assert response.headers["ETag"] == '"v1"'
    assert {k: body[k] for k in ("id", "version", "document", "result", "copied_from")} == {
        k: created[k] for k in ("id", "version", "document", "result", "copied_from")}
    assert body["created_at"] == body["updated_at"]
    assert "edit_key" not in body


@pytest.mark.parametrize("roster_id", ["unknownroster000", "x"])
def test_an_unknown_id_is_not_found(api: TestClient, roster_id: str) -> None:
    for path in ("", "/revisions", "/revisions/1"):
        assert api.get(f"{ROSTERS}/{roster_id}{path}").status_code == 404
    assert api.post(f"{ROSTERS}/{roster_id}/copy").status_code == 404
    response = api.put(f"{ROSTERS}/{roster_id}", json=army(),
                       headers={"Authorization": "Bearer k", "If-Match": '"v1"'})
    assert response.status_code == 404


def test_an_id_that_cannot_be_one_is_refused_naming_the_field(api: TestClient) -> None:
    for bad in ("a%00b", "a.b", "x" * 65):
        response = api.get(f"{ROSTERS}/{bad}")
        assert response.status_code == 422
        assert "roster_id" in response.json()["message"]


def test_a_change_with_key_and_current_etag_makes_the_next_version(api: TestClient) -> None:
    created = create(api)
    response = put(api, created, army(name="Вторая"), '"v1"')
    assert response.status_code == 200
    assert response.headers["ETag"] == '"v2"'
    assert response.json()["version"] == 2
    assert response.json()["result"] == api.post("/api/v1/price", json=army(name="Вторая")).json()
    # A weak ETag matches nothing: If-Match compares strongly (tests/web/test_weak_etags.py).
    assert put(api, created, army(name="Третья"), 'W/"v2"').status_code == 412
    assert put(api, created, army(name="Третья"), '"v2"').status_code == 200
    assert state(api, created["id"]) == (3, [1, 2, 3], "Третья")
    revision = api.get(f"{ROSTERS}/{created['id']}/revisions/2").json()
    assert (revision["version"], revision["document"]["name"]) == (2, "Вторая")


def test_a_change_without_the_key_is_unauthorised(api: TestClient) -> None:
    created = create(api)
    for headers in ({}, {"Authorization": "Basic dXNlcjpwYXNz"}, {"Authorization": "Bearer"}):
        response = api.put(f"{ROSTERS}/{created['id']}", json=army(name="x"),
                           headers={"If-Match": '"v1"', **headers})
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
        assert "Authorization" in response.json()["detail"]
    assert state(api, created["id"]) == (1, [1], "Орда Субэдэя")


def test_another_rosters_key_is_forbidden(api: TestClient) -> None:
    mine, theirs = create(api), create(api)
    response = put(api, mine, army(name="x"), '"v1"', Authorization=key_of(theirs)[
        "Authorization"])
    assert response.status_code == 403
    response = api.delete(f"{ROSTERS}/{mine['id']}", headers=key_of(theirs))
    assert response.status_code == 403
    assert state(api, mine["id"]) == (1, [1], "Орда Субэдэя")


def test_a_change_without_if_match_is_refused_as_precondition_required(api: TestClient) -> None:
    created = create(api)
    response = put(api, created, army(name="x"), None)
    assert response.status_code == 428
    assert "If-Match" in response.json()["detail"]
    assert state(api, created["id"]) == (1, [1], "Орда Субэдэя")


def test_if_match_star_changes_whatever_version_is_current_as_rfc_9110_says(
        api: TestClient) -> None:
    created = create(api)
    assert put(api, created, army(name="x"), '"v1"').status_code == 200
    response = put(api, created, army(name="y"), "*")
    assert response.status_code == 200 and response.headers["etag"] == '"v3"'
    edited = api.patch(f"{ROSTERS}/{created['id']}", json={"edits": [
        {"op": "set_roster", "name": "z"}]}, headers={**key_of(created), "If-Match": "*"})
    assert edited.status_code == 200 and edited.json()["version"] == 4
    assert state(api, created["id"]) == (4, [1, 2, 3, 4], "z")
    api.delete(f"{ROSTERS}/{created['id']}", headers=key_of(created))
    assert put(api, created, army(name="w"), "*").status_code == 410  # nothing to match


def test_a_repeated_json_key_a_charset_not_utf_8_and_a_repeated_query_are_refused(
        api: TestClient) -> None:
    body = json.dumps(army()).replace('"name"', '"name": "first", "name"', 1)
    repeated = api.post(ROSTERS, content=body, headers={"Content-Type": "application/json"})
    assert repeated.status_code == 422 and repeated.json()["detail"][0]["loc"] == ["body", "name"]
    for charset in ("latin-1", "utf-16"):
        answer = api.post(ROSTERS, content=json.dumps(army()).encode(), headers={
            "Content-Type": f"application/json; charset={charset}"})
        assert answer.status_code == 415 and "UTF-8" in answer.json()["message"]
    wide = api.post(ROSTERS, content=json.dumps(army()).encode("utf-16"),
                    headers={"Content-Type": "application/json"})
    assert wide.status_code == 415
    twice = api.post(f"{ROSTERS}?lang=ru&lang=en", json=army())
    assert twice.status_code == 422 and twice.json()["detail"][0]["loc"] == ["query", "lang"]
    assert api.get(f"{ROSTERS}/{repeated.json().get('id', 'x' * 16)}").status_code == 404
    assert api.post(f"{ROSTERS}?lang=ru", content=json.dumps(army()).encode(),
                    headers={"Content-Type": "application/json; charset=UTF-8"}).status_code == 201


@pytest.mark.parametrize("etag", ["v1", '"1"', '"v1", "v2"', '"vx"', '"v99999999999999"'])
def test_a_malformed_if_match_is_refused_naming_the_header(api: TestClient, etag: str) -> None:
    created = create(api)
    response = put(api, created, army(name="x"), etag)
    assert response.status_code in (412, 422)
    if response.status_code == 422:
        assert "If-Match" in response.json()["message"]
    assert state(api, created["id"]) == (1, [1], "Орда Субэдэя")


def test_a_change_against_a_stale_etag_is_refused_with_the_current_version(
        api: TestClient) -> None:
    created = create(api)
    assert put(api, created, army(name="first"), '"v1"').status_code == 200
    response = put(api, created, army(name="lost"), '"v1"')
    assert response.status_code == 412
    assert response.json()["version"] == 2
    assert response.json()["etag"] == response.headers["ETag"] == '"v2"'
    assert state(api, created["id"]) == (2, [1, 2], "first")


def test_an_invalid_document_changes_nothing(api: TestClient) -> None:
    created = create(api)
    bad = army()
    bad["units"][0]["lines"][0]["troop"] = "dragon"
    response = put(api, created, bad, '"v1"')
    assert response.status_code == 422
    assert "units[0].lines[0].troop" in response.json()["message"]
    assert put(api, created, {**army(), "surprise": 1}, '"v1"').status_code == 422
    broken = api.put(f"{ROSTERS}/{created['id']}", content=b'{"name": ',
                     headers={**key_of(created), "If-Match": '"v1"',
                              "Content-Type": "application/json"})
    assert broken.status_code == 422
    huge = put(api, created, {**army(), "note": "x" * (2 * 1024 * 1024)}, '"v1"')
    assert huge.status_code == 413
    assert state(api, created["id"]) == (1, [1], "Орда Субэдэя")


def test_an_over_limit_roster_is_stored_and_reported_not_refused(api: TestClient) -> None:
    over = army(figures=500, points_limit=100)
    created = create(api, over)
    assert created["result"]["valid"] is False
    assert created["result"]["remaining"] < 0
    changed = put(api, created, army(figures=900, points_limit=100), '"v1"')
    assert changed.status_code == 200 and changed.json()["result"]["valid"] is False
    assert state(api, created["id"])[0] == 2


def test_a_deleted_roster_is_gone_until_restored_with_its_history(api: TestClient) -> None:
    created = create(api)
    put(api, created, army(name="second"), '"v1"')
    roster = f"{ROSTERS}/{created['id']}"
    assert api.delete(roster).status_code == 401
    response = api.delete(roster, headers=key_of(created))
    assert response.status_code == 204 and response.content == b""
    for path in ("", "/revisions", "/revisions/1"):
        assert api.get(f"{roster}{path}").status_code == 410
    assert api.post(f"{roster}/copy").status_code == 410
    assert put(api, created, army(name="ghost"), '"v2"').status_code == 410
    assert api.delete(roster, headers=key_of(created)).status_code == 204
    assert api.post(f"{roster}/restore").status_code == 401
    restored = api.post(f"{roster}/restore", headers=key_of(created))
    assert restored.status_code == 200
    assert restored.headers["ETag"] == '"v2"'
    assert state(api, created["id"]) == (2, [1, 2], "second")


def test_a_deleted_roster_says_until_when_it_can_be_restored(api: TestClient) -> None:
    created = create(api)
    api.delete(f"{ROSTERS}/{created['id']}", headers=key_of(created))
    english = api.get(f"{ROSTERS}/{created['id']}").json()["detail"]
    russian = api.get(f"{ROSTERS}/{created['id']}?lang=ru").json()["detail"]
    assert "restore" in english and "восстановить" in russian


def test_anyone_with_the_id_can_copy_and_gets_a_roster_of_their_own(api: TestClient) -> None:
    original = create(api)
    put(api, original, army(name="Оригинал"), '"v1"')
    response = api.post(f"{ROSTERS}/{original['id']}/copy")
    copy = response.json()
    assert response.status_code == 201
    assert copy["id"] != original["id"] and copy["edit_key"] != original["edit_key"]
    assert copy["version"] == 1
    assert copy["copied_from"] == {"id": original["id"], "version": 2}
    assert copy["document"]["name"] == "Оригинал"
    assert api.get(f"{ROSTERS}/{copy['id']}").json()["copied_from"] == copy["copied_from"]
    # The copy's key edits the copy, not the original.
    assert put(api, copy, army(name="Моя"), '"v1"').status_code == 200
    response = api.put(f"{ROSTERS}/{original['id']}", json=army(name="x"),
                       headers={**key_of(copy), "If-Match": '"v2"'})
    assert response.status_code == 403
    assert state(api, original["id"]) == (2, [1, 2], "Оригинал")


def test_revisions_list_every_version_and_refuse_impossible_numbers(api: TestClient) -> None:
    created = create(api)
    for version in (1, 2):
        put(api, created, army(name=f"after {version}"), f'"v{version}"')
    listing = api.get(f"{ROSTERS}/{created['id']}/revisions").json()
    assert [r["version"] for r in listing] == [1, 2, 3]
    assert all(r["created_at"] for r in listing)
    assert api.get(f"{ROSTERS}/{created['id']}/revisions/4").status_code == 404
    for bad in ("0", "-1", "two", str(2**40)):
        response = api.get(f"{ROSTERS}/{created['id']}/revisions/{bad}")
        assert response.status_code == 422 and "version" in response.json()["message"]


def test_messages_follow_the_requested_language(api: TestClient) -> None:
    created = create(api)
    put(api, created, army(name="first"), '"v1"')
    stale = api.put(f"{ROSTERS}/{created['id']}?lang=ru", json=army(),
                    headers={**key_of(created), "If-Match": '"v1"'})
    assert stale.status_code == 412 and "версии" in stale.json()["detail"]
    missing = api.get(f"{ROSTERS}/unknownroster000?lang=ru")
    assert "армии" in missing.json()["detail"]
    assert api.get(f"{ROSTERS}/{created['id']}?lang=de").status_code == 422


def test_the_openapi_document_describes_every_answer(api: TestClient) -> None:
    paths = api.get("/openapi.json").json()["paths"]
    roster = paths["/api/v1/rosters/{roster_id}"]
    assert {"401", "403", "404", "410", "412", "422", "428"} <= set(roster["put"]["responses"])
    assert {"401", "403", "404"} <= set(roster["delete"]["responses"])
    assert {"404", "410"} <= set(roster["get"]["responses"])
    assert "201" in paths["/api/v1/rosters"]["post"]["responses"]
    for path in ("/api/v1/rosters/{roster_id}/copy", "/api/v1/rosters/{roster_id}/restore",
                 "/api/v1/rosters/{roster_id}/revisions",
                 "/api/v1/rosters/{roster_id}/revisions/{version}"):
        assert path in paths


def test_a_name_with_a_nul_character_is_refused_on_every_backend(api: TestClient) -> None:
    # PostgreSQL's text columns cannot hold a NUL: it would be stored apart from the document.
    refused = api.post(ROSTERS, json=army(name="Орда\u0000Батыя"))
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["field"] == "name"
    assert create(api, army(name="Орда Батыя"))["document"]["name"] == "Орда Батыя"


def test_the_description_says_if_match_is_required_and_what_it_looks_like(
        api: TestClient) -> None:
    operation = api.get("/openapi.json").json()["paths"]["/api/v1/rosters/{roster_id}"]["put"]
    (header,) = [p for p in operation["parameters"] if p["name"] == "If-Match"]
    assert header["in"] == "header" and header["required"] is True
    pattern = re.compile(header["schema"]["pattern"])
    assert pattern.match('"v3"') and pattern.match('W/"v12"')
    assert not pattern.match("v3") and not pattern.match("*")


@pytest.mark.parametrize(("path", "misspelt"), [
    ("/api/v1/rulesets", "lang"),  # takes no parameters at all
    ("/api/v1/rulesets/chainmail", "lnag"),
])
def test_an_api_operation_refuses_query_parameters_it_does_not_take(
        api: TestClient, path: str, misspelt: str) -> None:
    answer = api.get(path, params={misspelt: "ru"})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["field"] == f"query.{misspelt}"
    assert f"query.{misspelt}: unknown query parameter" in answer.json()["message"]


def test_pages_take_query_parameters_they_do_not_use(api: TestClient) -> None:
    # Links from elsewhere carry their own (utm_source and the like); a page is not refused.
    assert api.get("/about", params={"utm_source": "forum"}).status_code == 200


def test_a_method_an_address_does_not_take_is_answered_with_all_it_does(
        api: TestClient) -> None:
    roster = api.post("/api/v1/rosters", json=army()).json()
    answer = api.post(f"/api/v1/rosters/{roster['id']}", json={})
    assert answer.status_code == 405
    assert answer.headers["allow"] == "DELETE, GET, HEAD, PATCH, PUT"
    # The import address is its own, though its path would also fit a roster's.
    assert api.options("/api/v1/rosters/import").headers["allow"] == "POST"


def test_the_refusal_of_an_unknown_query_parameter_speaks_russian_when_asked(
        api: TestClient) -> None:
    answer = api.get("/api/v1/rosters/abc/export.txt", params={"lang": "ru", "format": "pdf"})
    assert answer.status_code == 422
    assert answer.json()["message"] == (
        "query.format: неизвестный параметр запроса; эта операция принимает: lang")
