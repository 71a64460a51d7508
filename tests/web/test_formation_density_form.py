"""Formation Density's unit form offers only what the weapon table allows: each line's weapon
select the weapons of its class, the shield box only beside a one-handed weapon, the add form
only the allowed class and weapon pairs; a stored line that breaks the table keeps its value,
marked as a problem at its field, and is never changed behind the player's back."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

from tests.web.test_formation_density_pages import add, create, document, edit, unit_form

# The weapon table of the rules page §1, written out: the form must offer exactly these.
WEAPONS_OF = {
    "shock_troops": ["pike", "spear", "halberd", "short_spear"],
    "melee_specialists": ["short_spear", "axe", "heavy_throwing", "sword", "improvised"],
    "shooters": ["short_spear", "axe", "heavy_throwing", "sword", "improvised"],
    "shock_cavalry": ["cavalry_lance"],
}
TWO_HANDED = {"pike", "halberd", "axe"}


def select(page: str, ident: str) -> str:
    found = re.search(rf'<select id="{ident}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select {ident}"
    return found.group(0)


def values(select_html: str) -> list[str]:
    return re.findall(r'<option value="([^"]+)"', select_html)


def box(page: str, ident: str) -> str:
    found = re.search(rf'<input id="{ident}"[^>]*>', page)
    assert found, f"no box {ident}"
    return found.group(0)


def one_line(client: TestClient, kind: str, weapon: str, **flags: str) -> tuple[str, str]:
    """A roster whose one unit has one line of `kind` with `weapon`; its id and its editor."""
    roster_id = create(client)
    add(client, roster_id, **{"class": kind}, weapon=weapon, armour="", **flags)
    return roster_id, client.get(f"/r/{roster_id}/edit").text


@pytest.mark.parametrize("kind", list(WEAPONS_OF))
def test_a_lines_weapon_select_offers_exactly_the_weapons_of_its_class(
        client: TestClient, kind: str) -> None:
    _, page = one_line(client, kind, WEAPONS_OF[kind][-1])
    weapons = select(page, "u1-l1-weapon")
    assert values(weapons) == WEAPONS_OF[kind]
    assert f'value="{WEAPONS_OF[kind][-1]}" selected' in weapons
    assert "aria-invalid" not in weapons and "u1-l1-weapon-problem" not in page
    # Every class stays offered: the class decides the weapons, not the other way round.
    assert values(select(page, "u1-l1-class")) == list(WEAPONS_OF)


def test_a_class_change_that_leaves_the_weapon_outside_its_class_keeps_it_as_a_problem(
        client: TestClient) -> None:
    """Without a script: the class is changed and saved; the weapon is not silently changed,
    its select offers the new class's weapons and says what is wrong, naming the field."""
    roster_id, _ = one_line(client, "shock_troops", "spear")
    answer = edit(client, roster_id, **unit_form(document(client, roster_id), 0,
                                                 class_0="melee_specialists"))
    assert answer.status_code == 303
    line = document(client, roster_id)["units"][0]["lines"][0]
    assert (line["class"], line["weapon"]) == ("melee_specialists", "spear")
    page = unescape(client.get(f"/r/{roster_id}/edit").text)
    weapons = select(page, "u1-l1-weapon")
    assert values(weapons) == [*WEAPONS_OF["melee_specialists"], "spear"]
    assert re.search(r'<option value="spear" selected>Spear — not for this class</option>',
                     weapons)
    assert 'aria-invalid="true" aria-describedby="u1-l1-weapon-problem"' in weapons
    assert ('id="u1-l1-weapon-problem">Weapon: Spear is not a weapon of Melee specialists; '
            'choose one of theirs or another class.') in page
    assert re.search(r'class="check-broken" data-code="unit.weapon_class"', page)
    # Choosing one of the class's weapons mends it.
    edit(client, roster_id, **unit_form(document(client, roster_id), 0, weapon_0="sword"))
    page = client.get(f"/r/{roster_id}/edit").text
    assert values(select(page, "u1-l1-weapon")) == WEAPONS_OF["melee_specialists"]
    assert "u1-l1-weapon-problem" not in page
    assert re.search(r'class="check-kept" data-code="unit.weapon_class"', page)


def test_with_htmx_the_changed_row_alone_comes_back_with_the_new_classs_weapons(
        client: TestClient) -> None:
    roster_id, _ = one_line(client, "melee_specialists", "short_spear")
    answer = edit(client, roster_id, htmx=True, **unit_form(document(client, roster_id), 0,
                                                             class_0="shock_troops"))
    assert answer.status_code == 200 and "HX-Retarget" not in answer.headers
    assert answer.text.lstrip().startswith('<li class="unit card" id="unit-u1">')
    assert 'id="u1-row" open' in answer.text  # the row being edited stays open
    # The short spear belongs to both: it stays, allowed, among the shock troops' weapons.
    weapons = select(answer.text, "u1-l1-weapon")
    assert values(weapons) == WEAPONS_OF["shock_troops"]
    assert 'value="short_spear" selected' in weapons and "aria-invalid" not in weapons
    # The rules panel comes out of band, judged anew.
    assert 'id="rules-panel"' in answer.text


