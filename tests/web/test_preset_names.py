"""Every preset of every rule system is named in the page's language: the editor's preset
select is walked for each army a preset can be offered to, in English and in Russian, and
each name is compared with the rule system's catalogue.

Only Chainmail has presets (per nation and generic); Line and Square and Formation Density
have none, in their catalogues and in their editors, and the walk checks that too, so a preset
added to either later is checked the same way."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from app.systems import SYSTEMS, get_system

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN = re.compile(r"[A-Za-z]")


def offered(client: TestClient, document: dict[str, object], lang: str) -> dict[str, str]:
    """The add form's presets, by id, as a new roster of `document` shows them in `lang`."""
    made = client.post("/api/v1/rosters", json=document)
    assert made.status_code == 201, made.text
    client.get(made.json()["edit_url"])  # this browser may edit it now
    client.get(f"/lang/{lang}")
    page = client.get(f"/r/{made.json()['id']}/edit").text
    select = re.search(r'<select id="add-preset".*?</select>', page, re.S)
    if select is None:
        return {}
    return {value: unescape(label) for value, label in
            re.findall(r'<option value="([^"]+)"[^>]*>([^<]*)</option>', select.group(0))}


def armies(ruleset: str) -> list[dict[str, object]]:
    """An empty roster of `ruleset` for each army its presets may be offered to."""
    base: dict[str, object] = {"name": "Presets", "ruleset": ruleset, "units": []}
    if ruleset != "chainmail":
        return [base]
    nations = [n["id"] for n in get_system("chainmail").catalogue()["nations"]]  # type: ignore[union-attr]
    return [{**base, "nation": nation, "points_limit": 300, "engines": []} for nation in nations]


@pytest.mark.parametrize("ruleset", sorted(SYSTEMS))
def test_every_preset_is_named_in_the_pages_language(client: TestClient, ruleset: str) -> None:
    system = get_system(ruleset)
    assert system is not None
    presets = {p["id"]: p for p in system.catalogue().get("presets", [])}
    if ruleset == "chainmail":  # the nations' own and the generic ones
        assert len(presets) > 30 and "steppe_horse_archers" in presets
    for lang in ("en", "ru"):
        seen: dict[str, str] = {}
        for army in armies(ruleset):
            seen |= offered(client, army, lang)
        # Each preset is offered to some army (a generic one is offered to all).
        assert set(seen) == set(presets), lang
        for preset_id, label in seen.items():
            name = presets[preset_id][f"name_{lang}"]
            other = presets[preset_id]["name_ru" if lang == "en" else "name_en"]
            # The label is the name, then its figures, troop type and weapon.
            assert label.startswith(f"{name} ("), (lang, label)
            assert name != other, preset_id
            if lang == "ru":
                assert CYRILLIC.search(name), (preset_id, name)
                # No English word left in the Russian label (its standing may follow " — ").
                assert not LATIN.search(label.partition(" — ")[0]), (preset_id, label)
            else:
                assert not CYRILLIC.search(label), (preset_id, label)
