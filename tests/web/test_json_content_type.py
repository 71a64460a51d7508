"""The API's JSON operations take a body sent as JSON and refuse another with 415, naming the
header and what to send: FastAPI took such a body as one string and answered 422 'Input should
be a valid dictionary', which names neither. Nothing is stored by a refused request."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers.documents import army
from tests.web.test_formation_density_api import CLUBMAN, MELEE, SWORDSMAN

ROSTERS = "/api/v1/rosters"
NOT_JSON = [None, "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
            "application/jsonx", "application/octet-stream", "text/json"]
JSON_KINDS = ["application/json", "application/json; charset=utf-8", "APPLICATION/JSON",
              "application/merge-patch+json"]


@pytest.fixture
def api(module_api: TestClient) -> TestClient:
    """One app a backend for the module: each test makes the rosters it sends to and reads."""
    return module_api


def _operations(api: TestClient) -> list[tuple[str, str, dict[str, Any], dict[str, str]]]:
    """(method, path, a valid body, headers) of every operation that takes a JSON document."""
    created = api.post(ROSTERS, json=army()).json()
    keyed = {"Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v1"'}
    # Edited by edits that change nothing, so that it stays at version 1 however often sent.
    edited = api.post(ROSTERS, json=army()).json()
    same = {"edits": [{"op": "set_roster", "name": army()["name"]}]}
    return [("POST", "/api/v1/price", army(), {}),
            ("POST", ROSTERS, army(), {}),
            ("PUT", f"{ROSTERS}/{created['id']}", army(), keyed),
            ("PATCH", f"{ROSTERS}/{edited['id']}", same,
             {"Authorization": f"Bearer {edited['edit_key']}", "If-Match": '"v1"'}),
            ("POST", MELEE, {"a": SWORDSMAN, "b": CLUBMAN}, {}),
            ("POST", f"{ROSTERS}/import", army(), {})]


def _send(api: TestClient, method: str, path: str, body: bytes, kind: str | None,
          headers: dict[str, str]) -> Any:
    sent = dict(headers)
    if kind is not None:
        sent["Content-Type"] = kind
    return api.request(method, path, content=body, headers=sent)


@pytest.mark.parametrize("kind", NOT_JSON)
def test_a_json_document_sent_as_another_type_is_refused_415_naming_the_header(
        api: TestClient, kind: str | None) -> None:
    for method, path, body, headers in _operations(api):
        answer = _send(api, method, path, json.dumps(body).encode(), kind, headers)
        assert answer.status_code == 415, (method, path, answer.text)
        message = answer.json()["message"]
        assert message.startswith("Content-Type: send the body as application/json"), message
        if kind:
            assert kind.split(";")[0] in message
        assert answer.headers["Accept"] == "application/json"


def test_the_refusal_is_in_russian_with_lang_ru(api: TestClient) -> None:
    for method, path, body, headers in _operations(api):
        answer = _send(api, method, path + "?lang=ru", json.dumps(body).encode(), "text/plain",
                       headers)
        assert answer.status_code == 415, (path, answer.text)
        assert answer.json()["message"] == ("Content-Type: пришлите тело запроса как "
                                            "application/json, а не text/plain")


def test_a_refused_body_stores_and_changes_nothing(api: TestClient) -> None:
    created = api.post(ROSTERS, json=army()).json()
    changed = army()
    changed["name"] = "Другое имя"
    put = api.put(f"{ROSTERS}/{created['id']}", content=json.dumps(changed),
                  headers={"Authorization": f"Bearer {created['edit_key']}",
                           "If-Match": '"v1"', "Content-Type": "text/plain"})
    assert put.status_code == 415
    read = api.get(f"{ROSTERS}/{created['id']}").json()
    assert read["version"] == 1 and read["document"]["name"] == army()["name"]
    made = api.post(ROSTERS, content=json.dumps(army()), headers={"Content-Type": "text/plain"})
    assert made.status_code == 415 and "Location" not in made.headers


@pytest.mark.parametrize("kind", JSON_KINDS)
def test_json_under_any_of_its_names_is_taken(api: TestClient, kind: str) -> None:
    for method, path, body, headers in _operations(api):
        answer = _send(api, method, path, json.dumps(body).encode(), kind, headers)
        assert answer.status_code in (200, 201), (method, path, kind, answer.text)


@pytest.mark.parametrize("kind", ["text/plain", None])
def test_an_empty_body_is_still_refused_as_a_missing_body(api: TestClient,
                                                           kind: str | None) -> None:
    for method, path, _body, headers in _operations(api):
        answer = _send(api, method, path, b"", kind, headers)
        assert answer.status_code == 422, (path, answer.text)
        # The import names the file it was sent, in a body or in the multipart field.
        assert answer.json()["detail"][0]["field"] == ("file" if "import" in path else "body")


def test_the_api_description_documents_the_415(api: TestClient) -> None:
    paths = api.get("/openapi.json").json()["paths"]
    for path, method in [("/api/v1/price", "post"), (ROSTERS, "post"),
                         (ROSTERS + "/{roster_id}", "put"), (ROSTERS + "/{roster_id}", "patch"),
                         (MELEE, "post"),
                         (ROSTERS + "/import", "post")]:
        answer = paths[path][method]["responses"]["415"]
        assert "Accept" in answer["headers"], path


def test_a_content_type_that_is_no_media_type_is_not_quoted(api: TestClient) -> None:
    for sent in ("text/plain\u00ff", "п/р", "x" * 200):
        answer = api.post("/api/v1/price", content=json.dumps(army()).encode(),
                          headers={"Content-Type": sent.encode("utf-8")})
        assert answer.status_code == 415
        assert answer.json()["message"] == "Content-Type: send the body as application/json, not ?"


def test_a_media_type_of_any_token_characters_is_quoted(api: TestClient) -> None:
    # RFC 9110's tokens: a type such as text/x~y or application/vnd.a*b is named as sent.
    for sent in ("text/x~y", "application/vnd.a*b", "x-a'b/c`d|e%f"):
        answer = api.post("/api/v1/price", content=json.dumps(army()).encode(),
                          headers={"Content-Type": sent})
        assert answer.status_code == 415
        assert answer.json()["message"] == ("Content-Type: send the body as application/json, "
                                            f"not {sent}")


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32"])
def test_json_is_taken_in_utf_8_alone_but_an_exported_file_as_editors_save_it(
        api: TestClient, encoding: str) -> None:
    """RFC 8259 8.1: JSON between systems is UTF-8. The import reads an exported file, which
    an editor may have saved as UTF-16 or with a byte-order mark: it takes those too."""
    for method, path, body, headers in _operations(api):
        text = json.dumps(army() if path.endswith("/import") else body, ensure_ascii=False)
        answer = _send(api, method, path, text.encode(encoding), "application/json", headers)
        if path.endswith("/import") or encoding == "utf-8":
            assert answer.status_code in (200, 201), (method, path, encoding, answer.text)
        elif encoding != "utf-8-sig":
            assert answer.status_code == 415, (method, path, encoding, answer.text)