@pytest.mark.parametrize("weapon", ["pike", "spear", "halberd", "short_spear", "axe",
                                    "heavy_throwing", "sword", "improvised", "cavalry_lance"])
def test_the_shield_box_is_offered_only_beside_a_one_handed_weapon(
        client: TestClient, weapon: str) -> None:
    kind = next(k for k, weapons in WEAPONS_OF.items() if weapon in weapons)
    _, page = one_line(client, kind, weapon)
    shield = box(page, "u1-l1-shield")
    assert ("disabled" in shield) == (weapon in TWO_HANDED)
    assert "checked" not in shield
    # The other boxes never depend on the weapon.
    assert "disabled" not in box(page, "u1-l1-armour")


def test_a_shield_stored_with_a_two_handed_weapon_stays_ticked_and_says_why(
        client: TestClient) -> None:
    roster_id, page = one_line(client, "shock_troops", "halberd", shield="on")
    page = unescape(page)
    shield = box(page, "u1-l1-shield")
    # Ticked and free to untick: a disabled box would not be sent, and the shield would go.
    assert "checked" in shield and "disabled" not in shield
    assert 'aria-invalid="true" aria-describedby="u1-l1-shield-problem"' in shield
    assert ('id="u1-l1-shield-problem">Shield: Halberd is two-handed and leaves no hand for a '
            'shield; remove the shield or choose another weapon.') in page
    # Saving the form as it stands keeps the shield (nothing changed behind the player).
    edit(client, roster_id, **unit_form(document(client, roster_id), 0, unit_note="x"))
    assert document(client, roster_id)["units"][0]["lines"][0]["shield"] is True
    edit(client, roster_id, **unit_form(document(client, roster_id), 0, weapon_0="spear"))
    page = client.get(f"/r/{roster_id}/edit").text
    assert "u1-l1-shield-problem" not in page and "disabled" not in box(page, "u1-l1-shield")


def test_the_add_form_offers_only_the_allowed_class_and_weapon_pairs(client: TestClient) -> None:
    roster_id = create(client)
    page = client.get(f"/r/{roster_id}/edit").text
    kits = select(page, "add-kit")
    assert values(kits) == [f"{k}:{w}" for k, weapons in WEAPONS_OF.items() for w in weapons]
    assert re.findall(r'<optgroup label="([^"]+)"', kits) == [
        "Shock troops", "Melee specialists", "Shooters", "Shock cavalry"]
    assert '<option value="shock_troops:spear" selected>Shock troops: Spear</option>' in kits
    assert 'id="add-class"' not in page and 'id="add-weapon"' not in page
    answer = edit(client, roster_id, op="add_unit", unit_name="Мечники", density="3",
                  files="10", count="20", kit="shooters:sword", shield="on")
    assert answer.status_code == 303
    line = document(client, roster_id)["units"][0]["lines"][0]
    assert (line["class"], line["weapon"], line["shield"]) == ("shooters", "sword", True)


@pytest.mark.parametrize("kit", ["shock_troops:sword", "shock_cavalry:spear", "shock_troops",
                                 "pike", "shock_troops:pike:x"])
def test_a_pair_the_table_does_not_allow_is_refused_naming_the_field(
        client: TestClient, kit: str) -> None:
    roster_id = create(client)
    answer = edit(client, roster_id, op="add_unit", density="3", files="10", count="20",
                  kit=kit)
    assert answer.status_code == 422
    assert "Class and weapon: not one of the choices" in unescape(answer.text)
    assert document(client, roster_id)["units"] == []


def test_the_form_says_its_problems_in_russian(client: TestClient) -> None:
    roster_id, _ = one_line(client, "shock_troops", "pike", shield="on")
    edit(client, roster_id, **unit_form(document(client, roster_id), 0, class_0="shooters",
                                        weapon_0="pike"))
    client.get("/lang/ru")
    page = unescape(client.get(f"/r/{roster_id}/edit").text)
    assert "Пики — не для этого рода войск" in page
    assert "Оружие: Пики не даётся роду войск «Стрелки»; выберите другое оружие" in page
    assert "Щит: Пики — двуручное оружие" in page
    assert '<optgroup label="Ударные войска">' in page and "Стрелки: Меч" in page
