"""Table 27 (figure sizes): the seed's two columns exactly, and the extension's readings."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from app.systems.chainmail import figure_sizes as fs

SEED = {30: [10, 20, 25, 40, 54], 40: [20, 25, 30, 54, 70]}


@pytest.mark.parametrize("scale", [30, 40])
def test_the_seed_columns_come_back_exactly(scale: int) -> None:
    rows = fs.sizes(scale)
    assert [r["mm"] for r in rows] == SEED[scale]
    assert all(r["exact"]["denominator"] == 1 and r["from_the_table"] for r in rows)


def test_scales_outside_the_table_follow_the_nearer_column() -> None:
    # 28 mm: 30 mm column × 28/30 (9⅓, 18⅔, 23⅓, 37⅓, 50.4); 54 mm: 40 mm column × 1.35.
    assert [r["mm"] for r in fs.sizes(28)] == [9, 19, 23, 37, 50]
    assert [r["mm"] for r in fs.sizes(54)] == [27, 34, 41, 73, 95]  # 40.5 → 41: halves up
    assert [r["mm"] for r in fs.sizes(25)] == [8, 17, 21, 33, 45]


def test_between_the_columns_a_straight_line() -> None:
    assert [r["mm"] for r in fs.sizes(35)] == [15, 23, 28, 47, 62]  # 22.5 → 23
    giants = fs.KINDS[-1]
    assert fs.exact_size(giants, 35) == F(62)


def test_an_independent_reckoning_agrees_everywhere() -> None:
    for scale in range(fs.MIN_SCALE, fs.MAX_SCALE + 1):
        for kind, row in zip(fs.KINDS, fs.sizes(scale), strict=True):
            if scale <= 30:
                value = kind.at_30 * scale / 30
            elif scale >= 40:
                value = kind.at_40 * scale / 40
            else:
                t = (scale - 30) / 10
                value = kind.at_30 * (1 - t) + kind.at_40 * t
            assert abs(row["mm"] - value) <= 0.5 + 1e-9  # type: ignore[operator]
            assert F(row["exact"]["numerator"], row["exact"]["denominator"]) == \
                fs.exact_size(kind, scale)  # type: ignore[index]


@pytest.mark.parametrize("scale", [4, 121])
def test_a_scale_out_of_bounds_is_refused(scale: int) -> None:
    with pytest.raises(ValueError):
        fs.sizes(scale)
