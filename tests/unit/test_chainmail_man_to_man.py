"""Man-to-man combat: every branch of the first-strike rules, blows, parries, modifiers, the
horse's blow, Table 23 by its six faces, and an independent reading over every pair of classes."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from app.systems.chainmail import man_to_man as mm


def fight(a: int, d: int, frm: str = "front", **flags: bool) -> mm.Fight:
    att = {k[2:]: v for k, v in flags.items() if k.startswith("a_")}
    dfn = {k[2:]: v for k, v in flags.items() if k.startswith("d_")}
    return mm.Fight(attacker=mm.Fighter(weapon_class=a, **att),
                    defender=mm.Fighter(weapon_class=d, **dfn), attacked_from=frm)  # type: ignore[arg-type]


@pytest.mark.parametrize(("f", "first1", "rule1", "first2", "rule2"), [
    (fight(5, 5), "attacker", "1a", "attacker", "2a"),
    (fight(3, 5), "defender", "1b", "attacker", "2b"),  # defender 2 higher; attacker 2 lower
    (fight(5, 4, d_higher=True), "defender", "1c", "defender", "2a"),
    (fight(5, 5, a_higher=True, d_higher=True), "defender", "1c", "attacker", "2c"),
    (fight(12, 3), "defender", "4d", "defender", "2a"),
    (fight(12, 3, a_long_weapon_charge=True), "attacker", "charge", "defender", "2b"),
    (fight(12, 3, a_charging=True, a_long_weapon=True), "attacker", "charge", "defender", "2b"),
    (fight(5, 7, "left_flank"), "attacker", "left_flank", "attacker", "2a"),
    (fight(5, 9, "rear", d_higher=True), "attacker", "rear", "attacker", "rear"),
    (fight(6, 4), "attacker", "1a", "defender", "2b"),
])
def test_every_first_strike_branch(f: mm.Fight, first1: str, rule1: str, first2: str,
                                   rule2: str) -> None:
    assert mm.first_in_round_1(f) == (first1, rule1)
    assert mm.first_in_round_2(f) == (first2, rule2)


def test_rear_attack_no_counter_in_round_1_and_plus_one() -> None:
    f = fight(5, 5, "rear")
    assert not mm.strikes(f, "defender", 1) and mm.strikes(f, "defender", 2)
    assert mm.modifier(f, "attacker", 1) == 1 and mm.modifier(f, "defender", 1) == 0


def test_blows_by_classes_lower() -> None:
    assert [mm.blows(fight(a, 1), "defender") for a in (1, 4, 5, 8, 9, 12)] == [1, 1, 2, 2, 3, 3]
    assert mm.blows(fight(1, 9), "attacker") == 3


@pytest.mark.parametrize(("a", "d", "rule", "minus", "counter"), [
    (3, 5, "4a", 0, "yes"), (5, 2, "4b", 2, "no"), (6, 2, "4c", 2, "once"),
    (9, 2, "4c", 2, "once"), (10, 2, "4d", 1, "yes"), (6, 4, "", 0, "yes"),
])
def test_parries(a: int, d: int, rule: str, minus: int, counter: str) -> None:
    p = mm.parry(fight(a, d), "defender")
    assert (p.rule, p.minus, p.counter) == (rule, minus, counter)


def test_horse_against_foot() -> None:
    f = fight(4, 4, a_mounted=True)
    assert mm.modifier(f, "attacker", 1) == 2 and mm.modifier(f, "attacker", 2) == 1
    assert mm.modifier(f, "defender", 1) == -1
    assert mm.horse_blow(f, "attacker") == (2, "mace") and mm.horse_blow(f, "defender") is None
    for weight, blow in (("light", (1, "mace")), ("medium", (2, "mace")),
                         ("heavy", (2, "flail"))):
        f = mm.Fight(attacker=mm.Fighter(weapon_class=4, mounted=True),
                     defender=mm.Fighter(weapon_class=4, foot_weight=weight))
        assert mm.horse_blow(f, "attacker") == blow
    assert mm.horse_blow(fight(4, 4, d_mounted=True), "defender") == (2, "mace")
    assert mm.horse_blow(fight(4, 4, a_mounted=True, d_mounted=True), "attacker") is None


def test_leaders_and_berserkers() -> None:
    f = fight(4, 4, a_leader=True, d_berserker=True)
    assert mm.modifier(f, "attacker", 1) == 1 and mm.modifier(f, "defender", 2) == -2


def test_table_23_over_the_six_faces() -> None:
    assert mm.dismount_chances() == {0: F(1, 3), 1: F(1, 2), 3: F(1, 6)}


def _first1(a: int, d: int, higher: bool, frm: str) -> str:
    """Round 1 from the seed's list, read afresh: flank and rear first, then 4 d, b), c)."""
    if frm in ("rear", "left_flank"):
        return "attacker"
    if a - d >= 8:
        return "defender"
    return "defender" if d - a >= 2 or higher else "attacker"


