"""Units told apart by name: a preset's unit added twice, or a unit duplicated, gets a name no
other unit has; a suggestion's change names its unit by place and name, and says what goes
without "(the line)"."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.web.test_pages import create_army, document, edit, unit_form
from tests.web.test_roster_edits_api import create


def names(client: TestClient, roster_id: str) -> list[str]:
    return [unit["name"] for unit in document(client, roster_id)["units"]]


def test_a_preset_added_twice_and_a_duplicate_get_names_no_other_unit_has(
        client: TestClient) -> None:
    roster_id = create_army(client, nation="mongols")
    for _ in range(2):
        edit(client, roster_id, op="add_unit", preset="steppe_horse_archers")
    assert names(client, roster_id) == ["Horse archers (light horse with bows)",
                                        "Horse archers (light horse with bows) 2"]
    first = document(client, roster_id)["units"][0]["id"]
    edit(client, roster_id, action="duplicate", unit=first, op="update_unit")
    assert names(client, roster_id)[1] == "Horse archers (light horse with bows) 3"
    russian = create_army(client, nation="mongols")
    for _ in range(2):
        edit(client, russian, op="add_unit", preset="steppe_light_lancers", lang="ru")
    assert len(set(names(client, russian))) == 2


def test_each_change_of_a_suggestion_names_its_unit_and_says_what_goes(
        client: TestClient) -> None:
    # Two units of one name (as an older list may have): the card names each by its place.
    twins = create(client, {
        "name": "Поляки", "ruleset": "chainmail", "nation": "poles", "units": [
            {"name": "Lancers", "flags": ["commander"],
             "lines": [{"troop": "medium_horse", "figures": 15, "weapon": "lance"}]},
            {"name": "Light horse with crossbows",
             "lines": [{"troop": "light_horse", "figures": 1, "weapon": "crossbow"}]},
            {"name": "Light horse with crossbows",
             "lines": [{"troop": "light_horse", "figures": 2, "weapon": "crossbow"}]},
            {"name": "Light horse",
             "lines": [{"troop": "light_horse", "figures": 5, "weapon": "javelins"}]}],
        "engines": []})
    client.get(twins["edit_url"])
    page = client.get(f"/r/{twins['id']}/edit?suggest=1").text
    changes = re.findall(r"<li>(.*?)</li>", page.split('class="changes"', 1)[1].split("</ul>")[0],
                         re.S)
    assert changes and all(re.search(r"Unit \d+ “", change) for change in changes), changes
    # A unit of nine heavy foot in an all-horse army goes: said so, not "(the line)".
    roster_id = create_army(client, nation="mongols", limit="300")
    for preset in ("steppe_horse_archers", "steppe_medium_lancers", "steppe_light_lancers",
                   "heavy_foot_polearms"):
        edit(client, roster_id, op="add_unit", preset=preset)
    edit(client, roster_id, op="update_unit", **unit_form(
        client, roster_id, 3, unit_name="", figures_0="9", troop_0="heavy_foot",
        weapon_0="polearm"))
    page = client.get(f"/r/{roster_id}/edit?suggest=1").text
    assert "Unit 4</a>, Heavy Foot, Polearm: 9 → 0 (the unit goes)" in page
    assert "(the line)" not in page
    russian = client.get(f"/r/{roster_id}/edit?suggest=1&lang=ru").text
    assert "9 → 0 (отряд убирается)" in russian
