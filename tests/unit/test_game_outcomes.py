"""What a test does to the unit that rolled it, where the seeds say: Table 17's failed move
or attack stands the peasants still, a failed defence routs them; Line and Square's failed
order test halts the unit for the turn; a morale roll against the total the player's morale
table needs (given once, kept) holds or falls back, and religious orders never give way."""

from __future__ import annotations

from typing import Any

from app.systems.chainmail.roster import ChainmailRoster
from app.systems.game import next_turn, replay, roll_test, setup_of
from tests.unit.test_game_rolls import chainmail, dice, line_and_square


def test_peasants_who_fail_to_defend_rout_and_who_fail_to_move_stand_for_the_turn() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    [held] = roll_test(setup, game, 2, {"test": "move"}, dice(1, 2))
    assert (held["result"], held["outcome"], game.sides[0].units[2].state) == (
        "fail", "halted", "halted")
    next_turn(setup, game, dice(3))
    assert game.sides[0].units[2].state == "steady"  # a halt lasts its turn
    [fled] = roll_test(setup, game, 2, {"test": "defend", "enemy": "heavy_horse"}, dice(2, 3))
    assert fled["outcome"] == "routs"
    next_turn(setup, game, dice(3))
    assert game.sides[0].units[2].state == "routs"  # a rout does not end with the turn
    [stood] = roll_test(setup, game, 2, {"test": "move"}, dice(4, 4))
    assert (stood["result"], stood["outcome"], game.sides[0].units[2].state) == (
        "pass", None, "steady")


def test_a_failed_order_test_halts_the_unit_this_turn() -> None:
    setup = line_and_square()
    game = replay(setup, [])
    [failed] = roll_test(setup, game, 0, {"test": "order"}, dice(1, 1))
    assert (failed["result"], failed["outcome"]) == ("fail", "halted")
    assert replay(setup, [failed]).sides[0].units[0].state == "halted"


def _morale(setup: dict[str, Any], game: Any, unit: int, faces: tuple[int, int],
            **ask: Any) -> list[dict[str, Any]]:
    return roll_test(setup, game, unit, {"test": "morale", **ask}, dice(*faces))


def test_the_needed_total_is_given_once_and_decides_every_roll_after() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    [rolled] = _morale(setup, game, 1, (3, 4))
    assert (rolled["result"], rolled["needed"], rolled["outcome"]) == ("rolled", None, None)
    kept, fell = _morale(setup, game, 1, (2, 3), needed=8)
    assert (kept["kind"], kept["needed"]) == ("needed", 8)
    assert (fell["total"], fell["result"], fell["outcome"]) == (5, "fail", "falls_back")
    assert game.sides[0].units[1].state == "falls_back"
    [held] = _morale(setup, game, 1, (4, 4))  # no total sent: the kept one
    assert (held["needed"], held["result"], held["outcome"]) == (8, "pass", None)
    log = [rolled, kept, fell, held]
    assert replay(setup, log).sides[0].units[1].needed == 8


def test_religious_orders_never_give_way() -> None:
    setup = setup_of(ChainmailRoster.model_validate({
        "name": "Орден", "ruleset": "chainmail", "units": [
            {"name": "Тамплиеры", "flags": ["religious_order"],
             "lines": [{"troop": "heavy_horse", "figures": 6}]}]}), "off")
    game = replay(setup, [])
    _, failed = _morale(setup, game, 0, (1, 2), needed=9)
    assert (failed["total"], failed["result"], failed["outcome"]) == (4, "fail", None)
    assert game.sides[0].units[0].state == "steady"
