"""The melee calculator against cases worked out by hand, one rule of §4 at a time.

Deterministic hits come from pikes at density 1: shock troops there never hit (a roll below 1),
so 30 pikes in 10 files strike exactly 2 × 2 = 4 bonus hits — a clean way to test protection.
"""

from __future__ import annotations

import time
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.systems.formation_density import Unit, exchange, melee_json

CLASS_WEAPONS = [("shock_troops", "pike"), ("shock_troops", "spear"),
                 ("shock_troops", "halberd"), ("shock_troops", "short_spear"),
                 ("melee_specialists", "short_spear"), ("melee_specialists", "axe"),
                 ("melee_specialists", "heavy_throwing"), ("melee_specialists", "sword"),
                 ("melee_specialists", "improvised"), ("shooters", "improvised"),
                 ("shooters", "sword"), ("shock_cavalry", "cavalry_lance")]


def unit(density: int, files: int, *lines: dict[str, Any]) -> Unit:
    return Unit.model_validate({"density": density, "files": files, "lines": list(lines)})


def line(kind: str, weapon: str, count: int, **flags: bool) -> dict[str, Any]:
    return {"class": kind, "weapon": weapon, "count": count, **flags}


def dist(d: Any) -> dict[int, F]:
    return dict(d.fractions())


# A plain target: ten warriors in one rank, protected as asked.
def dummy(density: int = 3, count: int = 10, **flags: bool) -> Unit:
    return unit(density, count, line("shock_troops", "short_spear", count, **flags))


FOUR_HITS = unit(1, 10, line("shock_troops", "pike", 30))


# ---------------------------------------------------------------- who strikes, how often

def test_only_the_front_rank_strikes_one_die_per_warrior() -> None:
    # 30 melee specialists in 10 files at density 3: 10 dice hitting on 4–6, i.e. Bin(10, 1/2).
    a = unit(3, 10, line("melee_specialists", "improvised", 30))
    hits = exchange(a, dummy()).a.hits
    assert hits.mean() == 5
    assert hits.high == 10
    assert hits.probability(0) == F(1, 1024) and hits.probability(10) == F(1, 1024)
    assert hits.probability(5) == F(252, 1024)


def test_pikes_add_two_hits_per_full_rank_behind_the_first() -> None:
    # 30 pikes, 10 files, density 4: 10 dice at 1/2 plus 2 × 2 extra hits.
    hits = exchange(unit(4, 10, line("shock_troops", "pike", 30)), dummy()).a.hits
    assert hits.offset == 4 and hits.probability(4) == F(1, 1024)
    assert hits.mean() == 9 and hits.high == 14


def test_spears_add_one_hit_per_full_rank_and_a_partial_rank_adds_nothing() -> None:
    # 25 spears in 10 files: ranks 10, 10, 5 — one full rank behind the first.
    hits = exchange(unit(4, 10, line("shock_troops", "spear", 25)), dummy()).a.hits
    assert hits.offset == 1 and hits.mean() == 6


def test_a_rank_of_pikes_and_spears_adds_one_and_a_rank_of_swords_nothing() -> None:
    # Density 1: the front-rank pikes never hit, so only the bonus is left.
    mixed = unit(1, 10, line("shock_troops", "pike", 15), line("shock_troops", "spear", 5))
    assert dist(exchange(mixed, dummy()).a.hits) == {1: 1}
    swords = unit(1, 10, line("shock_troops", "pike", 10),
                  line("melee_specialists", "sword", 10))
    # The swords stand in the second rank: they neither strike nor make a pike rank.
    assert dist(exchange(swords, dummy()).a.hits) == {0: 1}


SHOCK = [F(0), F(1, 6), F(2, 6), F(3, 6), F(4, 6), F(5, 6)]  # below density 1…6
SPECIALIST = [F(5, 6), F(4, 6), F(3, 6), F(2, 6), F(1, 6), F(0)]  # above density 1…6


@pytest.mark.parametrize("density", range(1, 7))
def test_shock_troops_hit_below_their_own_density(density: int) -> None:
    a = unit(density, 1, line("shock_troops", "short_spear", 1))
    assert exchange(a, dummy(density=4)).a.hits.probability(1) == SHOCK[density - 1]


