""""Fill to the limit" through both doors: the editor's card and its one button, the API's
`?fill=true` whose edits PATCH makes, the one edit `{"op": "make_legal", "fill": true}`, the
same roster each way, Undo, and a bad `fill` refused naming it."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.test_pages import HX, create_army, document, edit, version_of
from tests.web.test_roster_edits_api import create, patch

ROSTERS = "/api/v1/rosters"


def mongols(limit: int = 200) -> dict:  # type: ignore[type-arg]
    return {"name": "Орда", "ruleset": "chainmail", "nation": "mongols",
            "points_limit": limit, "units": [], "engines": []}


def test_the_editor_fills_an_empty_army_with_one_button_and_undo_takes_it_back(
        client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols", limit="200")
    page = client.get(f"/r/{roster_id}/edit").text
    # Offered from the first screen, above the list, and found only when asked for.
    assert 'id="fill-button"' in page
    assert page.index('id="fill-card"') < page.index('id="add-heading"')
    card = client.get(f"/r/{roster_id}/edit?suggest=1&fill=1", headers=HX).text
    assert card.lstrip().startswith('<section class="card fill-card" id="fill-card"')
    assert "new unit “Horse archers (light horse with bows)”: 23 × Light Horse" in card
    assert "40 figures added; the army then costs 200 points." in card
    russian = client.get(f"/r/{roster_id}/edit?suggest=1&fill=1&lang=ru", headers=HX).text
    assert "Добавить эти фигуры" in russian and "Добавлено 40 фигур" in russian
    before = version_of(client, roster_id)
    answer = edit(client, roster_id, htmx=True, op="make_legal", fill="1")
    assert answer.status_code == 200
    assert version_of(client, roster_id) == before + 1
    assert re.search(r'class="verdict ok"', answer.text)
    assert "Points 200 of 200" in answer.text and 'id="fill-card"' not in answer.text
    assert edit(client, roster_id, htmx=True, op="undo").status_code == 200
    assert document(client, roster_id)["units"] == []


def test_the_api_suggests_the_fill_and_its_edits_make_the_same_roster_as_the_one_edit(
        client: TestClient) -> None:
    one, two = create(client, mongols()), create(client, mongols())
    answer = client.get(f"{ROSTERS}/{one['id']}/make-legal?fill=true")
    assert answer.status_code == 200
    found = answer.json()
    assert found["possible"] and found["total"] == 200 and found["moved"] == 40
    assert [e["op"] for e in found["edits"]] == ["add_unit"] * 3
    assert found["edits"][0]["name"] == "Horse archers (light horse with bows)"
    by_edits = patch(client, one, found["edits"])
    by_one_edit = patch(client, two, [{"op": "make_legal", "fill": True}])
    assert by_edits.status_code == by_one_edit.status_code == 200
    made, same = by_edits.json(), by_one_edit.json()
    assert made["result"]["valid"] and made["result"]["total"] == 200
    assert made["document"]["units"] == same["document"]["units"]
    # Full: nothing more to add.
    again = client.get(f"{ROSTERS}/{one['id']}/make-legal?fill=true").json()
    assert again["possible"] and again["edits"] == [] and again["version"] == 2
    # Without ?fill, Make it legal as before: a legal army has nothing to change.
    assert client.get(f"{ROSTERS}/{one['id']}/make-legal").json()["edits"] == []


def test_a_fill_that_cannot_be_made_says_why_and_a_bad_fill_is_refused_naming_it(
        client: TestClient) -> None:
    unlimited = create(client, mongols() | {"points_limit": None})
    found = client.get(f"{ROSTERS}/{unlimited['id']}/make-legal?fill=true&lang=ru").json()
    assert not found["possible"] and "лимита" in found["reason"]
    refused = patch(client, unlimited, [{"op": "make_legal", "fill": True}])
    assert refused.status_code == 422
    assert refused.json()["detail"][0]["loc"] == ["body", "edits", 0, "op"]
    bad = client.get(f"{ROSTERS}/{unlimited['id']}/make-legal?fill=maybe")
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["query", "fill"]


def test_the_openapi_document_documents_fill() -> None:
    from app.main import create_app

    spec = create_app().openapi()
    params = spec["paths"]["/api/v1/rosters/{roster_id}/make-legal"]["get"]["parameters"]
    fill = next(p for p in params if p["name"] == "fill")
    assert fill["in"] == "query" and fill["schema"]["type"] == "boolean"
    assert "Fill to the limit" in fill["description"]
