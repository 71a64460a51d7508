""""My rosters" on the home page: each list's verdict in three words (legal, legal with
warnings, not legal) with a mark besides its colour, and the sort by it, in both languages."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from tests.helpers.documents import army
from tests.web.test_russian import RU


def generic(name: str, *, commander: bool = True, figures: int = 10) -> dict[str, Any]:
    """A generic army, free of national rules: with a commander and within 300 points it
    breaks nothing; without one it breaks only a warning (army.no_commander)."""
    document = army(name, nation="generic", figures=figures)
    document["units"][0]["flags"] = ["commander"] if commander else []
    return document


def stored(client: TestClient, document: dict[str, Any]) -> dict[str, Any]:
    """Created through the API, its edit link opened, so this browser lists it."""
    created: dict[str, Any] = client.post("/api/v1/rosters", json=document).json()
    client.get(f"/r/{created['id']}/edit?key={created['edit_key']}")
    return created


def verdicts(html: str) -> list[tuple[str, str, str]]:
    """(roster name, verdict class, mark and words) per row of the list, in order."""
    rows = re.findall(r'<td><a href="/r/[^"]+" dir="auto">([^<]+)</a></td>.*?'
                      r'<td class="verdict (\w+)"><span class="mark" aria-hidden="true">'
                      r'(.)</span> ([^<]+)</td>', html, re.S)
    return [(name, kind, f"{mark} {words}") for name, kind, mark, words in rows]


def test_a_list_whose_only_problem_is_a_warning_is_legal_with_warnings(
        client: TestClient) -> None:
    created = stored(client, generic("Warned", commander=False))
    issues = created["result"]["issues"]
    assert created["result"]["valid"] is True  # the JSON API's verdict is unchanged
    assert [i["severity"] for i in issues] == ["warning"]
    assert verdicts(client.get("/").text) == [("Warned", "warn", "! Legal, with warnings")]
    assert verdicts(client.get("/", headers=RU).text) == [
        ("Warned", "warn", "! По правилам, с предупреждениями")]
    # Mended, it is legal: the row follows the stored version.
    mended = client.put(f"/api/v1/rosters/{created['id']}", json=generic("Warned"), headers={
        "Authorization": f"Bearer {created['edit_key']}", "If-Match": '"v1"'})
    assert mended.status_code == 200 and mended.json()["result"]["issues"] == []
    assert verdicts(client.get("/").text) == [("Warned", "ok", "✓ Legal")]


def test_my_rosters_sort_broken_then_warnings_then_legal_and_back(client: TestClient) -> None:
    # Made in an order neither sort follows: the order shown is the verdict's.
    stored(client, generic("Warned", commander=False))
    stored(client, generic("Legal"))
    stored(client, generic("Broken", figures=100))  # 400 points against 300
    english = [("Broken", "bad", "✗ Not legal"), ("Warned", "warn", "! Legal, with warnings"),
               ("Legal", "ok", "✓ Legal")]
    assert verdicts(client.get("/?sort=verdict&dir=asc").text) == english
    assert verdicts(client.get("/?sort=verdict&dir=desc").text) == english[::-1]
    russian = verdicts(client.get("/?sort=verdict&dir=asc", headers=RU).text)
    assert russian == [("Broken", "bad", "✗ Не по правилам"),
                       ("Warned", "warn", "! По правилам, с предупреждениями"),
                       ("Legal", "ok", "✓ По правилам")]
    # The sort's own choice is offered, and kept selected, in both languages.
    assert '<option value="verdict" selected>Verdict</option>' in client.get(
        "/?sort=verdict").text
    assert '<option value="verdict" selected>Вердикт</option>' in client.get(
        "/?sort=verdict", headers=RU).text
