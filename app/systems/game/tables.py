"""The tables a game rolls on, each a pure function of its dice.

Table 16 (mercenaries, seed 000): "Перед каждым ходом нужно бросать кубик … 1 — бездействуют
весь Ход …, 2-5 — будут подчиняться приказам, 6 — должен броситься второй кубик": 1 "Плати
больше!" idle, 2 march off home, 3 bribed, 4–6 obey "в течении следующих 3 Ходов".
Table 17 (peasants): 2d6, 7 or more to move; to attack and to defend, the number by the enemy.
Line and Square's order test: app/systems/line_and_square/orders.py.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

# Table 16's results, by the first die and (after a 6) the second.
MERCENARY_FIRST = {1: "idle", 2: "obey", 3: "obey", 4: "obey", 5: "obey"}
MERCENARY_SECOND = {1: "pay_more", 2: "march_home", 3: "bribed", 4: "obey_3", 5: "obey_3",
                    6: "obey_3"}
OBEY_TURNS = 3  # the turn about to be played and the two after it
# Results after which the unit no longer rolls: it has left, or it fights for the enemy.
MERCENARY_LOST = frozenset({"march_home", "bribed"})


def mercenary(first: int, second: int | None) -> str:
    """Table 16's result for the dice: `second` is rolled only after a 6."""
    if first == 6:
        if second is None:
            raise ValueError("a 6 on Table 16 needs the second die")
        return MERCENARY_SECOND[second]
    return MERCENARY_FIRST[first]


PEASANT_MOVE = 7
# Table 17: the enemy unit → (attack, defence).
PEASANT_ENEMIES: dict[str, tuple[int, int]] = {
    "peasant": (4, 5),
    "light_foot": (6, 6),  # light foot and militia
    "heavy_foot": (8, 7),
    "armored_foot": (9, 8),  # armored foot and pikemen
    "light_horse": (10, 9),
    "medium_horse": (11, 10),
    "heavy_horse": (12, 11),
}
PEASANT_TESTS = ("move", "attack", "defend")


def peasant_target(test: str, enemy: str | None) -> int:
    """What 2d6 must reach for the peasants to move, attack or defend against `enemy`."""
    if test == "move":
        return PEASANT_MOVE
    attack, defence = PEASANT_ENEMIES[enemy or ""]
    return attack if test == "attack" else defence


def at_least(target: int) -> Fraction:
    """The chance that 2d6 shows `target` or more, over the 36 throws."""
    return Fraction(sum(a + b >= target for a, b in product(range(1, 7), repeat=2)), 36)
