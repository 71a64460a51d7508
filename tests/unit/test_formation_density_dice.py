"""Exact dice distributions: sums, differences, floors and caps agree with plain enumeration."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from app.systems.formation_density.dice import Dist, difference_floor, mixture, successes


def naive(d: Dist) -> dict[int, F]:
    return {v: F(w, 6 ** d.exp) for v, w in d.items()}


def combine(x: Dist, y: Dist, how) -> dict[int, F]:  # type: ignore[no-untyped-def]
    out: dict[int, F] = {}
    for (vx, px), (vy, py) in product(naive(x).items(), naive(y).items()):
        value = how(vx, vy)
        out[value] = out.get(value, F(0)) + px * py
    return out


dists = st.builds(
    lambda offset, weights, exp: Dist.from_weights(weights, exp, offset),
    st.integers(-5, 5),
    st.lists(st.integers(0, 6 ** 30), min_size=1, max_size=40).filter(any),
    st.integers(0, 40))


@settings(max_examples=80, deadline=None, derandomize=True)
@given(dists, dists)
def test_sums_by_big_integer_products_match_the_schoolbook_sum(x: Dist, y: Dist) -> None:
    assert naive(x + y) == combine(x, y, lambda a, b: a + b)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(dists, dists)
def test_max_of_zero_and_a_difference_matches_enumeration(x: Dist, y: Dist) -> None:
    assert naive(difference_floor(x, y)) == combine(x, y, lambda a, b: max(0, a - b))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(dists, st.integers(-8, 8), st.integers(-8, 40))
def test_floors_and_caps_pile_the_cut_off_weight_on_the_edge(x: Dist, by: int,
                                                             most: int) -> None:
    floored: dict[int, F] = {}
    capped: dict[int, F] = {}
    for v, p in naive(x).items():
        floored[max(0, v + by)] = floored.get(max(0, v + by), F(0)) + p
        capped[min(v, most)] = capped.get(min(v, most), F(0)) + p
    assert naive(x.floor_shift(by)) == {v: p for v, p in floored.items() if p}
    assert naive(x.cap(most)) == {v: p for v, p in capped.items() if p}


def test_successes_are_binomial_over_powers_of_six() -> None:
    # Three dice hitting on 5–6: P(k) = C(3, k) 2^k 4^(3−k) / 216.
    assert naive(successes(3, 2)) == {0: F(64, 216), 1: F(96, 216), 2: F(48, 216),
                                      3: F(8, 216)}
    assert naive(successes(7, 0)) == {0: 1} and naive(successes(7, 6)) == {7: 1}


def test_a_mixture_weighs_each_part_by_its_probability() -> None:
    coin = successes(1, 3)  # 0 or 1, each 1/2
    mixed = mixture((w, coin.exp, Dist.point(10 * v)) for v, w in coin.items())
    assert naive(mixed) == {0: F(1, 2), 10: F(1, 2)}
