"""The JSON shapes of a priced "Formation Density" roster and of the melee calculator."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain.results import IssueOut


class ExactOut(BaseModel):
    """An exact number: the reduced fraction as "n/d", and the same as a float."""

    exact: str
    float: float


class ShieldWallOut(BaseModel):
    chance: ExactOut  # the chance the die blocks anything (a roll below the density)
    expected_blocks: ExactOut  # hits blocked on average when enough hits land


class LineFiguresOut(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    line_class: str = Field(alias="class")
    weapon: str
    count: int
    in_front_rank: int
    hit_chance: ExactOut | None  # None for shock cavalry: it depends on the enemy's density
    hit_rule: Literal["below_own", "above_own", "above_enemy"]
    features: list[str]


class UnitFiguresOut(BaseModel):
    """A unit with the derived figures of §4."""

    name: str
    points: int | float | None
    density: int
    files: int
    warriors: int
    ranks: int
    full_ranks: int
    front_rank: int  # warriors striking: the front rank
    extra_hits: int  # from pikes and spears in full ranks behind the first
    cavalry: bool  # every warrior mounted
    shield_wall: ShieldWallOut | None  # None unless every warrior has a shield
    armour: bool
    cavalry_armour: bool
    features: list[str]
    lines: list[LineFiguresOut]


class FormationDensityResult(BaseModel):
    """The priced result of a "Formation Density" roster (points are the player's own)."""

    total: int | float
    points_limit: int | None
    remaining: int | float | None
    warriors: int
    units: list[UnitFiguresOut]
    issues: list[IssueOut]
    valid: bool


# ---------------------------------------------------------------- the melee calculator

class ProbabilityOut(BaseModel):
    value: int
    probability: str  # exact, "n/d"
    probability_float: float


class StatOut(BaseModel):
    """A whole-number outcome: its exact distribution and expectation."""

    expectation: str
    expectation_float: float
    distribution: list[ProbabilityOut]  # values of non-zero probability, ascending; sums to 1


class ParryingOut(BaseModel):
    parries: StatOut  # this side's sword hits, each able to parry one enemy hit
    lost: StatOut  # this side's losses when every sword hit parries
    enemy_lost: StatOut  # the enemy's losses then (the swords strike no one)


class SourceOut(BaseModel):
    roster: str
    unit: int


class MeleeSideOut(BaseModel):
    unit: UnitFiguresOut
    source: SourceOut | None
    strikes_first: bool
    hits: StatOut  # hits scored, sword hits included
    blocked: StatOut  # enemy hits this side's shield wall and armour blocked
    lost: StatOut  # warriors lost
    hits_received: ExactOut
    hits_received_by_target: dict[str, ExactOut]  # unit, or riders and horses
    armour_piercing_received: ExactOut
    blocked_by_shield_wall: ExactOut
    blocked_by_armour: ExactOut
    parrying: ParryingOut | None  # only for a side with swords in its front rank
    issues: list[IssueOut]


class MeleeResult(BaseModel):
    a: MeleeSideOut
    b: MeleeSideOut
