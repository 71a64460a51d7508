"""How troops stand in a nation's army before they are added: Table 18's words for the Far
East, a national "no X" rule elsewhere; and every nation's presets keep its own rules."""

from __future__ import annotations

import pytest

from app.domain.base import Severity
from app.domain.chainmail import validate
from app.domain.chainmail.catalogue import NATIONS, PRESETS
from app.domain.chainmail.nations import NATIONAL_RULES, NoneRule
from app.domain.chainmail.roster import ChainmailRoster
from app.domain.chainmail.standing import presets_for, standing
from tests.unit.rule_cases import army, line, unit


@pytest.mark.parametrize(("nation", "troop", "weapon", "expected"), [
    ("japan", "light_foot", "bow", "no"),  # archers: Japan "Нет"
    ("japan", "light_foot", "longbow", "yes"),  # longbowmen: "Есть**"
    ("japan", "light_foot", "arquebus", "some"),
    ("japan", "heavy_foot", "polearm", "possible"),
    ("japan", "militia", "polearm", "possible"),  # militia are heavy foot (§6)
    ("japan", "light_horse", "none", "no"),
    ("china", "light_foot", "crossbow", "yes"),
    ("china", "heavy_horse", "lance", "unlisted"),
    ("korea", "light_foot", "crossbow", "some"),
    ("mongols", "light_foot", "bow", "excluded"),  # all horse, no foot
    ("mongols", "heavy_horse", "lance", "excluded"),
    ("mongols", "light_horse", "bow", "yes"),
    ("magyars", "peasant", "none", "yes"),  # peasants are light foot
    ("magyars", "militia", "none", "excluded"),  # militia are heavy foot
    ("poles", "armored_foot", "none", "discouraged"),  # a warning rule, not an error
    ("poles", "medium_horse", "javelins", "excluded"),  # poles.other_horse
    ("scots", "light_foot", "bow", "excluded"),
    ("scots", "light_foot", "pike", "yes"),
    ("generic", "heavy_horse", "lance", "yes"),
])
def test_a_line_stands_as_the_nations_rules_say(nation: str, troop: str, weapon: str,
                                                 expected: str) -> None:
    assert standing(nation, troop, weapon) == expected


@pytest.mark.parametrize("nation", [n for n in NATIONS if n != "generic"])
def test_a_nations_own_presets_come_first_and_break_none_of_its_exclusions(nation: str) -> None:
    offered = presets_for(nation)
    own = [p for p in offered if nation in p.nations]
    assert own and offered[:len(own)] == own
    for preset in own:
        doc = army(nation, unit(line(preset.troop, preset.figures, preset.weapon),
                                flags=preset.flags))
        excluded = {rule.code for rule in NATIONAL_RULES.get(nation, ())
                    if isinstance(rule, NoneRule) and rule.severity is Severity.error}
        excluded.add(f"{nation}.forbidden")
        found = {i.code for i in validate(ChainmailRoster.model_validate(doc))}
        assert not found & excluded, (preset.id, found & excluded)


def test_presets_of_the_national_notes_are_named_from_the_seed() -> None:
    assert PRESETS["chinese_chu_ko_nu"].weapon == "crossbow"
    assert PRESETS["scottish_schiltron"].weapon == "pike"
    assert PRESETS["japanese_samurai"].flags == ("samurai",)
    assert "Чо-ко-ну".lower() in PRESETS["chinese_chu_ko_nu"].name("ru").lower()
