"""Rules round three (issue #54), in the rules packages: the commander's +1 on every die of
Table 17, the seed's other rolls in the game companion (the knights' discipline die, the
longbowmen's stakes, ladders pushed off, stones, a mercenary unit in melee), each exact over
every throw of its dice; a majority is more than half; the officer's own unit in reach."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from app.systems.chainmail import game as chainmail_game
from app.systems.chainmail.nations import NATIONAL_RULES
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.game import GameRefused, next_turn, replay, roll_test, setup_of
from app.systems.line_and_square import game as ls_game

FACES = range(1, 7)


def dice(*faces: int) -> Any:
    it: Iterator[int] = iter(faces)
    return lambda sides: next(it)


def unit(flags: list[str] | None = None, mercenary: bool = False,
         peasants: bool = False) -> dict[str, Any]:
    return {"name": "", "figures": 10, "mercenary": mercenary, "peasants": peasants,
            "flags": flags or [], "rating": None}


def roll(u: dict[str, Any], faces: tuple[int, ...], **ask: Any) -> dict[str, Any]:
    return chainmail_game.roll(u, ask, dice(*faces), lambda: None)


def fraction(found: dict[str, int]) -> Fraction:
    return Fraction(found["numerator"], found["denominator"])


def exact_over_every_throw(u: dict[str, Any], count: int, **ask: Any) -> None:
    """The chance each roll logs is the share of all throws that give its result."""
    outcomes: dict[Any, int] = defaultdict(int)
    rolls = []
    for throw in product(FACES, repeat=count):
        rolled = roll(u, throw, **ask)
        rolls.append(rolled)
        outcomes[rolled["result"]] += 1
    for rolled in rolls:
        assert fraction(rolled["chance"]) == Fraction(outcomes["pass"], 6 ** count)


# --- Finding 1: the commander's +1 on each die of Table 17 -----------------------------

@pytest.mark.parametrize(("flags", "ask", "test", "enemy", "chance"), [
    (["commander"], {}, "move", None, Fraction(5, 6)),  # 2d6+2 ≥ 7: the seed's 5/6
    ([], {}, "move", None, Fraction(7, 12)),  # no commander: 2d6 ≥ 7
    ([], {"near_commander": True}, "move", None, Fraction(5, 6)),  # within 12″ of him
    (["commander"], {}, "attack", "heavy_foot", Fraction(13, 18)),  # 2d6+2 ≥ 8
    ([], {}, "attack", "heavy_foot", Fraction(5, 12)),
    (["commander"], {"commander_lost": True}, "move", None, Fraction(7, 12)),
])
def test_table_17_adds_the_commanders_one_to_each_die_exactly_over_every_throw(
        flags: list[str], ask: dict[str, Any], test: str, enemy: str | None,
        chance: Fraction) -> None:
    peasants = unit(flags, peasants=True)
    body = {"test": test, "enemy": enemy, **ask}
    exact_over_every_throw(peasants, 2, **body)
    assert fraction(roll(peasants, (1, 1), **body)["chance"]) == chance


def test_table_17_passes_and_fails_at_the_exact_edge_with_the_commander() -> None:
    peasants = unit(["commander"], peasants=True)
    keeps = roll(peasants, (2, 3), test="move")  # 5 + 2 = 7: moves
    breaks = roll(peasants, (1, 3), test="move")  # 4 + 2 = 6: stands
    assert (keeps["result"], breaks["result"]) == ("pass", "fail")
    assert keeps["modifiers"] == [{"source": "commander", "value": 2}]
    plain = roll(unit(peasants=True), (2, 3), test="move")  # 5 without him: stands
    assert (plain["result"], plain["modifier"], plain["modifiers"]) == ("fail", 0, [])


def test_mercenary_peasants_gain_nothing_from_the_commander_on_table_17() -> None:
    rolled = roll(unit(mercenary=True, peasants=True), (2, 3), test="move",
                  near_commander=True)
    assert rolled["result"] == "fail" and rolled["modifier"] == 0
    assert rolled["modifiers"] == [{"source": "commander_mercenary", "value": 0}]


def test_the_page_gives_table_17_odds_with_and_without_the_commander() -> None:
    odds = chainmail_game.page_context({"units": []}, "en")["odds"]
    assert (odds["move"], odds["commander"]["move"]) == ("58%", "83%")
    heavy = odds["commander"]["peasants"]["heavy_foot"]
    assert (heavy["attack"], heavy["attack_chance"]) == (8, "72%")  # 13/18
    assert odds["peasants"]["heavy_foot"]["attack_chance"] == "42%"  # 5/12


# --- The seed's other rolls ---------------------------------------------------------------

@pytest.mark.parametrize(("flags", "ask", "holds_from"), [
    (["knights"], {}, 6), (["knights", "commander"], {}, 5),
    (["knights"], {"near_commander": True}, 5),
])
def test_knights_charge_whatever_the_orders_unless_the_discipline_die_holds(
        flags: list[str], ask: dict[str, Any], holds_from: int) -> None:
    knights = unit(flags)
    exact_over_every_throw(knights, 1, test="discipline", **ask)
    for face in FACES:
        rolled = roll(knights, (face,), test="discipline", **ask)
        assert rolled["result"] == ("pass" if face >= holds_from else "fail")
        assert chainmail_game.outcome(knights, rolled) == (
            None if face >= holds_from else "charges")


def test_only_knights_throw_the_discipline_die() -> None:
    with pytest.raises(GameRefused) as refused:
        roll(unit(), (6,), test="discipline")
    assert (refused.value.field, refused.value.code, refused.value.conflict) == (
        "unit", "not_knights", True)


def test_stakes_kill_on_four_to_six_and_the_chance_is_exact_over_every_throw() -> None:
    archers = unit(["stakes"])
    seen: dict[int, Fraction] = {}
    for throw in product(FACES, repeat=3):
        rolled = roll(archers, throw, test="stakes", front_rank=3)
        assert rolled["killed"] == sum(face >= 4 for face in throw)
        seen[rolled["killed"]] = fraction(rolled["chance"])
    assert seen == {0: Fraction(1, 8), 1: Fraction(3, 8), 2: Fraction(3, 8), 3: Fraction(1, 8)}
    assert roll(archers, (3,), test="stakes", front_rank=1)["killed"] == 0  # the edge
    assert roll(archers, (4,), test="stakes", front_rank=1)["killed"] == 1
    with pytest.raises(GameRefused):
        roll(unit(), (4,), test="stakes", front_rank=1)
    with pytest.raises(GameRefused) as refused:
        roll(archers, (), test="stakes", front_rank=0)
    assert refused.value.field == "front_rank"


@pytest.mark.parametrize(("flags", "pushed_from"), [([], 5), (["commander"], 4)])
def test_a_ladder_is_pushed_off_on_five_or_six_and_the_second_dies(
        flags: list[str], pushed_from: int) -> None:
    defenders = unit(flags)
    exact_over_every_throw(defenders, 1, test="ladder", climbers=3)
    for face in FACES:
        rolled = roll(defenders, (face,), test="ladder", climbers=3)
        pushed = face >= pushed_from
        assert rolled["result"] == ("pass" if pushed else "fail")
        assert (rolled["killed"], rolled["stunned"]) == ((1, 1) if pushed else (0, 0))
    alone = roll(defenders, (6,), test="ladder", climbers=1)
    assert (alone["killed"], alone["stunned"]) == (0, 0)


def test_stones_kill_the_first_and_spare_the_second_on_1_3_the_third_on_1_5() -> None:
    climbers = unit()
    chances: dict[tuple[int, ...], Fraction] = {}
    for throw in product(FACES, repeat=2):
        rolled = roll(climbers, throw, test="stones", climbers=3)
        expected = [place for place, face, most in ((2, throw[0], 3), (3, throw[1], 5))
                    if face <= most]
        assert rolled["survivors"] == expected and rolled["killed"] == 3 - len(expected)
        chances[tuple(expected)] = fraction(rolled["chance"])
    assert chances == {(2, 3): Fraction(5, 12), (2,): Fraction(1, 12), (3,): Fraction(5, 12),
                       (): Fraction(1, 12)}
    assert sum(chances.values()) == 1
    assert roll(climbers, (), test="stones", climbers=1)["killed"] == 1


def _mercenaries() -> dict[str, Any]:
    return setup_of(ChainmailRoster.model_validate({
        "name": "Войско", "ruleset": "chainmail", "units": [
            {"name": "Швейцарцы", "mercenary": True,
             "lines": [{"troop": "heavy_foot", "figures": 12, "weapon": "pike"}]},
            {"name": "Мужики", "lines": [{"troop": "peasant", "figures": 20}]}]}), "off")


def test_a_mercenary_unit_in_melee_skips_table_16_until_it_is_out() -> None:
    setup = _mercenaries()
    game = replay(setup, [])
    log = roll_test(setup, game, 0, {"test": "melee", "in_melee": True}, dice())
    log += next_turn(setup, game, dice())  # no die thrown: a 6 then 2 would march it home
    assert [(e["table"], e["dice"], e["result"]) for e in log if e["kind"] == "roll"] == [
        ("16", [], "in_melee")]
    assert game.sides[0].units[0].state == "in_melee"
    log += roll_test(setup, game, 0, {"test": "melee", "in_melee": False}, dice())
    log += next_turn(setup, game, dice(3))
    assert log[-1]["result"] == "obey" and log[-1]["dice"] == [3]
    assert replay(setup, log).sides[0].units[0].state == "steady"
    with pytest.raises(GameRefused) as refused:
        roll_test(setup, game, 1, {"test": "melee"}, dice())
    assert refused.value.code == "not_mercenary"


# --- Finding 5: a majority is more than half -----------------------------------------

def _rule(code: str) -> Any:
    return next(r for rules in NATIONAL_RULES.values() for r in rules if r.code == code)


@pytest.mark.parametrize(("code", "base", "broken", "kept"), [
    ("russians.polearms", 50, 25, 26),
    ("saracens.light_horse", 10, 5, 6),
    ("spanish.knights_medium", 4, 2, 3),
    ("poles.horse_main", 100, 50, 51),
])
def test_a_majority_is_more_than_half_exactly_half_is_not(code: str, base: int, broken: int,
                                                         kept: int) -> None:
    band = _rule(code).band
    assert not band.holds(broken, base) and band.holds(kept, base)


# --- Finding 4: the officer's own unit ----------------------------------------------------

def test_the_officers_own_unit_has_his_one_without_the_box() -> None:
    own = {"discipline": 0, "formation": "loose", "officer": True}
    other = {**own, "officer": False}
    # 2d6 + 1 ≥ 6: 2+3 passes with him, fails without.
    assert ls_game.roll(own, {"test": "order"}, dice(2, 3), lambda: None)["result"] == "pass"
    assert ls_game.roll(other, {"test": "order"}, dice(2, 3), lambda: None)["result"] == "fail"
    ticked = ls_game.roll(other, {"test": "order", "officer": True}, dice(2, 3), lambda: None)
    assert ticked["result"] == "pass"
    table = ls_game.page_context({"units": [own, other]}, "en")["odds"]["order_table"]
    assert len(table[0]) == 1 and len(table[1]) == 2
    assert table[0][0] == table[1][1]  # the own unit's one row is "with the officer"
