"""Importing roster files over HTTP: a new stored roster, or a refusal that stores nothing."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from sqlalchemy import func
from sqlmodel import Session, select

from app.storage.tables import Roster
from app.systems.chainmail import ChainmailRoster
from tests.unit.test_exports import rosters
from tests.web.test_export import DOCUMENT, store


def stored_count(client: TestClient) -> int:
    with Session(client.app.state.engine) as session:  # type: ignore[attr-defined]
        return int(session.exec(select(func.count()).select_from(Roster)).one())


def exported(client: TestClient, document: dict[str, Any] | None = None) -> bytes:
    roster_id = store(client, document)
    return client.get(f"/api/v1/rosters/{roster_id}/export.json").content


def test_an_exported_file_posted_as_json_becomes_a_new_roster(client: TestClient) -> None:
    data = exported(client)
    answer = client.post("/api/v1/rosters/import", content=data,
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["version"] == 1
    assert body["view_url"] == f"/r/{body['id']}"
    assert body["edit_url"] == f"/r/{body['id']}/edit?key={body['edit_key']}"
    assert answer.headers["Cache-Control"] == "no-store"
    stored = client.get(f"/api/v1/rosters/{body['id']}").json()
    assert ChainmailRoster.model_validate(stored["document"]) == ChainmailRoster.model_validate(
        DOCUMENT)


def test_an_exported_file_uploaded_as_a_form_becomes_a_new_roster(client: TestClient) -> None:
    data = exported(client)
    before = stored_count(client)
    answer = client.post("/api/v1/rosters/import",
                         files={"file": ("Орда.json", data, "application/json")})
    assert answer.status_code == 201, answer.text
    assert stored_count(client) == before + 1
    assert client.get(answer.json()["view_url"].replace("/r/", "/api/v1/rosters/")).json()[
        "document"]["name"] == "Орда Субэдэя"


def test_the_imported_rosters_edit_key_edits_it(client: TestClient) -> None:
    body = client.post("/api/v1/rosters/import", json=DOCUMENT).json()
    renamed = {**DOCUMENT, "name": "Renamed"}
    answer = client.put(f"/api/v1/rosters/{body['id']}", json=renamed,
                        headers={"Authorization": f"Bearer {body['edit_key']}",
                                 "If-Match": '"v1"'})
    assert answer.status_code == 200


def test_a_bare_roster_document_is_imported_too(client: TestClient) -> None:
    answer = client.post("/api/v1/rosters/import", json=DOCUMENT)
    assert answer.status_code == 201
    assert answer.json()["result"]["total"] == 112


def test_an_exports_own_fields_are_optional_and_typed(client: TestClient) -> None:
    # What the API description says the body may be: a document with any of the export's
    # fields, `format` included or not.
    partial = {**DOCUMENT, "ruleset_version": "2", "exported_at": "вчера"}
    assert client.post("/api/v1/rosters/import", json=partial).status_code == 201
    wrong = client.post("/api/v1/rosters/import", json={**DOCUMENT, "exported_at": 5})
    assert wrong.status_code == 422 and wrong.json()["detail"][0]["field"] == "exported_at"


def test_the_import_body_is_described_as_a_document_of_each_rule_system(
        client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/api/v1/rosters/import"]["post"]
    content = operation["requestBody"]["content"]
    for kind in ("application/json", "multipart/form-data"):
        schema = content[kind]["schema"]
        variants = schema["oneOf"] if kind == "application/json" else \
            schema["properties"]["file"]["oneOf"]
        assert {v["properties"]["ruleset"]["const"] for v in variants} == {
            "chainmail", "line_and_square", "formation_density"}
        assert all(v["properties"]["format"]["const"] == "muster-roster/1" for v in variants)
        assert all(v["additionalProperties"] is False for v in variants)
    assert content["multipart/form-data"]["encoding"]["file"]["contentType"] == \
        "application/json"


BAD_FILES = {
    "not utf-8": ("Орда".encode("cp1251"), "file", "not UTF-8"),
    "not json": (b"{name: orda}", "file", "not JSON"),
    "a list": (b"[1, 2]", "file", "JSON object"),
    "empty": (b"", "file", "not JSON"),
    "unknown format": (json.dumps({**DOCUMENT, "format": "muster-roster/9"}).encode(),
                       "format", "muster-roster/9"),
    "unknown troop": (json.dumps({**DOCUMENT, "units": [
        {"lines": [{"troop": "orc", "figures": 5}]}]}).encode(),
        "units[0].lines[0].troop", "Input should be"),
    "no figures": (json.dumps({**DOCUMENT, "units": [
        {"lines": [{"troop": "light_foot", "figures": 0}]}]}).encode(),
        "units[0].lines[0].figures", "greater than or equal to 1"),
    "absurd limit": (json.dumps({**DOCUMENT, "points_limit": 10**12}).encode(),
                     "points_limit", "less than or equal"),
}


@pytest.mark.parametrize("case", list(BAD_FILES))
@pytest.mark.parametrize("how", ["body", "upload"])
def test_a_refused_file_is_answered_422_naming_the_field_and_stores_nothing(
        client: TestClient, case: str, how: str) -> None:
    data, field, words = BAD_FILES[case]
    before = stored_count(client)
    if how == "body":
        answer = client.post("/api/v1/rosters/import", content=data,
                             headers={"Content-Type": "application/json"})
    else:
        answer = client.post("/api/v1/rosters/import",
                             files={"file": ("roster.json", data, "application/json")})
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert body["message"].startswith(f"{field}: ")
    assert words in body["message"]
    assert body["detail"][0]["field"] == field
    assert stored_count(client) == before


def test_import_refusals_read_like_the_apis_own(client: TestClient) -> None:
    document = {**DOCUMENT, "nation": "atlantis", "units": [
        {"lines": [{"troop": "light_foot", "figures": -1}]}]}
    imported = client.post("/api/v1/rosters/import", json=document)
    created = client.post("/api/v1/rosters", json=document)
    assert imported.status_code == created.status_code == 422
    assert imported.json()["message"] == created.json()["message"]
    assert [d["field"] for d in imported.json()["detail"]] == [
        d["field"] for d in created.json()["detail"]]


def test_an_upload_without_the_file_field_is_refused_by_name(client: TestClient) -> None:
    before = stored_count(client)
    answer = client.post("/api/v1/rosters/import",
                         files={"roster": ("x.json", json.dumps(DOCUMENT).encode())})
    assert answer.status_code == 422
    assert answer.json()["message"].startswith("file: ")
    assert stored_count(client) == before


@pytest.mark.parametrize(("content", "content_type"), [
    (b"abc", "multipart/form-data"),
    (b"--xx\r\ngarbage", "multipart/form-data; boundary=xx"),
])
def test_a_malformed_upload_is_refused_naming_the_file(client: TestClient, content: bytes,
                                                       content_type: str) -> None:
    answer = client.post("/api/v1/rosters/import", content=content,
                         headers={"Content-Type": content_type})
    assert answer.status_code == 422
    assert answer.json()["message"].startswith("file: ")


def test_only_one_file_is_taken_per_import(client: TestClient) -> None:
    before = stored_count(client)
    data = json.dumps(DOCUMENT).encode()
    answer = client.post("/api/v1/rosters/import",
                         files=[("file", ("a.json", data)), ("file", ("b.json", data))])
    assert answer.status_code == 422
    assert "file" in answer.json()["message"]
    assert stored_count(client) == before


def test_an_oversized_file_is_refused_and_stores_nothing(client: TestClient) -> None:
    before = stored_count(client)
    padded = {**DOCUMENT, "note": "x" * 1500, "units": DOCUMENT["units"] * 400}
    data = json.dumps(padded).encode() + b" " * (1024 * 1024)
    answer = client.post("/api/v1/rosters/import", content=data,
                         headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert stored_count(client) == before


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(roster=rosters())
def test_export_then_import_gives_the_same_document_and_price(client: TestClient,
                                                               roster: ChainmailRoster) -> None:
    document = roster.model_dump(mode="json")
    original = client.post("/api/v1/rosters", json=document).json()
    data = client.get(f"/api/v1/rosters/{original['id']}/export.json").content
    imported = client.post("/api/v1/rosters/import", content=data,
                           headers={"Content-Type": "application/json"})
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["id"] != original["id"]
    assert ChainmailRoster.model_validate(copy["document"]) == roster
    assert copy["result"] == original["result"]


# ---------------------------------------------------------------- ids kept, ids refused

def ids_of(document: dict[str, Any]) -> list[Any]:
    """A document's ids: each unit's with its lines', and each engine's."""
    return [[(u["id"], [line["id"] for line in u["lines"]]) for u in document["units"]],
            [e["id"] for e in document["engines"]]]


# Ids out of their list's order, as edits leave them (moved, removed): an import that
# numbered them anew would give u1, u2 and l1, l2 instead.
WITH_IDS = {**DOCUMENT, "units": [
    {**DOCUMENT["units"][1], "id": "u7",
     "lines": [{**DOCUMENT["units"][1]["lines"][0], "id": "l3"},
               {"id": "l1", "troop": "medium_horse", "figures": 4}]},
    {**DOCUMENT["units"][0], "id": "u2"}],
    "engines": [{"id": "e5", "kind": "bombard", "count": 1},
                {"kind": "light_cannon", "count": 2}]}
WITH_IDS_IDS = [[("u7", ["l3", "l1"]), ("u2", ["l1"])], ["e5", "e6"]]


def test_an_exported_file_imported_again_keeps_every_id(client: TestClient) -> None:
    data = exported(client, WITH_IDS)
    assert ids_of(json.loads(data)) == WITH_IDS_IDS
    as_json = client.post("/api/v1/rosters/import", content=data,
                          headers={"Content-Type": "application/json"})
    as_upload = client.post("/api/v1/rosters/import",
                            files={"file": ("army.json", data, "application/json")})
    client.get("/")
    on_the_page = client.post("/rosters/import", data={"csrf": client.cookies.get("muster_csrf")},
                              files={"file": ("army.json", data, "application/json")},
                              follow_redirects=False)
    assert on_the_page.status_code == 303, on_the_page.text
    page_id = re.fullmatch(r"/r/([^/]+)/edit\?created=1", on_the_page.headers["location"])
    assert page_id is not None
    made = [as_json.json()["id"], as_upload.json()["id"], page_id.group(1)]
    for roster_id in made:
        stored = client.get(f"/api/v1/rosters/{roster_id}").json()["document"]
        assert ids_of(stored) == WITH_IDS_IDS
        again = client.get(f"/api/v1/rosters/{roster_id}/export.json").json()
        assert ids_of(again) == WITH_IDS_IDS
    assert len(set(made)) == 3


def _twice(where: str) -> tuple[dict[str, Any], str]:
    """A document giving one id twice in the list `where`, and the field of the second."""
    unit = DOCUMENT["units"][0]
    if where == "units":
        return {**DOCUMENT, "units": [{**unit, "id": "u1"}, {**unit, "id": "u1"}]}, "units[1].id"
    if where == "lines":
        lines = [{**unit["lines"][0], "id": "a"}] * 2
        return {**DOCUMENT, "units": [unit, {**unit, "lines": lines}]}, "units[1].lines[1].id"
    if where == "engines":
        return {**DOCUMENT, "engines": [{"id": "e2", "kind": "bombard", "count": 1}] * 2}, \
            "engines[1].id"
    fd_unit = {"id": "x", "density": 3, "files": 5, "lines": [
        {"id": "l1", "class": "melee_specialists", "weapon": "sword", "count": 5}] * 2}
    if where == "formation_density lines":
        return {"name": "Легион", "ruleset": "formation_density", "units": [fd_unit]}, \
            "units[0].lines[1].id"
    ls_unit = {"id": "x", "class": "line_infantry", "figures": 12, "speed": 6, "points": 10}
    return {"name": "Бригада", "ruleset": "line_and_square", "units": [ls_unit] * 2}, \
        "units[1].id"


@pytest.mark.parametrize("where", ["units", "lines", "engines", "formation_density lines",
                                   "line_and_square units"])
def test_a_document_with_an_id_twice_is_refused_naming_the_second_and_stores_nothing(
        client: TestClient, where: str) -> None:
    document, field = _twice(where)
    before = stored_count(client)
    for path in ("/api/v1/rosters/import", "/api/v1/rosters"):
        answer = client.post(path, json=document)
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert [d["field"] for d in body["detail"]] == [field]
        assert body["message"] == (
            f"{field}: Value error, this id is already used in the list: each must be "
            "different")
    assert stored_count(client) == before


# ---------------------------------------------------------------- the home page's words

def upload(client: TestClient, document: Any, lang: str) -> str:
    """The home page's answer to an uploaded file, as its reader sees it."""
    client.get("/")
    answer = client.post(f"/rosters/import?lang={lang}",
                         data={"csrf": client.cookies.get("muster_csrf")},
                         files={"file": ("army.json", json.dumps(document).encode(),
                                         "application/json")})
    assert answer.status_code == 422, answer.text
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', answer.text, re.S)
    assert found, answer.text
    return unescape(found.group(1))