def test_every_pair_of_classes_agrees_with_a_fresh_reading() -> None:
    for a, d, higher, frm in product(range(1, 21), range(1, 21), (False, True),
                                     ("front", "left_flank", "rear")):
        f = fight(a, d, frm, d_higher=higher)
        first = _first1(a, d, higher, frm)
        assert mm.first_in_round_1(f)[0] == first
        opponent = "defender" if first == "attacker" else "attacker"
        lower = (d - a if opponent == "attacker" else a - d) >= 2
        second = first if frm == "rear" else opponent if lower or (
            opponent == "defender" and higher) else first
        assert mm.first_in_round_2(f)[0] == second


# The note to 4 d): a charging pike, spear or lance strikes first at a lower class. Each case
# of 4 a–d by the defender's classes below (negative: above), charging or not, long weapon or
# not: round 1's first blow and rule, and each side's parry rule with its charge mark.
# No parry rule at 1, 2 classes; 4 a at 2 higher; b at 3; c at 4–7; d at 8 and more.
_PARRY_BY_GAP = {-2: ("4a", ""), 0: ("", ""), 1: ("", ""), 3: ("4b", "4a"), 4: ("4c", "4a"),
                 5: ("4c", "4a"), 7: ("4c", "4a"), 8: ("4d", "4a"), 11: ("4d", "4a")}


@pytest.mark.parametrize("below", sorted(_PARRY_BY_GAP))
@pytest.mark.parametrize(("charging", "long_weapon"), [
    (False, False), (True, False), (False, True), (True, True)])
def test_each_case_of_4_a_to_d_with_and_without_a_long_weapons_charge(
        below: int, charging: bool, long_weapon: bool) -> None:
    f = fight(12, 12 - below, a_charging=charging, a_long_weapon=long_weapon)
    charged = charging and long_weapon and below > 0  # both, at a lower class only
    unhindered = ("defender", "1b") if below <= -2 else (
        ("defender", "4d") if below >= 8 else ("attacker", "1a"))
    assert mm.first_in_round_1(f) == (("attacker", "charge") if charged else unhindered)
    defender, attacker = mm.parry(f, "defender"), mm.parry(f, "attacker")
    assert (defender.rule, attacker.rule) == _PARRY_BY_GAP[below]
    # Only 4 c's choice of the first blow and 4 d's first blow are taken from the defender.
    assert defender.charge == (charged and below >= 4)
    assert attacker.charge is False
    assert mm.fight_json(f)["sides"]["defender"]["parry"]["charge"] == defender.charge


def test_the_long_weapons_charge_needs_the_front_and_yields_to_a_higher_position() -> None:
    charge = {"a_charging": True, "a_long_weapon": True}
    on_wall = fight(9, 4, d_higher=True, **charge)
    assert mm.first_in_round_1(on_wall) == ("defender", "1c")
    assert not mm.parry(on_wall, "defender").charge
    assert mm.first_in_round_1(fight(12, 4, d_higher=True, **charge)) == ("defender", "4d")
    for frm in ("left_flank", "rear"):
        flank = fight(9, 4, frm, **charge)
        assert mm.first_in_round_1(flank) == ("attacker", frm)
        assert not mm.parry(flank, "defender").charge


def test_a_long_weapons_charge_is_the_attackers_alone() -> None:
    f = fight(4, 12, d_charging=True, d_long_weapon=True)
    assert mm.first_in_round_1(f) == ("defender", "1b")
    assert not mm.parry(f, "attacker").charge
