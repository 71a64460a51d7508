"""Table 24 (tournament points): hand-worked jousts, and every joust of up to three passes
scored again from the table's two columns."""

from __future__ import annotations

from itertools import product

import pytest

from app.systems.chainmail import tournament as tm

# Table 24 as the seed prints it: result → (attacker, defender).
SEED = {"broken_lance": (-1, 0), "helm": (3, 0), "wounded": (0, -10), "unhorsed": (20, 0),
        "none": (0, 0)}


def test_the_table() -> None:
    assert tm.RESULTS == SEED


def test_a_joust_by_hand() -> None:
    # Pass 1: A breaks his lance (−1), B knocks A's helm off (+3 to B).
    # Pass 2: A unhorses B (+20 to A), B wounds A (−10 to A). Over: an unhorsing.
    joust = tm.Joust(0, 1, (("broken_lance", "helm"), ("unhorsed", "wounded")))
    score = tm.score(2, [0, 1], [joust])
    assert score.knights == [9, 3] and score.teams == {0: 9, 1: 3}
    assert score.jousts == [[(-1, 3), (10, 0)]]
    assert tm.ended(joust.passes)


def test_team_totals_add_their_knights() -> None:
    jousts = [tm.Joust(0, 1, (("helm", "none"), ("none", "none"), ("none", "broken_lance"))),
              tm.Joust(2, 1, (("unhorsed", "unhorsed"),))]
    score = tm.score(2, [0, 1, 0], jousts)
    assert score.knights == [3, 19, 20] and score.teams == {0: 23, 1: 19}


@pytest.mark.parametrize(("passes", "kind", "at"), [
    ((("unhorsed", "none"), ("none", "none")), "after_unhorsing", 2),
    ((("none", "none"),) * 4, "too_many_passes", 4),
    ((("lance", "none"),), "unknown_result", 1),
])
def test_impossible_jousts_are_refused(passes: tuple[tuple[str, str], ...], kind: str,
                                       at: int) -> None:
    with pytest.raises(tm.JoustError) as refused:
        tm.check(tm.Joust(0, 1, passes), 1)
    assert refused.value.kind == kind and refused.value.pass_ == at


def test_a_knight_cannot_joust_himself() -> None:
    with pytest.raises(tm.JoustError, match="same_knight"):
        tm.check(tm.Joust(1, 1, ()), 3)


def _legal_jousts() -> list[tuple[tuple[str, str], ...]]:
    pairs = list(product(SEED, repeat=2))
    out: list[tuple[tuple[str, str], ...]] = []
    frontier: list[tuple[tuple[str, str], ...]] = [()]
    while frontier:
        passes = frontier.pop()
        if passes:
            out.append(passes)
        if len(passes) < 3 and not any("unhorsed" in p for p in passes):
            frontier.extend(passes + (p,) for p in pairs)
    return out


def test_every_joust_scores_as_the_table_says() -> None:
    jousts = _legal_jousts()
    assert len(jousts) == 25 + 16 * 25 + 16 * 16 * 25  # 25 results a pass, 16 go on
    for passes in jousts:
        a = sum(SEED[ra][0] + SEED[rb][1] for ra, rb in passes)
        b = sum(SEED[rb][0] + SEED[ra][1] for ra, rb in passes)
        assert tm.score(2, [0, 1], [tm.Joust(0, 1, passes)]).knights == [a, b]
