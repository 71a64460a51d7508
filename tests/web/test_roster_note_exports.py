"""The roster's own note is in its text, Markdown and BBCode exports, in every rule system,
escaped as the players' other text is."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

NOTE = "Play *after* [b]dusk[/b]\nwith the river"


@pytest.mark.parametrize("ruleset", ["chainmail", "formation_density", "line_and_square"])
@pytest.mark.parametrize("lang, word", [("en", "Note"), ("ru", "Примечание")])
def test_the_rosters_note_is_in_every_text_export(client: TestClient, ruleset: str,
                                                  lang: str, word: str) -> None:
    created = client.post("/api/v1/rosters", json={
        "name": "Notes", "ruleset": ruleset, "note": NOTE, "units": []})
    assert created.status_code == 201, created.text
    base = f"/api/v1/rosters/{created.json()['id']}/export"
    text = client.get(f"{base}.txt?lang={lang}").text
    assert f"{word}: Play *after* [b]dusk[/b] with the river" in text
    markdown = client.get(f"{base}.md?lang={lang}").text
    assert f"- **{word}:** Play \\*after\\* \\[b\\]dusk\\[\\/b\\] with the river" in markdown
    bbcode = client.get(f"{base}.bbcode?lang={lang}").text
    assert f"[i]{word}: Play *after* ［b］dusk［/b］ with the river[/i]" in bbcode
