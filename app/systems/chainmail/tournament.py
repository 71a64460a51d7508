"""The tournament (ТУРНИРНЫЕ СОСТЯЗАНИЯ) and Table 24, its points (Таблица 24: Турнирные очки).

A joust is run in passes: "Если ни один из противников не был сброшен с седла, процедура
повторяется до тех пор, пока один (или оба одновременно) противник не будет сбит с седла, или
не завершатся три раунда." Each pass's result comes from the jousting matrix (Appendix C, not in
the seed), so the player enters it: for each rider, what his own attack gave — a broken lance,
the other's helm knocked off, the other wounded, the other unhorsed, or nothing. Muster's
reading of Table 24's two columns: the rider whose attack it was is the attacker, the other the
defender — a broken lance costs its owner 1, a helm knocked off gains the attacker 3, a wound
costs the wounded 10, an unhorsing gains the attacker 20. One result per rider per pass.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.domain.translations import NP_

MAX_PASSES = 3
RESULTS: dict[str, tuple[int, int]] = {  # (attacker, defender)
    "none": (0, 0),
    "broken_lance": (-1, 0),
    "helm": (3, 0),
    "wounded": (0, -10),
    "unhorsed": (20, 0),
}
NAMES: dict[str, str] = {
    "none": NP_("tournament", "nothing"),
    "broken_lance": NP_("tournament", "broken lance"),
    "helm": NP_("tournament", "helm knocked off"),
    "wounded": NP_("tournament", "wounded"),
    "unhorsed": NP_("tournament", "unhorsed"),
}


class JoustError(ValueError):
    """A joust that cannot be: `where` names the pass or rider, in (joust, pass) from 1."""

    def __init__(self, joust: int, pass_: int | None, kind: str) -> None:
        super().__init__(kind)
        self.joust, self.pass_, self.kind = joust, pass_, kind


@dataclass(frozen=True)
class Joust:
    a: int  # the knights' indexes
    b: int
    passes: tuple[tuple[str, str], ...]  # (a's result, b's result) per pass


def pass_points(result_a: str, result_b: str) -> tuple[int, int]:
    """Points to rider a and rider b for one pass, each the attacker of his own result."""
    att_a, def_b = RESULTS[result_a]
    att_b, def_a = RESULTS[result_b]
    return att_a + def_a, att_b + def_b


def ended(passes: tuple[tuple[str, str], ...]) -> bool:
    """Over: someone was unhorsed, or three passes were run."""
    return len(passes) >= MAX_PASSES or any("unhorsed" in p for p in passes)


def check(joust: Joust, number: int) -> None:
    """Refuse a joust that could not have been run: a knight against himself, a fourth pass,
    a pass after an unhorsing."""
    if joust.a == joust.b:
        raise JoustError(number, None, "same_knight")
    for i, (ra, rb) in enumerate(joust.passes, 1):
        if ra not in RESULTS or rb not in RESULTS:
            raise JoustError(number, i, "unknown_result")
        if i > MAX_PASSES:
            raise JoustError(number, i, "too_many_passes")
        if ended(joust.passes[:i - 1]) and i > 1:
            raise JoustError(number, i, "after_unhorsing")


@dataclass
class Score:
    knights: list[int]
    teams: dict[int, int]
    jousts: list[list[tuple[int, int]]] = field(default_factory=list)  # per joust, per pass


def score(teams: int, knight_teams: list[int], jousts: list[Joust]) -> Score:
    """Running points by Table 24: per knight, per team, and per pass of each joust."""
    out = Score([0] * len(knight_teams), dict.fromkeys(range(teams), 0))
    for number, joust in enumerate(jousts, 1):
        check(joust, number)
        log: list[tuple[int, int]] = []
        for ra, rb in joust.passes:
            pa, pb = pass_points(ra, rb)
            out.knights[joust.a] += pa
            out.knights[joust.b] += pb
            log.append((pa, pb))
        out.jousts.append(log)
    for knight, team in enumerate(knight_teams):
        out.teams[team] += out.knights[knight]
    return out
