"""How troops stand in a nation's army before they are added: Table 18's words for the Far
East, a national "no X" rule elsewhere, a troop as its best line with the weapons that give it;
and every nation's presets keep its own rules."""

from __future__ import annotations

import pytest

from app.domain.base import Severity
from app.systems.chainmail import validate
from app.systems.chainmail.catalogue import NATIONS, PRESETS, TROOPS, WEAPONS
from app.systems.chainmail.far_east import AVAILABILITY
from app.systems.chainmail.nations import NATIONAL_RULES, NoneRule, ShareRule
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.chainmail.standing import TroopStanding, presets_for, standing, troop_standing
from app.systems.chainmail.tally import Key
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


# A troop's own standing: its best line over the weapons it may carry, with the condition.

def armed(troop: str) -> list[str]:
    return [w for w, arms in WEAPONS.items() if TROOPS[troop].troop_class in arms.allowed_on]


@pytest.mark.parametrize(("nation", "troop", "expected", "only"), [
    # «три четверти … Средняя Конница, вооружённая кавалерийскими копьями»: the troop the Poles
    # need most fits with a lance, whatever the new line carries yet.
    ("poles", "medium_horse", "yes", ("lance",)),
    ("poles", "light_horse", "yes", ()),  # "Оставшаяся часть - Лёгкая": any arms
    ("poles", "heavy_horse", "excluded", ()),
    ("poles", "armored_foot", "discouraged", ()),  # a warning rule: not usual, any arms
    ("scots", "light_foot", "yes", ("pike",)),
    ("mongols", "light_foot", "excluded", ()),  # no weapon makes foot Mongol
    ("mongols", "medium_horse", "yes", ("lance",)),  # mongols.other_horse
    ("mongols", "light_horse", "yes", ("bow", "composite_bow", "lance")),
    ("generic", "heavy_horse", "yes", ()),
])
def test_a_troop_stands_as_its_best_line_and_says_which_weapons_give_it(
        nation: str, troop: str, expected: str, only: tuple[str, ...]) -> None:
    assert troop_standing(nation, troop) == TroopStanding(expected, only)  # type: ignore[arg-type]
    # The line's weapon now does not change it: a lancer's troop list reads the same.
    assert troop_standing(nation, troop, "javelins") == troop_standing(nation, troop)


@pytest.mark.parametrize(("weapon", "expected"), [
    ("lance", "yes"),  # the edge: the one weapon poles.other_horse lets medium horse carry
    ("none", "excluded"), ("javelins", "excluded"), ("bow", "excluded"),
])
def test_a_weapon_stands_as_the_chosen_troops_line_with_it(weapon: str, expected: str) -> None:
    assert standing("poles", "medium_horse", weapon) == expected
    assert standing("poles", "light_horse", weapon) == "yes"  # another troop, another answer


def test_table_18_judges_the_troop_with_the_lines_weapon_as_before() -> None:
    # Japan's archers are "Нет", its longbowmen "Есть": the line's weapon decides the row.
    assert troop_standing("japan", "light_foot", "bow") == TroopStanding("no")
    assert troop_standing("japan", "light_foot", "longbow") == TroopStanding("yes")
    assert troop_standing("japan", "light_horse", "lance") == TroopStanding("no")
    for nation in AVAILABILITY:
        for troop in TROOPS:
            for weapon in armed(troop):
                assert troop_standing(nation, troop, weapon).only == ()
                assert troop_standing(nation, troop, weapon).standing == \
                    standing(nation, troop, weapon)


@pytest.mark.parametrize(("only", "en", "ru"), [
    (("lance",), "only with a lance", "только с копьями"),
    (("bow", "composite_bow"), "only with a bow or a composite bow",
     "только с луками или композитными луками"),
    (("bow", "composite_bow", "lance"), "only with a bow, a composite bow or a lance",
     "только с луками, композитными луками или копьями"),
    (("none",), "only without a weapon", "только без оружия"),
    (("none", "lance"), "only with a lance or without a weapon",
     "только с копьями или без оружия"),
])
def test_the_condition_names_the_weapons_in_both_languages(
        only: tuple[str, ...], en: str, ru: str) -> None:
    assert TroopStanding("yes", only).text("en") == en
    assert TroopStanding("yes", only).text("ru") == ru


def test_a_troop_kept_out_says_so_and_a_plain_yes_says_nothing() -> None:
    assert TroopStanding("yes").text("ru") == ""
    assert TroopStanding("excluded").text("ru") == "не в этой армии"
    assert TroopStanding("discouraged", ("pike",)).text("en") == \
        "not usual in this army, only with a pike"


def required(nation: str) -> list[tuple[ShareRule, set[Key]]]:
    """Each share the nation's rules say exists (its band starts above 0), with the lines of
    the catalogue it counts."""
    found = []
    for rule in NATIONAL_RULES.get(nation, ()):
        if isinstance(rule, ShareRule) and rule.band.lo > 0:
            keys = {(troop, weapon, knights) for troop in TROOPS for weapon in armed(troop)
                    for knights in (False, True) if rule.counted.matches((troop, weapon, knights))}
            found.append((rule, keys))
    return found


@pytest.mark.parametrize("nation", list(NATIONS))
def test_no_troop_a_nations_rules_require_is_out_of_its_army(nation: str) -> None:
    for rule, keys in required(nation):
        # The share can be met: some line it counts stands in the army without a word.
        assert any(standing(nation, *key) == "yes" for key in keys), rule.code
        for troop in {key[0] for key in keys}:
            for knights in (False, True):
                counted = {w for t, w, k in keys if t == troop and k == knights}
                if not counted:
                    continue
                stands = troop_standing(nation, troop, "none", knights)
                if all(t == troop for t, _, _ in keys):  # the rule asks for this troop
                    assert stands.standing == "yes", (rule.code, troop, stands)
                    assert not stands.only or set(stands.only) & counted, (rule.code, stands)
                    assert "not in this army" not in stands.text("en")
                    assert "не в этой армии" not in stands.text("ru")


@pytest.mark.parametrize("nation", [n for n in NATIONS if n not in AVAILABILITY])
def test_every_troops_standing_is_its_best_weapons_from_the_rules_data(nation: str) -> None:
    rules = [r for r in NATIONAL_RULES.get(nation, ()) if isinstance(r, NoneRule)]
    for troop in TROOPS:
        for knights in (False, True):
            each = {}
            for weapon in armed(troop):
                hit = {r.severity for r in rules if r.excluded.matches((troop, weapon, knights))}
                each[weapon] = "excluded" if Severity.error in hit else \
                    "discouraged" if hit else "yes"
                assert standing(nation, troop, weapon, knights) == each[weapon]
            best = "yes" if "yes" in each.values() else \
                "discouraged" if "discouraged" in each.values() else "excluded"
            only = tuple(w for w in each if each[w] == best)
            expected = TroopStanding(best, () if len(only) == len(each) else only)  # type: ignore[arg-type]
            assert troop_standing(nation, troop, "none", knights) == expected


def test_the_steppe_rule_of_lancers_and_horse_archers_is_said_on_the_troop_list() -> None:
    # "все остальные – Лёгкая Конница с луками" (mongols.other_horse), read from the rules'
    # data: a horseman is a medium lancer, a light lancer or a light horse archer.
    assert troop_standing("mongols", "medium_horse").text("en") == "only with a lance"
    assert troop_standing("mongols", "light_horse").text("ru") == \
        "только с луками, композитными луками или копьями"
    assert standing("mongols", "light_horse", "javelins") == "excluded"
    assert standing("mongols", "light_horse", "composite_bow") == "yes"
