"""A stored version is priced and judged once per language and the evaluation kept: the
creation or change that stores it answers with it, reading it again costs no evaluation, and a
change, another language or another roster is evaluated anew."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.cache import Recent
from app.systems import SYSTEMS
from tests.helpers.documents import army
from tests.web.test_pages import HX, create_army


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each evaluation made: (roster name, language)."""
    made: list[tuple[str, str]] = []
    system = SYSTEMS["chainmail"]
    evaluate = system.evaluate

    def counted(document: Any, lang: str) -> Any:
        made.append((document.name, lang))
        return evaluate(document, lang)

    monkeypatch.setitem(SYSTEMS, "chainmail", replace(system, evaluate=counted))
    return made


def test_a_version_read_again_is_not_evaluated_again(
        client: TestClient, evaluations: list[tuple[str, str]]) -> None:
    roster = client.post("/api/v1/rosters", json=army("Орда")).json()
    evaluations.clear()
    first = client.get(f"/api/v1/rosters/{roster['id']}").json()
    assert first["result"] == roster["result"]
    assert client.get(f"/api/v1/rosters/{roster['id']}").json() == first
    assert client.get(f"/r/{roster['id']}").status_code == 200
    assert evaluations == []
    client.get(f"/api/v1/rosters/{roster['id']}?lang=ru")
    assert client.get(f"/r/{roster['id']}?lang=ru").status_code == 200
    assert evaluations == [("Орда", "ru")]


def _once(answer: Any, evaluations: list[tuple[str, str]], lang: str) -> Any:
    """The answer, made by one evaluation of the roster "Орда" in `lang` (then forgotten)."""
    assert answer.status_code in (200, 201, 303), answer.text
    assert evaluations == [("Орда", lang)]
    evaluations.clear()
    return answer


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_creation_and_each_change_are_evaluated_once_in_the_answers_language(
        client: TestClient, evaluations: list[tuple[str, str]], lang: str) -> None:
    """Create, copy, PUT, PATCH and undo each judge the version they store once, and answer
    that evaluation: it is kept, so reading the version in that language costs none."""
    address = "/api/v1/rosters"
    made = _once(client.post(f"{address}?lang={lang}", json=army("Орда")), evaluations, lang)
    roster = made.json()
    url, key = f"{address}/{roster['id']}", {"Authorization": f"Bearer {roster['edit_key']}"}
    copied = _once(client.post(f"{url}/copy?lang={lang}"), evaluations, lang)
    put = _once(client.put(f"{url}?lang={lang}", json=army("Орда", figures=12),
                           headers={**key, "If-Match": '"v1"'}), evaluations, lang)
    _once(client.patch(f"{url}?lang={lang}", json={"edits": [
        {"op": "set_line", "unit": "u1", "line": "l1", "figures": 14}]},
        headers={**key, "If-Match": '"v2"'}), evaluations, lang)
    undone = _once(client.post(f"{url}/undo?lang={lang}", headers={**key, "If-Match": '"v3"'}),
                   evaluations, lang)
    assert copied.json()["result"] == roster["result"]
    assert undone.json()["result"] == put.json()["result"]
    for last in (copied.json(), undone.json()):
        read = client.get(f"{address}/{last['id']}?lang={lang}").json()
        assert (read["version"], read["result"]) == (last["version"], last["result"])
    assert evaluations == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_editors_change_is_evaluated_once_in_the_pages_language(
        client: TestClient, evaluations: list[tuple[str, str]], lang: str) -> None:
    """A change or an undo on the editor's page judges the version it stores once: its
    answer, and the editor a plain form is sent back to, show that evaluation."""
    roster_id = create_army(client)
    client.cookies.set("lang", lang)
    client.get(f"/r/{roster_id}/edit")
    evaluations.clear()
    form = {"csrf": client.cookies.get("muster_csrf"), "system": "chainmail"}
    _once(client.post(f"/r/{roster_id}/edit", headers=HX, data={
        **form, "version": "1", "op": "add_unit", "preset": "knights"}), evaluations, lang)
    undone = _once(client.post(f"/r/{roster_id}/edit", data={
        **form, "version": "2", "op": "undo", "undo_to": "1"}, follow_redirects=False),
        evaluations, lang)
    assert client.get(undone.headers["location"]).status_code == 200
    assert evaluations == []


def test_a_change_is_judged_anew(client: TestClient, evaluations: list[tuple[str, str]]) -> None:
    roster = client.post("/api/v1/rosters", json=army("Орда", nation="generic")).json()
    before = client.get(f"/api/v1/rosters/{roster['id']}").json()
    changed = army("Орда", nation="generic")
    changed["points_limit"] = 1
    answer = client.put(f"/api/v1/rosters/{roster['id']}", json=changed, headers={
        "Authorization": f"Bearer {roster['edit_key']}", "If-Match": '"v1"'})
    assert answer.status_code == 200
    after = client.get(f"/api/v1/rosters/{roster['id']}").json()
    assert before["result"]["valid"] and not after["result"]["valid"]
    assert after["result"]["points_limit"] == 1


def test_the_least_recently_used_goes_first_and_no_more_than_its_size_stay() -> None:
    made: list[str] = []
    recent: Recent[str] = Recent(2)

    def make(key: str) -> str:
        made.append(key)
        return key.upper()

    assert recent.get("a", lambda: make("a")) == "A"
    recent.get("b", lambda: make("b"))
    assert recent.get("a", lambda: make("a")) == "A"  # kept, and now the most recent
    recent.get("c", lambda: make("c"))  # "b" goes
    recent.get("a", lambda: make("a"))
    recent.get("b", lambda: make("b"))
    assert made == ["a", "b", "c", "b"]