CHOICES = '"chainmail", "line_and_square", "formation_density"'
NO_RULESET = {k: v for k, v in DOCUMENT.items() if k != "ruleset"}


def test_a_file_that_names_no_rule_system_is_told_so_in_the_pages_language(
        client: TestClient) -> None:
    assert upload(client, NO_RULESET, "en") == (
        f'The file was not imported: Rule system: not given in the file ("ruleset" is one of '
        f"{CHOICES})")
    assert upload(client, NO_RULESET, "ru") == (
        f'Файл не импортирован: Система правил: не указана в файле ("ruleset" — одно из: '
        f"{CHOICES})")
    assert upload(client, {**DOCUMENT, "ruleset": "chess"}, "ru") == (
        f'Файл не импортирован: Система правил: системы правил "chess" нет: "ruleset" — одно '
        f"из: {CHOICES}")
    # The API still names the field, in its own words, for scripts that match on them.
    for body in (NO_RULESET, {**DOCUMENT, "ruleset": "chess"}):
        answer = client.post("/api/v1/rosters/import?lang=ru", json=body)
        assert answer.status_code == 422
        assert answer.json()["detail"][0]["field"] == "ruleset"
        assert answer.json()["message"].startswith("ruleset: ")


FD_UNIT = {"density": 3, "files": 5, "lines": [{"class": "melee_specialists", "weapon": "sword",
                                                 "count": 5}]}
