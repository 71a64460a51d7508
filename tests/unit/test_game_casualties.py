"""Casualties in a game: the army's thresholds (Chainmail: a third of its figures, rounded up;
Line and Square: strength below ⌈S/2⌉ and ⌈S/4⌉ points), logged the moment they are crossed,
and undo as a new entry."""

from __future__ import annotations

import pytest

from app.systems.game import GameRefused, casualty, replay, undo
from tests.unit.test_game_rolls import chainmail, line_and_square


def test_the_chainmail_army_tests_morale_once_a_third_of_its_figures_are_lost() -> None:
    setup = chainmail("off")  # 6 + 12 + 20 = 38 figures: a third is 12.67, so 13 lost
    game = replay(setup, [])
    assert game.sides[0].thresholds()["morale_at"] == 13
    log = []
    for _ in range(12):
        log += casualty(setup, game, 2, 1)
    assert game.sides[0].army_state == "steady" and not [e for e in log if e["kind"] == "threshold"]
    crossing = casualty(setup, game, 2, 1)
    assert [(e["kind"], e["unit"], e.get("result")) for e in crossing] == [
        ("casualty", 2, None), ("threshold", None, "morale_check")]
    log += crossing
    back = undo(game, log)
    assert [(e["kind"], e.get("of"), e.get("result")) for e in back] == [
        ("undo", crossing[0]["seq"], None), ("threshold", None, "steady")]
    log += back
    assert replay(setup, log).sides[0].lost == 12


def test_a_unit_that_loses_every_figure_is_destroyed_and_logged() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    log = []
    for _ in range(6):
        log += casualty(setup, game, 0, 1)
    assert ("threshold", 0, "destroyed") in [(e["kind"], e["unit"], e.get("result"))
                                            for e in log]
    with pytest.raises(GameRefused) as refused:
        casualty(setup, game, 0, 1)
    assert refused.value.field == "change"


def test_line_and_square_strength_falls_with_figures_against_its_break_points() -> None:
    setup = line_and_square()  # 10 + 20 = 30 points: morale below 15, flight below 7.5
    game = replay(setup, [])
    thresholds = game.sides[0].thresholds()
    assert (thresholds["morale_below"], thresholds["flight_below"]) == (15, 7.5)
    log = []
    for _ in range(4):  # 4 of the cavalry's 6 figures (20 points): 16.67 left
        log += casualty(setup, game, 1, 1)
    assert game.sides[0].army_state == "steady" and game.sides[0].thresholds()["strength"] == 16.667
    log += casualty(setup, game, 1, 1)  # 13.33 left: below 15
    assert log[-1]["result"] == "morale_test"
    log += casualty(setup, game, 1, 1)  # cavalry gone: 10 left
    for _ in range(3):
        log += casualty(setup, game, 0, 1)  # 12 figures of 10 points: 7.5 left
    # Exactly a quarter left is not below it ("падает ниже"): no flight yet.
    assert game.sides[0].army_state == "morale_test"
    log += casualty(setup, game, 0, 1)  # 6.67 left: below 7.5
    assert game.sides[0].army_state == "flight" and log[-1]["result"] == "flight"
    assert replay(setup, log).sides[0].thresholds() == game.sides[0].thresholds()


def test_undo_walks_back_one_change_at_a_time_and_then_refuses() -> None:
    setup = chainmail("off")
    game = replay(setup, [])
    log = casualty(setup, game, 1, 1)
    log += casualty(setup, game, 1, 1)
    log += undo(game, log)
    log += undo(game, log)
    assert game.sides[0].units[1].lost == 0
    with pytest.raises(GameRefused) as refused:
        undo(game, log)
    assert refused.value.conflict