@pytest.mark.parametrize("kind", ["melee_specialists", "shooters"])
@pytest.mark.parametrize("density", range(1, 7))
def test_melee_specialists_and_shooters_hit_above_their_own_density(kind: str,
                                                                    density: int) -> None:
    a = unit(density, 1, line(kind, "improvised", 1))
    assert exchange(a, dummy(density=2)).a.hits.probability(1) == SPECIALIST[density - 1]


@pytest.mark.parametrize("enemy", range(1, 7))
def test_shock_cavalry_hit_above_the_enemys_density(enemy: int) -> None:
    a = unit(3, 1, line("shock_cavalry", "cavalry_lance", 1, mounted=True))
    assert exchange(a, dummy(density=enemy)).a.hits.probability(1) == SPECIALIST[enemy - 1]


# ---------------------------------------------------------------- protection

def test_the_shield_wall_blocks_as_many_hits_as_a_roll_below_the_density() -> None:
    # 4 hits, density 4: rolls 1, 2, 3 block 1, 2, 3; rolls 4–6 block nothing.
    side = exchange(FOUR_HITS, dummy(density=4, shield=True)).b
    assert dist(side.lost) == {1: F(1, 6), 2: F(1, 6), 3: F(1, 6), 4: F(1, 2)}
    assert side.blocked.mean() == 1 and side.blocked_by_shield_wall == 1
    assert side.blocked_by_armour == 0


def test_a_shield_wall_at_density_one_never_blocks() -> None:
    assert dist(exchange(FOUR_HITS, dummy(density=1, shield=True)).b.lost) == {4: 1}


def test_armour_blocks_as_many_hits_as_a_roll_below_the_number_of_hits() -> None:
    side = exchange(FOUR_HITS, dummy(armour=True)).b
    assert dist(side.lost) == {1: F(1, 6), 2: F(1, 6), 3: F(1, 6), 4: F(1, 2)}
    assert side.blocked_by_armour == 1 and side.blocked_by_shield_wall == 0


def test_armour_cannot_block_a_single_hit() -> None:
    one_hit = unit(1, 10, line("shock_troops", "spear", 20))
    assert dist(exchange(one_hit, dummy(armour=True)).b.lost) == {1: 1}


def test_the_shield_wall_comes_first_and_armour_faces_what_is_left() -> None:
    # Density 3: shield roll 1 leaves 3 hits, roll 2 leaves 2, rolls 3–6 leave 4; then armour.
    side = exchange(FOUR_HITS, dummy(density=3, shield=True, armour=True)).b
    assert dist(side.lost) == {1: F(6, 36), 2: F(10, 36), 3: F(8, 36), 4: F(12, 36)}
    assert side.blocked_by_shield_wall == F(3, 6)  # (1 + 2) / 6


def test_armour_piercing_hits_ignore_armour() -> None:
    # Two halberdiers at density 6 hit on 1–5 each; armour could only act on two hits.
    halberds = unit(6, 2, line("shock_troops", "halberd", 2))
    spears = unit(6, 2, line("shock_troops", "short_spear", 2))
    assert dist(exchange(halberds, dummy(armour=True)).b.lost) == {
        0: F(1, 36), 1: F(10, 36), 2: F(25, 36)}
    # The same dice without piercing: two hits lose one to an armour roll of 1.
    assert dist(exchange(spears, dummy(armour=True)).b.lost) == {
        0: F(6, 216), 1: F(85, 216), 2: F(125, 216)}
    assert exchange(halberds, dummy(armour=True)).b.received_piercing == F(10, 6)


def test_armour_piercing_hits_still_meet_the_shield_wall() -> None:
    halberds = unit(6, 2, line("shock_troops", "halberd", 2))
    # Density 2: a shield roll of 1 blocks one hit, even a single one (armour could not).
    # P(0) = 1/36 + 10/36 · 1/6, P(1) = 25/36 · 1/6 + 10/36 · 5/6, P(2) = 25/36 · 5/6.
    assert dist(exchange(halberds, dummy(density=2, shield=True)).b.lost) == {
        0: F(16, 216), 1: F(75, 216), 2: F(125, 216)}


def test_protection_counts_only_when_every_warrior_has_it() -> None:
    half = unit(3, 10, line("shock_troops", "short_spear", 5, armour=True),
                line("shock_troops", "short_spear", 5))
    assert dist(exchange(FOUR_HITS, half).b.lost) == {4: 1}


# ---------------------------------------------------------------- against cavalry

