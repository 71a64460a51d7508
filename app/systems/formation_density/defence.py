"""Protection of warriors: the shield wall, then armour, against the hits of one strike.

Shield wall (стена щитов): the owner rolls one die for the whole unit; a roll below the unit's
density blocks that many hits. Armour (доспехи, кавалерийские доспехи): after the hits land the
owner rolls one die; a roll below the number of hits blocks that many. Armour-piercing hits
ignore armour, not shields (interpretation 1), so the owner spends the shield wall on
armour-piercing hits first — every roll of the dice leaves him as well off as any other order
would, since armour saves more the more hits it faces. Armour then faces the hits it can stop.
Both are rolled for every strike that lands (a fast strike and the exchange after it each).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from app.systems.formation_density.catalogue import DIE
from app.systems.formation_density.dice import Dist, mixture

ROLLS = range(1, DIE + 1)


@dataclass(frozen=True, slots=True)
class Protection:
    """What stands between one target (the unit, or riders, or horses) and the hits."""

    shield_density: int = 0  # the unit's density when it has a shield wall, else 0
    armour: bool = False

    def shield_blocks(self) -> tuple[int, ...]:
        """Hits the shield wall blocks on each face of its die."""
        return tuple(r if r < self.shield_density else 0 for r in ROLLS)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One target after one strike: warriors lost, hits blocked, and how many by the shields."""

    lost: Dist
    blocked: Dist
    shield: Fraction  # expected hits blocked by the shield wall


@cache
def armour_roll(hits: int) -> tuple[Dist, Dist]:
    """(hits that get through, hits blocked) after armour facing `hits` hits."""
    through: dict[int, int] = {}
    saved: dict[int, int] = {}
    for r in ROLLS:
        blocked = r if r < hits else 0
        through[hits - blocked] = through.get(hits - blocked, 0) + 1
        saved[blocked] = saved.get(blocked, 0) + 1
    return Dist.from_weights(through, 1), Dist.from_weights(saved, 1)


def withstand(piercing: Dist, other: Dist, protection: Protection) -> Outcome:
    """The target's losses when `piercing` armour-piercing and `other` hits (independent) land.

    Cells with at least as many piercing hits as the shield wall can block separate into a
    shield part and an armour part (a convolution); the few cells with fewer are enumerated.
    """
    if not protection.armour:
        # Armour-piercing or not makes no difference without armour.
        piercing, other = piercing + other, Dist.point(0)
    blocks = protection.shield_blocks()
    most = max(blocks)
    if protection.armour:
        through = other.map(lambda n: armour_roll(n)[0])
        saved = other.map(lambda n: armour_roll(n)[1])
    else:
        through, saved = other, Dist.point(0)
    parts_lost: list[tuple[int, int, Dist]] = []
    parts_blocked: list[tuple[int, int, Dist]] = []
    shield_sum = Fraction(0)

    # Piercing hits >= any shield roll: the shields take from them alone.
    start = max(0, most - piercing.offset)
    if start < len(piercing.weights):
        tail = Dist(piercing.offset + start, piercing.weights[start:], piercing.exp)
        mass = sum(tail.weights)
        if mass:
            after_shield = mixture((1, 1, tail.shift(-b)) for b in blocks)
            parts_lost.append((1, 0, after_shield + through))
            shields = Dist.from_weights(_counts(blocks), 1)
            parts_blocked.append((mass, tail.exp, shields + saved))
            shield_sum += Fraction(mass * sum(blocks), tail.total * DIE)

    # Fewer piercing hits than the shield might block: it may reach the other hits too.
    if start > 0:
        lost: dict[int, int] = {}
        blocked: dict[int, int] = {}
        shield_weight = 0
        for a, wa in piercing.items():
            if a >= most:
                break
            for n, wn in other.items():
                for b in blocks:
                    if a >= b:
                        left_a, left_n, by_shield = a - b, n, b
                    else:
                        spill = min(b - a, n)
                        left_a, left_n, by_shield = 0, n - spill, a + spill
                    shield_weight += wa * wn * by_shield * DIE
                    for r in ROLLS:
                        by_armour = r if protection.armour and r < left_n else 0
                        gone = left_a + left_n - by_armour
                        lost[gone] = lost.get(gone, 0) + wa * wn
                        kept = by_shield + by_armour
                        blocked[kept] = blocked.get(kept, 0) + wa * wn
        exp = piercing.exp + other.exp + 2
        if lost:
            parts_lost.append((1, 0, Dist.from_weights(lost, exp)))
            parts_blocked.append((1, 0, Dist.from_weights(blocked, exp)))
            shield_sum += Fraction(shield_weight, 6 ** exp)
    return Outcome(mixture(parts_lost), mixture(parts_blocked), shield_sum)


def _counts(values: tuple[int, ...]) -> dict[int, int]:
    out: dict[int, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return out
