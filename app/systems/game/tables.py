"""Table 16, which every mercenary unit rolls before each turn, a pure function of its dice.

Table 16 (mercenaries, seed 000): "Перед каждым ходом нужно бросать кубик … 1 — бездействуют
весь Ход …, 2-5 — будут подчиняться приказам, 6 — должен броситься второй кубик": 1 "Плати
больше!" idle, 2 march off home, 3 bribed, 4–6 obey "в течении следующих 3 Ходов".
Each system's own tests (Chainmail's Table 17, Line and Square's order test) are its game
rules' (`app/systems/<id>/game.py`).
"""

from __future__ import annotations

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