def riders(**flags: bool) -> Unit:
    return unit(3, 10, line("shock_cavalry", "cavalry_lance", 10, mounted=True, **flags))


def test_foot_split_between_riders_and_horses_the_larger_half_at_the_horses() -> None:
    three = unit(3, 3, line("melee_specialists", "improvised", 3))
    received = exchange(three, riders()).b.received_by_target
    assert received == {"riders": F(1, 2), "horses": F(2, 2)}


def test_mixed_foot_lines_split_alternately_so_each_line_is_halved() -> None:
    # Halberd 1 (hits below 3: 2/6), swords 2 (above 3: 3/6), in front-rank order horses,
    # riders, horses: the halberd and one sword at the horses, the other sword at the riders.
    a = unit(3, 3, line("shock_troops", "halberd", 1), line("melee_specialists", "sword", 2))
    side = exchange(a, riders()).b
    assert side.received_by_target == {"riders": F(1, 2), "horses": F(2, 6) + F(1, 2)}
    assert side.received_piercing == F(2, 6)


def test_rank_bonus_hits_split_too_the_odd_one_to_the_horses() -> None:
    one_hit = unit(1, 10, line("shock_troops", "spear", 20))
    assert exchange(one_hit, riders()).b.received_by_target == {"riders": 0, "horses": 1}


def test_riders_and_horses_are_protected_separately_and_either_hit_takes_the_warrior() -> None:
    # 4 bonus hits: 2 at riders, 2 at horses. Armour on two hits blocks one on a roll of 1.
    assert dist(exchange(FOUR_HITS, riders(armour=True)).b.lost) == {3: F(1, 6), 4: F(5, 6)}
    assert dist(exchange(FOUR_HITS, riders(cavalry_armour=True)).b.lost) == {
        3: F(1, 6), 4: F(5, 6)}
    assert dist(exchange(FOUR_HITS, riders(armour=True, cavalry_armour=True)).b.lost) == {
        2: F(1, 36), 3: F(10, 36), 4: F(25, 36)}


def test_between_cavalry_only_riders_are_struck() -> None:
    a = unit(3, 3, line("melee_specialists", "sword", 3, mounted=True))
    assert exchange(a, riders()).b.received_by_target == {"riders": F(3, 2), "horses": 0}


def test_the_horse_strike_is_one_more_die_per_rider_and_only_at_infantry() -> None:
    charging = unit(3, 1, line("shock_cavalry", "cavalry_lance", 1, mounted=True,
                               moved_straight=True))
    assert dist(exchange(charging, dummy(density=3)).a.hits) == {
        0: F(1, 4), 1: F(2, 4), 2: F(1, 4)}
    assert exchange(charging, riders()).a.hits.mean() == F(1, 2)
    walking = unit(3, 1, line("shock_troops", "short_spear", 1, moved_straight=True))
    assert exchange(walking, dummy()).a.hits.mean() == F(2, 6)


def test_horse_strike_hits_are_not_armour_piercing() -> None:
    # Two charging lancers against density 3: lance dice and horse dice each hit on 4–6.
    charging = unit(3, 2, line("shock_cavalry", "cavalry_lance", 2, mounted=True,
                               moved_straight=True))
    side = exchange(charging, dummy(density=3, armour=True)).b
    assert side.received_piercing == 1  # the two lance dice only
    # Four hits need both lances and both horses to hit (1/16); armour then faces the two
    # horse-strike hits and keeps one back on a roll of 1.
    assert side.lost.probability(4) == F(1, 16) * F(5, 6)


# ---------------------------------------------------------------- fast weapons and swords

def test_fast_weapons_strike_first_and_the_enemy_answers_with_survivors() -> None:
    axe = unit(1, 1, line("melee_specialists", "axe", 1))
    club = unit(1, 1, line("melee_specialists", "improvised", 1))
    enemy = unit(3, 1, line("melee_specialists", "improvised", 1))
    # The axe hits on 2–6; only a survivor (1/6) answers, hitting on 4–6.
    assert dist(exchange(axe, enemy).a.lost) == {0: F(11, 12), 1: F(1, 12)}
    assert exchange(axe, enemy).a.strikes_first
    assert dist(exchange(club, enemy).a.lost) == {0: F(1, 2), 1: F(1, 2)}


def test_two_fast_sides_strike_first_together() -> None:
    axe = unit(1, 1, line("melee_specialists", "axe", 1))
    result = exchange(axe, axe)
    assert dist(result.a.lost) == dist(result.b.lost) == {0: F(1, 6), 1: F(5, 6)}


