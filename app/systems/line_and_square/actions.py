"""Which actions a unit may declare when activated: its class (rules page §1) and formation.

From the seed's list "АКТИВАЦИЯ ПОДРАЗДЕЛЕНИЙ": move (any unit), attack (any but artillery),
shoot (a unit with accuracy, never irregular or light cavalry), skirmish, the three changes of
formation, volley (infantry in close order only, and only a unit that may shoot) and rally (any
unit). The formation adds: "Подразделения в формации Каре двигаться не могут", and an attack
is a move into contact ("для этого используется приказ на атаку"), so a square neither moves
nor attacks; and a unit does not change into the formation it already stands in.
"""

from __future__ import annotations

from app.systems.line_and_square.catalogue import ACTIONS, CLASSES


def allowed_actions(unit_class: str, formation: str, accuracy: int | None) -> list[str]:
    """Action ids in catalogue order."""
    kind = CLASSES[unit_class]
    in_square = formation == "square"
    shoots = kind.shoot == "if_accuracy" and accuracy is not None
    allowed = {
        "move": not in_square,
        "attack": kind.attack and not in_square,
        "shoot": shoots,
        "skirmish": kind.skirmish,
        "close_order": kind.close_order and formation != "close_order",
        "square": kind.square and not in_square,
        "march_column": kind.march_column and formation != "march_column",
        # A volley is shooting, all at once: a unit with no accuracy cannot shoot (§2).
        "volley": kind.volley and formation == "close_order" and shoots,
        "rally": True,
    }
    return [action for action in ACTIONS if allowed[action]]