FD = {"name": "Легион", "ruleset": "formation_density", "units": [FD_UNIT]}
# Each kind of pydantic error a file can bring: (document, English, Russian).
WRONG_FILES: dict[str, tuple[dict[str, Any], str, str]] = {
    "unknown key": ({**DOCUMENT, "colour": "red"}, 'File: unknown field "colour": remove it',
                    'Файл: неизвестное поле "colour": уберите его'),
    "unknown key of a line": (
        {**DOCUMENT, "units": [{"lines": [{"troop": "light_foot", "figures": 2, "x": 1}]}]},
        'Unit 1, line 1: unknown field "x": remove it',
        'Отряд 1, строка 1: неизвестное поле "x": уберите его'),
    "not a boolean": ({**DOCUMENT, "historical": "yes"},
                      "Historical (keep the nation's proportions): must be true or false",
                      "Историческая (соблюдать пропорции народа): должно быть true или false"),
    "not a string": ({**DOCUMENT, "name": 5}, "Name: must be text in quotes",
                     "Название: должно быть текстом в кавычках"),
    "not a list": ({**DOCUMENT, "units": {}}, "Units: must be a list in square brackets",
                   "Отряды: должно быть списком в квадратных скобках"),
    "not an object": ({**DOCUMENT, "units": [5]}, "Unit 1: must be an object in braces",
                      "Отряд 1: должно быть объектом в фигурных скобках"),
    "not a whole number": ({**DOCUMENT, "points_limit": "300"},
                           "Points limit: must be a whole number",
                           "Лимит очков: должно быть целым числом"),
    "an id twice": ({**DOCUMENT, "units": [{"id": "u1"}, {"id": "u1"}]},
                    "Unit 2, id: this id is already used in the list: each must be different",
                    "Отряд 2, id: этот идентификатор уже есть в списке: у каждого он должен "
                    "быть свой"),
    "a flag twice": ({**DOCUMENT, "units": [{"flags": ["elite", "elite"]}]},
                     "Unit 1, Special rules: each flag may appear only once",
                     "Отряд 1, Особые правила: каждое особое правило можно указать только "
                     "один раз"),
    "not a number": ({**FD, "units": [{**FD_UNIT, "points": "1"}]},
                     "Unit 1, Points: must be a number", "Отряд 1, Очки: должно быть числом"),
    "not a half": ({**FD, "units": [{**FD_UNIT, "points": 0.3}]},
                   "Unit 1, Points: must be a multiple of 0.5",
                   "Отряд 1, Очки: должно быть кратно 0,5"),
    "no lines": ({**FD, "units": [{**FD_UNIT, "lines": []}]}, "Unit 1, Lines: at least 1",
                 "Отряд 1, Строки: не меньше 1"),
    "not a boolean of a line": (
        {**FD, "units": [{**FD_UNIT, "lines": [{**FD_UNIT["lines"][0], "mounted": 1}]}]},
        "Unit 1, line 1, Mounted: must be true or false",
        "Отряд 1, строка 1, Верхом: должно быть true или false"),
}


@pytest.mark.parametrize("case", list(WRONG_FILES))
def test_a_wrong_file_is_refused_in_a_sentence_of_the_pages_language(
        client: TestClient, case: str) -> None:
    document, english, russian = WRONG_FILES[case]
    said = {lang: upload(client, document, lang) for lang in ("en", "ru")}
    assert said["en"] == f"The file was not imported: {english}"
    assert said["ru"] == f"Файл не импортирован: {russian}"
    for text in said.values():  # none of pydantic's own English
        assert not re.search(r"Input should|valid|Extra inputs|Value error|discriminator",
                             text), text
    # The API keeps pydantic's words and names the field.
    answer = client.post("/api/v1/rosters/import?lang=ru", json=document)
    assert answer.status_code == 422 and answer.json()["detail"][0]["field"]
