"""A refused form speaks the page's language and names fields as the form shows them."""

from __future__ import annotations

from html import unescape

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.domain.edits import EditError
from app.domain.form_reading import Form, FormError, whole
from app.systems import SYSTEMS
from app.systems.chainmail import ChainmailRoster
from app.web import i18n
from app.web.problems import edit_problem, field_label, form_problem, problem_text
from tests.web.test_pages import HX, create_army, csrf_of, document, edit, unit_form, version_of

RU = {"Accept-Language": "ru"}


# Units and lines as the forms name them (by id), in a list whose places are not their ids'.
DOC = {"units": [{"id": "u7", "lines": [{"id": "l2"}, {"id": "l1"}]}, {"id": "u3", "lines": []},
                 {"id": "u1", "lines": [{"id": "l1"}]}, {"id": "u9", "lines": [{"id": "l4"}]}],
       "engines": [{"id": "e1"}, {"id": "e5"}]}


@pytest.mark.parametrize(("lang", "field", "label"), [
    ("en", "units[2].lines[0].figures", "Unit 3, line 1, Figures"),
    ("ru", "units[2].lines[0].figures", "Отряд 3, строка 1, Фигуры"),
    ("en", "engines[1].count", "Engine 2, Count"),
    ("ru", "engines[1].count", "Орудие 2, Количество"),
    ("en", "units[0].lines[0].count", "Unit 1, line 1, Warriors"),
    ("ru", "points_limit", "Лимит очков"),
    ("en", "something_new", "Something_new"),  # unknown: as it is, not dropped
])
def test_a_documents_fields_are_named_as_the_forms_show_them(lang: str, field: str,
                                                             label: str) -> None:
    i18n.use_lang(lang)  # type: ignore[arg-type]
    assert field_label(field) == label


@pytest.mark.parametrize(("field", "unit", "label"), [
    ("figures_l1", "u7", "Unit 1, line 2, Figures"),  # a line by its id, named by its place
    ("count_l4", "u9", "Unit 4, line 1, Warriors"),
    ("unit_name", "u3", "Unit 2, Unit name"),
    ("figures", None, "Figures"),  # the add form's: no unit yet
    ("figures_l2", "u404", "Figures_l2"),  # a unit that is not there: the field as it is
])
def test_a_forms_fields_are_named_by_their_places_not_their_ids(field: str, unit: str | None,
                                                                label: str) -> None:
    i18n.use_lang("en")
    assert form_problem(field, "x", DOC, unit) == f"{label}: x"


@pytest.mark.parametrize(("edit", "field", "label"), [
    ({"op": "set_line", "unit": "u7", "line": "l1"}, "figures", "Unit 1, line 2, Figures"),
    ({"op": "set_unit", "unit": "u1"}, "name", "Unit 3, Name"),
    ({"op": "set_roster"}, "name", "Name"),
    ({"op": "set_engine", "engine": "e5"}, "count", "Engine 2, Count"),
    ({"op": "remove_unit", "unit": "u8"}, "unit", "Units"),  # no such unit: the list
    ({"op": "add_line", "unit": "u7"}, "line", "Unit 1, Lines"),  # a unit's lines full
    ({"op": "make_legal"}, "op", "Make it legal"),  # refused as a whole
])
def test_an_edits_refusal_names_its_field_as_the_form_it_came_from_shows_it(
        edit: dict[str, str], field: str, label: str) -> None:
    refused = EditError(field, "%(what)s", what="refused")
    refused.edit = 1
    assert edit_problem(refused, [{"op": "set_roster"}, edit], DOC, "chainmail", "en") == \
        f"{label}: refused"


def test_an_edit_that_is_none_is_named_by_its_fields_place_in_the_list() -> None:
    # A field of the unit being added: the place it would take, its line by its place.
    edits = [{"op": "add_unit", "lines": [{"figures": 0}]}]
    with pytest.raises(ValidationError) as refused:
        SYSTEMS["chainmail"].edits.validate_python(edits)
    i18n.use_lang("ru")
    assert edit_problem(refused.value, edits, DOC, "chainmail", "ru") == \
        "Отряд 5, строка 1, Фигуры: должно быть не меньше 1"


