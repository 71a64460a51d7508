"""The JSON shape of a priced "Line and Square" roster."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain.results import IssueOut


class OrderChanceOut(BaseModel):
    """The exact chance of passing an order test in one situation."""

    discipline: int
    formation: str
    officer_in_reach: bool
    disorder: int
    modifier: int
    passing_throws: int  # of the 36 throws of two dice
    throws: int
    numerator: int  # the chance as a reduced fraction
    denominator: int
    chance: float


class UnitOut(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    name: str
    unit_class: str = Field(alias="class")  # as in the roster document
    figures: int
    speed: int
    accuracy: int | None
    discipline: int
    points: int | float
    officer: bool
    formation: str
    may_form_square: bool
    actions: list[str]  # action ids the unit may declare in its formation
    order_test: list[OrderChanceOut]  # no officer (not for his own unit) / officer × 0–2 markers


class BreakPointsOut(BaseModel):
    starting: int | float  # the army's starting points total
    half: int  # half the starting points, rounded up
    three_quarters: int  # three quarters of the starting points, rounded up
    morale_below: int | float  # every unit tests morale once strength is below this (S/2)
    flight_below: int | float  # the rest flee once strength is below this (S/4)
    morale_text: str
    flight_text: str


class LineAndSquareResult(BaseModel):
    """The priced result of a "Line and Square" roster (response of price, part of reads)."""

    total: int | float
    points_limit: int  # the limit that applied
    points_limit_source: Literal["roster", "default"]  # the roster's own, or the usual 30
    remaining: int | float
    figures: int
    officers: int
    units: list[UnitOut]
    break_points: BreakPointsOut
    square_rules: list[str]  # the square's rules, for units that may form one (else empty)
    issues: list[IssueOut]
    valid: bool
