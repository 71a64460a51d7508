"""Dice: a roller is a function of the number of sides that answers one face, 1 … sides."""

from __future__ import annotations

import secrets
from collections.abc import Callable

Roller = Callable[[int], int]


def secure(sides: int) -> int:
    """One die of `sides` faces from the operating system's random source: a game's dice
    must be neither predictable nor repeatable by anyone who sees the log."""
    return secrets.randbelow(sides) + 1


def d6(roller: Roller) -> int:
    face = roller(6)
    if not 1 <= face <= 6:
        raise ValueError(f"a d6 shows 1 to 6, not {face}")
    return face