def test_losses_to_a_fast_strike_thin_the_ranks_and_cost_the_rank_bonus() -> None:
    # Two axes hit on 2–6. Pikes in ranks 10, 10, 10 lose from rank 1, then rank 2: after
    # one loss both rear ranks are full (4 hits), after two only rank 3 is (2 hits).
    axes = unit(1, 2, line("melee_specialists", "axe", 2))
    pikes = unit(1, 10, line("shock_troops", "pike", 30))
    assert dist(exchange(axes, pikes).b.hits) == {2: F(25, 36), 4: F(11, 36)}


def test_a_heavy_throwing_weapon_strikes_first_and_again_with_the_enemy() -> None:
    pila = unit(3, 1, line("melee_specialists", "heavy_throwing", 1))
    axe = unit(3, 1, line("melee_specialists", "axe", 1))
    assert dist(exchange(pila, dummy()).a.hits) == {0: F(1, 4), 1: F(2, 4), 2: F(1, 4)}
    assert dist(exchange(axe, dummy()).a.hits) == {0: F(1, 2), 1: F(1, 2)}


def test_sword_hits_are_shown_as_hits_and_as_parries() -> None:
    sword = unit(1, 1, line("melee_specialists", "sword", 1))
    enemy = unit(3, 1, line("melee_specialists", "improvised", 1))
    result = exchange(sword, enemy)
    assert dist(result.a.hits) == {0: F(1, 6), 1: F(5, 6)}
    parrying = result.a.parrying
    assert parrying is not None and dist(parrying.parries) == {0: F(1, 6), 1: F(5, 6)}
    # Kept as a parry, the sword stops the enemy's hit unless it missed (1/6).
    assert dist(parrying.lost) == {0: F(11, 12), 1: F(1, 12)}
    assert dist(parrying.enemy_lost) == {0: 1}
    assert result.b.parrying is None


def test_losses_never_exceed_the_warriors_of_the_unit() -> None:
    two = unit(3, 2, line("shock_troops", "short_spear", 2))
    assert dist(exchange(FOUR_HITS, two).b.lost) == {2: 1}


# ---------------------------------------------------------------- every distribution is whole

@st.composite
def units(draw: st.DrawFn) -> Unit:
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        kind, weapon = draw(st.sampled_from(CLASS_WEAPONS))
        flags = {f: draw(st.booleans()) for f in ("shield", "armour", "mounted",
                                                  "cavalry_armour", "moved_straight")}
        lines.append(line(kind, weapon, draw(st.integers(1, 40)), **flags))
    return unit(draw(st.integers(1, 6)), draw(st.integers(1, 12)), *lines)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(units(), units())
def test_every_distribution_sums_to_exactly_one(a: Unit, b: Unit) -> None:
    result = exchange(a, b)
    for side in (result.a, result.b):
        shown = [side.hits, side.blocked, side.lost]
        if side.parrying:
            shown += [side.parrying.parries, side.parrying.lost, side.parrying.enemy_lost]
        for d in shown:
            assert sum(p for _, p in d.fractions()) == 1
            assert all(p > 0 for _, p in d.fractions())
        assert side.lost.high <= side.fighter.warriors
        assert side.blocked_by_armour >= 0
    answer = melee_json(result)
    for key in ("hits", "blocked", "lost"):
        shown_json = answer["a"][key]["distribution"]
        assert sum(F(p["probability"]) for p in shown_json) == 1
        expectation = sum(p["value"] * F(p["probability"]) for p in shown_json)
        assert F(answer["a"][key]["expectation"]) == expectation


def test_the_largest_exchange_the_limits_allow_is_still_quick() -> None:
    # 50 files (the most), fast weapons and swords on both sides, every protection, cavalry.
    big = [line("melee_specialists", w, 500 if i >= 17 else 3, armour=True, shield=True,
                mounted=m, cavalry_armour=m, moved_straight=m)
           for i, (w, m) in enumerate([("axe", False), ("sword", False),
                                       ("heavy_throwing", True), ("improvised", False)] * 5)]
    a = unit(2, 50, *big)
    b = unit(4, 50, *reversed(big))
    start = time.perf_counter()
    melee_json(exchange(a, b))
    assert time.perf_counter() - start < 2.0
