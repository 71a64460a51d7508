"""Exact probability distributions of whole numbers built from six-sided dice.

Every probability in the game is a whole number of 6^-e for some e (each roll is one d6), so a
distribution is kept as integer weights over a power of six: P(X = offset + i) =
weights[i] / 6**exp. Sums of independent counts are convolutions of the weights, mixtures
bring the weights to a common power first; nothing is rounded and nothing is sampled.
Fractions are made only at the end, for the answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from app.systems.formation_density.catalogue import DIE


@dataclass(frozen=True, slots=True)
class Dist:
    offset: int
    weights: tuple[int, ...]
    exp: int

    # ---------------------------------------------------------------- building

    @staticmethod
    def point(value: int = 0) -> Dist:
        return Dist(value, (1,), 0)

    @staticmethod
    def from_weights(weights: dict[int, int] | list[int], exp: int, offset: int = 0) -> Dist:
        """A distribution from weights by value (a dict) or from `offset` (a list)."""
        if isinstance(weights, dict):
            items = {v: w for v, w in weights.items() if w}
            if not items:
                raise ValueError("a distribution needs some weight")
            low, high = min(items), max(items)
            return Dist(low, tuple(items.get(v, 0) for v in range(low, high + 1)), exp)
        return _trimmed(offset, list(weights), exp)

    # ---------------------------------------------------------------- reading

    @property
    def total(self) -> int:
        return 6 ** self.exp

    @property
    def high(self) -> int:
        return self.offset + len(self.weights) - 1

    def items(self) -> Iterable[tuple[int, int]]:
        """(value, weight) for every value of non-zero probability."""
        for i, w in enumerate(self.weights):
            if w:
                yield self.offset + i, w

    def probability(self, value: int) -> Fraction:
        i = value - self.offset
        if 0 <= i < len(self.weights):
            return Fraction(self.weights[i], self.total)
        return Fraction(0)

    def fractions(self) -> list[tuple[int, Fraction]]:
        denominator = self.total
        return [(v, Fraction(w, denominator)) for v, w in self.items()]

    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.items()), self.total)

    def is_point(self) -> bool:
        return len(self.weights) == 1

    # ---------------------------------------------------------------- arithmetic

    def shift(self, by: int) -> Dist:
        return Dist(self.offset + by, self.weights, self.exp) if by else self

    def floor_shift(self, by: int, floor: int = 0) -> Dist:
        """X + by, where every value below `floor` becomes `floor` (losses never go negative)."""
        if self.offset + by >= floor:
            return self.shift(by)
        if self.high + by <= floor:
            return Dist(floor, (sum(self.weights),), self.exp)
        cut = floor - (self.offset + by)  # weights[:cut] fall below the floor
        return Dist(floor, (sum(self.weights[:cut + 1]), *self.weights[cut + 1:]), self.exp)

    def cap(self, most: int) -> Dist:
        """min(X, most): no unit loses more warriors than it has."""
        if self.high <= most:
            return self
        if self.offset >= most:
            return Dist(most, (sum(self.weights),), self.exp)
        keep = most - self.offset  # weights[keep:] are at or above `most`
        return Dist(self.offset, (*self.weights[:keep], sum(self.weights[keep:])), self.exp)

    def scaled(self, exp: int) -> tuple[int, ...]:
        """The weights over 6**exp (exp >= self.exp)."""
        factor = 6 ** (exp - self.exp)
        return tuple(w * factor for w in self.weights) if factor != 1 else self.weights

    def __add__(self, other: Dist) -> Dist:
        """The distribution of the sum of two independent counts."""
        if other.is_point():
            return Dist(self.offset + other.offset, tuple(w * other.weights[0]
                                                          for w in self.weights),
                        self.exp + other.exp)
        if self.is_point():
            return other + self
        return Dist(self.offset + other.offset, _convolve(self.weights, other.weights),
                    self.exp + other.exp)

    def map(self, outcome: Callable[[int], Dist]) -> Dist:
        """Each value replaced by a distribution of what follows from it (a dice roll)."""
        return mixture((w, self.exp, outcome(v)) for v, w in self.items())

    def reduced(self) -> Dist:
        """The same distribution over the smallest power of six."""
        exp = self.exp
        weights = self.weights
        while exp and all(w % 6 == 0 for w in weights):
            weights = tuple(w // 6 for w in weights)
            exp -= 1
        return Dist(self.offset, weights, exp) if exp != self.exp else self


def _trimmed(offset: int, weights: list[int], exp: int) -> Dist:
    start = 0
    while start < len(weights) - 1 and not weights[start]:
        start += 1
    end = len(weights)
    while end > start + 1 and not weights[end - 1]:
        end -= 1
    return Dist(offset + start, tuple(weights[start:end]), exp)


def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    if len(a) < len(b):
        a, b = b, a
    if len(b) < 8:
        out = [0] * (len(a) + len(b) - 1)
        for j, y in enumerate(b):
            if y:
                for i, x in enumerate(a, j):
                    out[i] += x * y
        return tuple(out)
    # Kronecker substitution: each list becomes one big integer with a slot per weight, wide
    # enough that no coefficient of the product overflows into the next; one multiplication
    # (Karatsuba inside Python) then does the whole convolution.
    bits = max(a).bit_length() + max(b).bit_length() + len(b).bit_length() + 1
    width = (bits + 7) // 8
    packed_a = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in a), "little")
    packed_b = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in b), "little")
    size = len(a) + len(b) - 1
    raw = (packed_a * packed_b).to_bytes(width * size, "little")
    return tuple(int.from_bytes(raw[i:i + width], "little") for i in range(0, width * size, width))


def mixture(parts: Iterable[tuple[int, int, Dist]]) -> Dist:
    """Σ (weight / 6**exp) · dist over the parts: the law of total probability."""
    chosen = [(w, e, d) for w, e, d in parts if w]
    if not chosen:
        raise ValueError("a mixture needs some weight")
    exp = max(e + d.exp for _, e, d in chosen)
    low = min(d.offset for _, _, d in chosen)
    high = max(d.high for _, _, d in chosen)
    out = [0] * (high - low + 1)
    for w, e, d in chosen:
        factor = w * 6 ** (exp - e - d.exp)
        base = d.offset - low
        for i, x in enumerate(d.weights, base):
            if x:
                out[i] += x * factor
    return _trimmed(low, out, exp)


def total(dists: Iterable[Dist]) -> Dist:
    """The sum of independent counts."""
    out = Dist.point(0)
    for d in dists:
        out = out + d
    return out


@cache
def successes(dice: int, faces: int) -> Dist:
    """How many of `dice` six-sided dice show one of `faces` hitting faces (binomial)."""
    if dice == 0 or faces == 0:
        return Dist.point(0)
    if faces >= DIE:
        return Dist.point(dice)
    miss = DIE - faces
    return Dist(0, tuple(math.comb(dice, i) * faces ** i * miss ** (dice - i)
                         for i in range(dice + 1)), dice)


def difference_floor(x: Dist, y: Dist) -> Dist:
    """max(0, X − Y) for independent X and Y: X + (−Y), then everything below 0 at 0."""
    negative = Dist(-y.high, tuple(reversed(y.weights)), y.exp)
    return (x + negative).floor_shift(0)
