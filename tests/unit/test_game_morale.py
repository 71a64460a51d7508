"""The companion's morale roll with the commander's +1 to each die (seed «Главнокомандующий»:
«этот отряд будет получать бонус +1 к каждому брошенному кубику (1d6+1, 2d6+2 …)», any unit
within 12″ too, mercenaries never), and castle defenders, who make no check for a third lost
(the man-to-man section's «Мораль»: «Вообще, защитникам замка не нужно проверять мораль»)."""

from __future__ import annotations

from typing import Any

import pytest

from app.systems.chainmail.roster import ChainmailRoster
from app.systems.game import casualty, replay, roll_test, setup_of
from app.systems.game.summary import game_json
from tests.unit.test_game_rolls import dice


def army(castle_defenders: bool = False) -> dict[str, Any]:
    """0: the commander's knights; 1: loyal foot; 2: mercenaries; 3: a mercenary commander's
    unit (the builder warns of it, the game still plays it)."""
    return setup_of(ChainmailRoster.model_validate({
        "name": "Войско", "ruleset": "chainmail", "units": [
            {"name": "Рыцари", "flags": ["commander"],
             "lines": [{"troop": "heavy_horse", "figures": 6}]},
            {"name": "Пехота", "lines": [{"troop": "heavy_foot", "figures": 10}]},
            {"name": "Швейцарцы", "mercenary": True,
             "lines": [{"troop": "heavy_foot", "figures": 12, "weapon": "pike"}]},
            {"name": "Кондотьеры", "mercenary": True, "flags": ["commander"],
             "lines": [{"troop": "medium_horse", "figures": 2}]}]}), "off", castle_defenders)


def morale(setup: dict[str, Any], unit: int, **ask: Any) -> dict[str, Any]:
    [rolled] = roll_test(setup, replay(setup, []), unit, {"test": "morale", **ask}, dice(3, 4))
    return rolled


def test_the_commanders_own_unit_adds_one_to_each_die() -> None:
    rolled = morale(army(), 0)
    assert (rolled["dice"], rolled["modifier"], rolled["total"]) == ([3, 4], 2, 9)
    assert rolled["modifiers"] == [{"source": "commander", "value": 2}]
    # Marked as near him too, his own unit still has one bonus, not two.
    assert morale(army(), 0, near_commander=True)["total"] == 9


def test_a_unit_within_12_inches_of_the_commander_has_it_and_one_beyond_has_not() -> None:
    near = morale(army(), 1, near_commander=True)
    assert (near["modifier"], near["total"], near["near_commander"]) == (2, 9, True)
    assert near["modifiers"] == [{"source": "near_commander", "value": 2}]
    beyond = morale(army(), 1)
    assert (beyond["modifier"], beyond["total"], beyond["modifiers"]) == (0, 7, [])


@pytest.mark.parametrize(("unit", "near"), [(2, True), (3, False), (3, True)])
def test_mercenaries_gain_nothing_from_the_commander_and_are_told_so(unit: int,
                                                                     near: bool) -> None:
    rolled = morale(army(), unit, near_commander=near)
    assert (rolled["modifier"], rolled["total"]) == (0, 7)
    assert rolled["modifiers"] == [{"source": "commander_mercenary", "value": 0}]
    assert morale(army(), 2)["modifiers"] == []  # beyond 12″: nothing to say


def test_a_commander_killed_or_captured_gives_no_bonus_only_the_minus_two() -> None:
    for unit, near in ((0, False), (1, True)):
        rolled = morale(army(), unit, near_commander=near, commander_lost=True)
        assert (rolled["modifier"], rolled["total"]) == (-2, 5)
        assert rolled["modifiers"] == [{"source": "commander_lost", "value": -2}]


def test_the_seeds_other_bonuses_add_to_the_commanders_each_named() -> None:
    setup = army()
    setup["units"][0]["flags"] = ["commander", "religious_order"]
    rolled = morale(setup, 0)
    assert (rolled["modifier"], rolled["total"]) == (3, 10)
    assert [m["source"] for m in rolled["modifiers"]] == ["religious_order", "commander"]


def test_castle_defenders_make_no_check_for_a_third_of_the_army_lost() -> None:
    # 6 + 10 + 12 + 2 = 30 figures: a third is 10 lost.
    for defenders, at, state in ((False, 10, "morale_check"), (True, None, "steady")):
        setup = army(defenders)
        game, log = replay(setup, []), []
        for _ in range(9):
            log += casualty(setup, game, 2, 1)
        assert game.sides[0].army_state == "steady"
        log += casualty(setup, game, 2, 1)  # the tenth: the check, unless defenders
        assert (game.sides[0].thresholds()["morale_at"], game.sides[0].army_state) == (at, state)
        assert [e["result"] for e in log if e["kind"] == "threshold"] == (
            [] if defenders else ["morale_check"])
        assert game_json(setup, game)["castle_defenders"] is defenders
        assert replay(setup, log).sides[0].army_state == state


def test_a_setup_stored_before_castle_defenders_were_asked_is_not_defenders() -> None:
    setup = army()
    del setup["castle_defenders"]
    game = replay(setup, [])
    assert (game.sides[0].castle_defenders, game.sides[0].thresholds()["morale_at"]) == (False, 10)