@pytest.mark.parametrize(("lang", "system", "field", "unit", "label"), [
    ("ru", "line_and_square", "figures", "u7", "Подразделение 1, Фигуры"),
    ("ru", "line_and_square", "unit_name", "u3", "Подразделение 2, Название подразделения"),
    ("en", "line_and_square", "figures", "u7", "Unit 1, Figures"),
    ("ru", "chainmail", "figures_l2", "u7", "Отряд 1, строка 1, Фигуры"),
    ("ru", None, "figures", "u7", "Отряд 1, Фигуры"),
])
def test_a_unit_is_named_in_its_rule_systems_word(lang: str, system: str | None, field: str,
                                                  unit: str | None, label: str) -> None:
    # Line and Square's seed says «подразделение», the others «отряд» (as their forms do).
    i18n.use_lang(lang)  # type: ignore[arg-type]
    assert form_problem(field, "x", DOC, unit, system) == f"{label}: x"
    assert field_label("units[2].points", "line_and_square").startswith(
        "Подразделение 3" if lang == "ru" else "Unit 3")


def refusal(doc: dict[str, object]) -> ValidationError:
    with pytest.raises(ValidationError) as refused:
        ChainmailRoster.model_validate(doc)
    return refused.value


def test_the_models_refusals_are_worded_in_the_pages_language() -> None:
    doc = {"name": "x" * 121, "ruleset": "chainmail", "nation": "generic", "units": [
        {"lines": [{"troop": "elf", "figures": 0}]}]}
    errors = refusal(doc).errors()
    i18n.use_lang("en")
    assert problem_text(errors) == (
        "Name: at most 120 characters; Unit 1, line 1, Troop type: not one of the choices; "
        "Unit 1, line 1, Figures: must be at least 1")
    i18n.use_lang("ru")
    assert problem_text(errors) == (
        "Название: не больше 120 символов; Отряд 1, строка 1, Тип войск: такого варианта нет; "
        "Отряд 1, строка 1, Фигуры: должно быть не меньше 1")


def test_a_number_field_may_send_what_the_browser_reads_as_a_whole_number() -> None:
    assert whole(Form([("f", "1e3")]), "f") == 1000
    assert whole(Form([("f", "12.0")]), "f") == 12
    # "1_0" and "1_0.0" are 10 to Python's int() and Decimal(), and to no player.
    for bad in ("2.5", "1e400", "nan", "inf", "ten", "1e3000000000", "1_0", "1_0.0", "_1"):
        with pytest.raises(FormError):
            whole(Form([("f", bad)]), "f")
    i18n.use_lang("ru")
    with pytest.raises(FormError) as refused:
        whole(Form([("figures_l2", "десять")], "ru"), "figures_l2")
    assert form_problem(refused.value.field, refused.value.message, DOC, "u7") == \
        "Отряд 1, строка 1, Фигуры: «десять» — не целое число"


def test_a_russian_editor_says_what_is_wrong_in_russian(client: TestClient) -> None:
    roster_id = create_army(client)
    edit(client, roster_id, op="add_unit", preset="horse_archers")
    before = version_of(client, roster_id)
    data = {"csrf": client.cookies.get("muster_csrf"), "version": str(before),
            "system": "chainmail", "op": "update_unit", **unit_form(
                client, roster_id, 0, troop_0="light_horse", weapon_0="composite_bow")}
    for figures, words in (("десять", "Отряд 1, строка 1, Фигуры: «десять» — не целое число"),
                           ("0", "Отряд 1, строка 1, Фигуры: должно быть не меньше 1")):
        answer = client.post(f"/r/{roster_id}/edit", data={**data, "figures_l1": figures},
                             headers={**HX, **RU})
        assert answer.status_code == 422 and words in unescape(answer.text)
        # The problem takes the focus when it is drawn, so it is seen where the player is.
        assert 'class="problem card" role="alert" tabindex="-1" autofocus' in answer.text
    assert version_of(client, roster_id) == before
    answer = client.post(f"/r/{roster_id}/edit", data={**data, "figures_l1": "1e3"}, headers=HX)
    assert answer.status_code == 200
    assert document(client, roster_id)["units"][0]["lines"][0]["figures"] == 1000


def test_a_russian_home_page_refuses_a_new_army_in_russian(client: TestClient) -> None:
    answer = client.post("/rosters/new", headers=RU, data={
        "csrf": csrf_of(client), "name": "Орда", "nation": "mongols", "points_limit": "0",
        "ruleset": "chainmail"}, follow_redirects=False)
    assert answer.status_code == 422
    assert "Лимит очков: должно быть не меньше 1" in unescape(answer.text)
    bad = (b'{"name": "x", "ruleset": "chainmail",'
           b' "units": [{"lines": [{"troop": "elf", "figures": 1}]}]}')
    answer = client.post("/rosters/import", data={"csrf": csrf_of(client)}, headers=RU,
                         files={"file": ("army.json", bad, "application/json")})
    assert answer.status_code == 422
    assert "Отряд 1, строка 1, Тип войск: такого варианта нет" in unescape(answer.text)


