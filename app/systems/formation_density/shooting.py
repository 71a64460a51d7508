"""Shooting results (Результаты стрельбы): from the hits that landed, the warriors lost after the
shield wall and armour, and whether the target retreats.

The seed gives no roll to hit for shooting, so the hits landed are the input. Protection is
the melee's own (app.systems.formation_density.defence): "Стена Щитов" (one die; below the
density it blocks that many hits), then armour (one die; below the number of hits it blocks
that many). "При стрельбе по коннице половина воинов стреляет по всадникам, половина (в случае
округления, большая часть) – по лошадям. Защита всадников и лошадей учитывается отдельно":
taking hits rather than shooters, Muster splits the hits as the shooters are split, the larger
half (when odd) at the horses; riders have the shield wall and armour, horses cavalry armour
only, each rolled apart; a hit through on either takes the warrior. "Если в обстрелянном
отряде были потери … Если плотность строя стрелявшего отряда больше – обстрелянный отряд
отступает": the retreat's chance is the chance of any loss when the shooters' density is
higher, else none.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from app.domain.base import Whole
from app.systems.formation_density import catalogue as cat
from app.systems.formation_density.defence import Protection, withstand
from app.systems.formation_density.dice import Dist, total

MAX_HITS = 200


class Target(BaseModel):
    """The unit shot at: its density, size and protection (every warrior having it)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    density: Whole = Field(ge=cat.MIN_DENSITY, le=cat.MAX_DENSITY)
    warriors: Whole = Field(default=cat.MAX_COUNT, ge=cat.MIN_COUNT, le=cat.MAX_COUNT)
    shield: bool = False
    armour: bool = False
    cavalry: bool = False
    cavalry_armour: bool = False


class ShootingRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    hits: Whole = Field(ge=0, le=MAX_HITS, description="hits landed on the target")
    shooter_density: Whole = Field(ge=cat.MIN_DENSITY, le=cat.MAX_DENSITY)
    target: Target


def split(hits: int, cavalry: bool) -> dict[str, int]:
    """The hits at each part of the target: the larger half at the horses."""
    if not cavalry:
        return {"unit": hits}
    return {"riders": hits // 2, "horses": hits - hits // 2}


def _protection(target: Target, part: str) -> Protection:
    if part == "horses":
        return Protection(0, target.cavalry_armour)
    return Protection(target.density if target.shield else 0, target.armour)


def losses(request: ShootingRequest) -> tuple[Dist, dict[str, Dist]]:
    """Warriors lost in all, and by part (unit, or riders and horses), exactly."""
    parts = {part: withstand(Dist.point(0), Dist.point(n), _protection(request.target, part)).lost
             for part, n in split(request.hits, request.target.cavalry).items()}
    return total(parts.values()).cap(request.target.warriors), parts


def _fraction(p: Fraction) -> dict[str, int]:
    return {"numerator": p.numerator, "denominator": p.denominator}


def _dist_json(d: Dist) -> dict[str, object]:
    return {"distribution": [{"value": v, "probability": _fraction(p)} for v, p in d.fractions()],
            "expectation": _fraction(d.mean())}


def retreat_chance(request: ShootingRequest, lost: Dist) -> Fraction:
    if request.shooter_density <= request.target.density:
        return Fraction(0)
    return 1 - lost.probability(0)


def shooting_json(request: ShootingRequest) -> dict[str, object]:
    lost, parts = losses(request)
    higher = request.shooter_density > request.target.density
    return {"hits": split(request.hits, request.target.cavalry),
            "lost": _dist_json(lost),
            "parts": {part: _dist_json(d) for part, d in parts.items()},
            "retreat": {"shooter_density_higher": higher,
                        "probability": _fraction(retreat_chance(request, lost))}}
