"""Tables 21–22 and the rams: the seed's numbers by hand, and the rams' chances against an
enumeration of every 2d6 throw, turn by turn."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product
from math import ceil

import pytest

from app.systems.chainmail import siege as sg
from app.systems.chainmail.siege_rules import mantlet_speed, tower_speed

THROWS = list(product(range(1, 7), repeat=2))
# Each ram's turn, counted from the 36 throws: (still working, how many throws give it).
RAM_TURN = ((True, sum(a + b < sg.DISABLE_AT for a, b in THROWS)),
            (False, sum(a + b >= sg.DISABLE_AT for a, b in THROWS)))


def test_hits_by_hand() -> None:
    assert sg.hits_to_destroy(40)["bombard"] == 7  # 6 × 7 = 42 ≥ 40
    assert sg.hits_to_destroy(10)["light_catapult"] == 5
    assert sg.hits_to_destroy(60) == {"bombard": 10, "heavy_field_gun": 15,
                                      "light_field_gun": 20, "heavy_catapult": 20,
                                      "light_catapult": 30}


def test_a_ram_is_disabled_on_nine_or_more() -> None:
    assert sg.DISABLE == F(10, 36) == F(5, 18)


def test_one_ram_on_a_six_point_target_by_hand() -> None:
    # Two, four and six points need one, two, three turns before the first 9+.
    keep, stop = F(13, 18), F(5, 18)
    assert sg.ram_damage(1, 6) == {0: stop, 2: keep * stop, 4: keep ** 2 * stop, 6: keep ** 3}
    falls, never = sg.turns_to_fall(6, 0, 1)
    assert falls == {3: keep ** 3} and never == 1 - keep ** 3


def _rams_by_throws(points: int, rams: int, battery: int) -> tuple[dict[int, F], dict[int, F],
                                                                   F]:
    """Walk every throw of every working ram, turn by turn: damage by rams, turn of the fall."""
    damage: dict[int, F] = {}
    falls: dict[int, F] = {}
    never = F(0)
    stack = [(F(1), 0, 0, rams, 0)]  # chance, done, by rams, working, turn
    while stack:
        p, done, by_rams, working, turn = stack.pop()
        for turns in product(RAM_TURN, repeat=working):
            q = p
            for _, count in turns:
                q = q * count / 36
            alive = sum(works for works, _ in turns)
            dealt = done + battery + 2 * alive
            rammed = by_rams + 2 * alive
            if dealt >= points:
                falls[turn + 1] = falls.get(turn + 1, F(0)) + q
                left = points - done - battery  # the rams' share of the last blow
                key = min(rammed, by_rams + max(left, 0)) if battery else min(rammed, points)
                damage[key] = damage.get(key, F(0)) + q
            elif alive == 0 and battery == 0:
                never += q
                damage[rammed] = damage.get(rammed, F(0)) + q
            else:
                stack.append((q, dealt, rammed, alive, turn + 1))
    return damage, falls, never


@pytest.mark.parametrize(("points", "rams"), [(3, 1), (5, 1), (6, 2), (8, 2), (5, 3)])
def test_rams_alone_agree_with_every_throw(points: int, rams: int) -> None:
    damage, falls, never = _rams_by_throws(points, rams, 0)
    assert sg.ram_damage(rams, points) == dict(sorted(damage.items()))
    assert sg.turns_to_fall(points, 0, rams) == (falls, never)


@pytest.mark.parametrize(("points", "rams", "battery"), [(10, 1, 2), (15, 2, 3), (9, 1, 6)])
def test_rams_and_battery_together_agree_with_every_throw(points: int, rams: int,
                                                          battery: int) -> None:
    _, falls, never = _rams_by_throws(points, rams, battery)
    got, got_never = sg.turns_to_fall(points, battery, rams)
    assert got == falls and got_never == never == 0
    assert max(got) == ceil(points / battery)  # the battery alone brings it down in time
    assert sum(got.values()) == 1


def test_no_rams_no_battery_never_falls() -> None:
    assert sg.turns_to_fall(40, 0, 0) == ({}, F(1))
    assert sg.ram_damage(0, 40) == {0: F(1)}


def test_movement_by_pushers() -> None:
    assert [tower_speed(n) for n in range(1, 11)] == [0, 1, 1, 2, 2, 3, 3, 4, 4, 4]
    assert [mantlet_speed(n) for n in range(1, 4)] == [3, 6, 6]


def test_points_outside_table_21_are_refused() -> None:
    with pytest.raises(ValueError, match="less than or equal to 15"):
        sg.SiegeRequest(structures=[{"kind": "palisade", "points": 20}])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="greater than or equal to 3"):
        sg.SiegeRequest(structures=[{"kind": "small_engine", "points": 2}])  # type: ignore[list-item]
