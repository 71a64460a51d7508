"""The game companion's rolls against the seeds: Table 16 (mercenaries), Table 17 (peasants),
Table 20 (weather, every even turn), Line and Square's order test, and the log they make."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from app.systems.chainmail import game as table17
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.game import (
    GameRefused,
    next_turn,
    replay,
    roll_test,
    secure,
    setup_of,
    start,
    tables,
)
from app.systems.line_and_square.roster import LineAndSquareRoster


def dice(*faces: int) -> Any:
    """A roller that shows these faces in order, and fails the test if asked for more."""
    it: Iterator[int] = iter(faces)
    return lambda sides: next(it)


def chainmail(weather: str = "clear") -> dict[str, Any]:
    return setup_of(ChainmailRoster.model_validate({
        "name": "Войско", "ruleset": "chainmail", "units": [
            {"name": "Рыцари", "lines": [{"troop": "heavy_horse", "figures": 6}]},
            {"name": "Швейцарцы", "mercenary": True,
             "lines": [{"troop": "heavy_foot", "figures": 12, "weapon": "pike"}]},
            {"name": "Мужики", "lines": [{"troop": "peasant", "figures": 20}]}]}), weather)


def line_and_square() -> dict[str, Any]:
    return setup_of(LineAndSquareRoster.model_validate({
        "name": "Бригада", "ruleset": "line_and_square", "units": [
            {"class": "line_infantry", "figures": 12, "speed": 6, "points": 10, "discipline": 1,
             "formation": "close_order"},
            {"class": "light_cavalry", "figures": 6, "speed": 12, "points": 20}]}))


@pytest.mark.parametrize(("first", "second", "result"), [
    (1, None, "idle"), (2, None, "obey"), (5, None, "obey"), (6, 1, "pay_more"),
    (6, 2, "march_home"), (6, 3, "bribed"), (6, 4, "obey_3"), (6, 6, "obey_3")])
def test_table_16_reads_as_the_seed(first: int, second: int | None, result: str) -> None:
    assert tables.mercenary(first, second) == result


def test_table_17_targets_are_the_seeds() -> None:
    assert table17.peasant_target("move", None) == 7
    assert [table17.peasant_target("attack", e) for e in table17.PEASANT_ENEMIES] == \
        [4, 6, 8, 9, 10, 11, 12]
    assert [table17.peasant_target("defend", e) for e in table17.PEASANT_ENEMIES] == \
        [5, 6, 7, 8, 9, 10, 11]
    assert table17.at_least(7) == table17.at_least(7).__class__(21, 36)


def test_each_turn_rolls_table_16_for_the_mercenaries_and_table_20_on_even_turns() -> None:
    setup = chainmail("clear")
    log = start(setup, dice())
    game = replay(setup, log)
    log += next_turn(setup, game, dice(3))        # turn 1: mercenaries obey, no weather
    log += next_turn(setup, game, dice(1, 6))     # turn 2: idle; weather 6 in clear → cloudy
    rolls = [(e["turn"], e["table"], e["dice"], e["result"]) for e in log if e["kind"] == "roll"]
    assert rolls == [(0, "20", [], "chosen"), (1, "16", [3], "obey"), (2, "16", [1], "idle"),
                     (2, "20", [6], "to_cloudy")]
    assert all(e["unit"] == 1 for e in log if e.get("table") == "16")
    assert replay(setup, log).weather.column == "cloudy"
    assert [e["seq"] for e in log] == list(range(1, len(log) + 1))


def test_a_six_then_four_to_six_obeys_this_turn_and_the_two_after_without_rolling() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    log = next_turn(setup, game, dice(6, 5))
    log += next_turn(setup, game, dice()) + next_turn(setup, game, dice())
    log += next_turn(setup, game, dice(2))
    merc = [(e["turn"], e["dice"], e["result"]) for e in log if e.get("table") == "16"]
    assert merc == [(1, [6, 5], "obey_3"), (2, [], "obey_remembered"),
                    (3, [], "obey_remembered"), (4, [2], "obey")]


def test_mercenaries_who_march_home_roll_no_more() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    log = next_turn(setup, game, dice(6, 2)) + next_turn(setup, game, dice())
    assert [e["kind"] for e in log] == ["turn", "roll", "turn"]
    assert game.sides[0].units[1].state == "march_home"


def test_the_starting_weather_is_rolled_as_the_seed_says() -> None:
    setup = chainmail("rolled")
    assert [replay(setup, start(setup, dice(d))).weather.column for d in range(1, 7)] == \
        ["clear"] * 3 + ["cloudy"] * 2 + ["rain"]


def test_two_downpours_in_a_row_make_mud() -> None:
    setup = chainmail("rain")
    game = replay(setup, start(setup, dice()))
    for turn_dice in ((3,), (3, 5), (3,), (3, 6)):
        next_turn(setup, game, dice(*turn_dice))
    assert game.weather.mud and game.weather.event == "downpour"


def test_peasants_test_by_enemy_and_others_may_not() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    [moved] = roll_test(setup, game, 2, {"test": "move"}, dice(3, 4))
    assert (moved["table"], moved["target"], moved["result"]) == ("17", 7, "pass")
    [attack] = roll_test(setup, game, 2, {"test": "attack", "enemy": "heavy_horse"}, dice(6, 5))
    assert (attack["target"], attack["result"]) == (12, "fail")
    [defence] = roll_test(setup, game, 2, {"test": "defend", "enemy": "peasant"}, dice(2, 3))
    assert (defence["target"], defence["result"]) == (5, "pass")
    with pytest.raises(GameRefused) as refused:
        roll_test(setup, game, 0, {"test": "move"}, dice(3, 4))
    assert refused.value.field == "unit"
    with pytest.raises(GameRefused) as refused:
        roll_test(setup, game, 2, {"test": "attack"}, dice(3, 4))
    assert refused.value.field == "enemy"


def test_the_order_test_counts_discipline_formation_officer_and_disorder() -> None:
    setup = line_and_square()
    game = replay(setup, [])
    # discipline 1, close order +1, officer +1, one marker −1: modifier 2; 2+2+2 = 6 passes.
    [order] = roll_test(setup, game, 0, {"test": "order", "officer": True, "disorder": 1},
                        dice(2, 2))
    assert (order["modifier"], order["result"]) == (2, "pass")
    assert order["chance"] == {"numerator": 11, "denominator": 12}  # 4+ on 2d6: 33 of 36
    [snake_eyes] = roll_test(setup, game, 0, {"test": "order", "disorder": 0}, dice(1, 1))
    assert snake_eyes["result"] == "fail"  # 1-1 always fails, whatever the modifier
    [boxcars] = roll_test(setup, game, 1, {"test": "order", "disorder": 10}, dice(6, 6))
    assert boxcars["result"] == "pass"


def test_chainmail_morale_adds_the_seeds_bonuses_and_shows_the_rating() -> None:
    setup = chainmail("off")
    setup["units"][0]["flags"] = ["religious_order"]
    [morale] = roll_test(setup, replay(setup, []), 0,
                         {"test": "morale", "commander_lost": True}, dice(4, 3))
    assert (morale["modifier"], morale["total"]) == (-1, 6)


def _chi_square(counts: Counter[Any], expected: dict[Any, float]) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


def test_the_secure_rolls_come_up_as_often_as_the_tables_say_over_many_turns() -> None:
    setup = chainmail("clear")
    log = start(setup, secure)
    game = replay(setup, log)
    for _ in range(900):
        log += next_turn(setup, game, secure)
        if game.turn >= 900:
            break
    firsts = Counter(e["dice"][0] for e in log if e.get("table") == "16" and e["dice"])
    n = sum(firsts.values())
    # 5 degrees of freedom: 20.5 is the 0.1 % point; a fair die fails this 1 time in 1000.
    assert _chi_square(firsts, {face: n / 6 for face in range(1, 7)}) < 20.5
    assert len([e for e in log if e.get("table") == "20"]) == 1 + 450
    seconds = Counter(e["dice"][1] for e in log if e.get("table") == "16" and len(e["dice"]) > 1)
    assert set(seconds) <= set(range(1, 7))
    assert all(e["turn"] % 2 == 0 for e in log if e.get("table") == "20" and e["turn"])


def test_the_log_only_grows_each_change_appends_and_rewrites_nothing() -> None:
    setup = chainmail("rolled")
    log = start(setup, secure)
    game = replay(setup, log)
    for _ in range(30):
        before = [dict(e) for e in log]
        log += next_turn(setup, game, secure)
        assert log[:len(before)] == before
    assert replay(setup, log).turn == 30
