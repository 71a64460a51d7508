"""Formation Density's shooting results: hand-worked cases and every roll of the dice."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from app.systems.formation_density import shooting as sh

DIE = range(1, 7)


def _after(hits: int, density: int, shield: bool, armour: bool, s: int, a: int) -> int:
    """One roll of the shield wall's die `s` and the armour's die `a`, by the seed's words."""
    if shield and s < density:
        hits -= min(s, hits)
    if armour and a < hits:
        hits -= a
    return hits


def _by_dice(req: sh.ShootingRequest) -> dict[int, F]:
    t = req.target
    parts = sh.split(req.hits, t.cavalry)
    out: dict[int, F] = {}
    for s, a, h in product(DIE, DIE, DIE):
        if t.cavalry:
            lost = (_after(parts["riders"], t.density, t.shield, t.armour, s, a)
                    + _after(parts["horses"], t.density, False, t.cavalry_armour, 1, h))
        else:
            lost = _after(parts["unit"], t.density, t.shield, t.armour, s, a)
        lost = min(lost, t.warriors)
        out[lost] = out.get(lost, F(0)) + F(1, 216)
    return out


def test_six_hits_on_a_shielded_armoured_unit_by_hand() -> None:
    req = sh.ShootingRequest(hits=6, shooter_density=4,
                             target=sh.Target(density=3, shield=True, armour=True))
    lost, _ = sh.losses(req)
    # Shield 1 or 2 (1/6 each) leaves 5 or 4; then armour blocks a roll below what is left.
    assert lost.probability(1) == F(1, 6) and lost.probability(6) == F(1, 9)
    assert lost.mean() == F(61, 18)
    assert sh.retreat_chance(req, lost) == 1  # always a loss, and density 4 > 3


def test_the_larger_half_goes_at_the_horses() -> None:
    assert sh.split(7, True) == {"riders": 3, "horses": 4}
    assert sh.split(1, True) == {"riders": 0, "horses": 1}
    assert sh.split(7, False) == {"unit": 7}


def test_no_retreat_unless_the_shooters_are_denser() -> None:
    for shooter in (1, 2, 3):
        req = sh.ShootingRequest(hits=5, shooter_density=shooter, target=sh.Target(density=3))
        assert sh.retreat_chance(req, sh.losses(req)[0]) == 0
    req = sh.ShootingRequest(hits=1, shooter_density=6,
                             target=sh.Target(density=5, armour=True, shield=True))
    lost, _ = sh.losses(req)
    # One hit: the shield wall blocks it on 1–4; armour never (no roll is below 1).
    assert sh.retreat_chance(req, lost) == lost.probability(1) == F(2, 6)


@pytest.mark.parametrize("hits", [0, 1, 2, 5, 9])
@pytest.mark.parametrize("density", [1, 3, 6])
@pytest.mark.parametrize("shield,armour,cavalry,horse", [
    (False, False, False, False), (True, False, False, False), (False, True, False, False),
    (True, True, False, False), (True, True, True, False), (False, True, True, True),
    (True, False, True, True)])
def test_every_roll_of_the_dice_agrees(hits: int, density: int, shield: bool, armour: bool,
                                       cavalry: bool, horse: bool) -> None:
    req = sh.ShootingRequest(hits=hits, shooter_density=4, target=sh.Target(
        density=density, warriors=7, shield=shield, armour=armour, cavalry=cavalry,
        cavalry_armour=horse))
    lost, _ = sh.losses(req)
    assert dict(lost.fractions()) == {k: v for k, v in _by_dice(req).items() if v}