def test_the_api_keeps_its_own_words_and_paths(client: TestClient) -> None:
    # Clients match on these; only pages speak the player's words.
    answer = client.post("/api/v1/price?lang=ru", json={
        "name": "x", "ruleset": "chainmail", "units": [{"lines": [{"troop": "elf",
                                                                   "figures": 1}]}]})
    assert answer.status_code == 422
    assert answer.json()["detail"][0]["field"] == "units[0].lines[0].troop"


def test_a_browser_at_an_address_where_nothing_is_gets_the_sites_page(
        client: TestClient) -> None:
    browser = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    page = client.get("/nope", headers=browser)
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "There is nothing at this address." in page.text and '<html lang="en">' in page.text
    russian = client.get("/nope/deeper", headers={**browser, **RU})
    assert russian.status_code == 404 and "По этому адресу ничего нет." in russian.text
    # Scripts and the API keep the JSON answer; so do static files.
    for path, headers in (("/nope", {"Accept": "application/json"}), ("/api/v1/nope", browser),
                          ("/static/nope.css", browser)):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404, path
        assert answer.json() == {"detail": "Not Found", "message": "Not Found"}, path



def test_htmx_restoring_a_page_from_history_gets_the_whole_page(client: TestClient) -> None:
    fragment = client.get("/calc/order-test?discipline=2", headers=HX)
    assert "<html" not in fragment.text
    restored = client.get("/calc/order-test?discipline=2",
                          headers={**HX, "HX-History-Restore-Request": "true"})
    assert "<html" in restored.text and 'id="order-test-form"' in restored.text


def test_every_get_answers_head_too(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Head", "ruleset": "chainmail", "nation": "generic", "units": []}).json()
    for path in ("/healthz", "/readyz", f"/api/v1/rosters/{created['id']}", "/api/v1/rulesets",
                 f"/r/{created['id']}", "/static/js/app.js"):
        got, head = client.get(path), client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    assert client.head(f"/api/v1/rosters/{created['id']}").headers["etag"] == '"v1"'
    assert client.head("/api/v1/rosters/nonexistent1").status_code == 404
    refused = client.post("/healthz")
    assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD"


def test_every_refusal_has_a_message_to_show(client: TestClient) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Shape", "ruleset": "chainmail", "nation": "generic", "units": []}).json()
    roster = f"/api/v1/rosters/{created['id']}"
    body = {"name": "Shape", "ruleset": "chainmail"}
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    for answer in (client.get("/api/v1/rosters/nonexistent1"),          # 404
                   client.put(roster, json=body),                       # 401
                   client.put(roster, json=body, headers={"Authorization": "Bearer no"}),  # 403
                   client.put(roster, json=body, headers=key),          # 428
                   client.put(roster, json=body, headers={**key, "If-Match": '"v9"'}),  # 412
                   client.post("/api/v1/rosters", json={"name": 1})):   # 422
        payload = answer.json()
        assert answer.status_code >= 400 and isinstance(payload["message"], str), answer.text
        assert payload["message"] and "detail" in payload


def test_the_api_documents_its_headers_and_the_databases_absence(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    read = paths["/api/v1/rosters/{roster_id}"]["get"]["responses"]
    assert read["200"]["headers"]["ETag"]["required"] is True
    assert read["503"]["headers"]["Retry-After"]["required"] is True
    created = paths["/api/v1/rosters"]["post"]["responses"]["201"]["headers"]
    assert {"ETag", "Location"} <= set(created)
    for path in ("/api/v1/rosters/{roster_id}/export.json", "/api/v1/rosters/import",
                 "/api/v1/rosters/{roster_id}/revisions"):
        assert "503" in next(iter(paths[path].values()))["responses"], path


def test_an_accept_language_of_megabytes_is_read_only_as_far_as_a_browsers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from app.http import language as module

    read: list[int] = []
    negotiate = module._negotiate
    monkeypatch.setattr(module, "_negotiate", lambda header: read.append(len(header))
                        or negotiate(header))
    huge = "ru;q=0.9," + "en;q=0.5," * 400_000  # 3.6 MB, asked for several times a page
    assert module.from_accept_language(huge) == "ru"
    assert read and max(read) <= 256
    assert module.from_accept_language("fr;q=0.9," * 40 + "en") is None  # its first part only
