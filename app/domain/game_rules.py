"""What a rule system gives the game companion (`app/systems/game/`): its `GameRules` (its
`game.py`: the army's setup, what a unit tests and with what odds, the army's thresholds, its
weather table), the companion's refusal, and the dice every roll is made with.

A roller is a function of the number of sides that answers one face, 1 … sides.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from fractions import Fraction
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from app.domain import limits
from app.domain.base import Lang, whole_in

Roller = Callable[[int], int]


def secure(sides: int) -> int:
    """One die of `sides` faces from the operating system's random source: a game's dice
    must be neither predictable nor repeatable by anyone who sees the log."""
    return secrets.randbelow(sides) + 1


def d6(roller: Roller) -> int:
    face = roller(6)
    if not 1 <= face <= 6:
        raise ValueError(f"a d6 shows 1 to 6, not {face}")
    return face


def two_dice(roller: Roller) -> list[int]:
    return [d6(roller), d6(roller)]


def chance_json(p: Fraction) -> dict[str, int]:
    return {"numerator": p.numerator, "denominator": p.denominator}


def percent(chance: Fraction) -> str:
    """A chance as the game page writes it beside a test's button: "58%"."""
    return f"{round(float(chance) * 100)}%"


def number(value: Fraction) -> int | float:
    # Points are halves, and a unit's strength a fraction of them: shown to 3 places.
    return int(value) if value.denominator == 1 else round(float(value), 3)


class GameRefused(ValueError):
    """A change the game cannot take: `field` names what is wrong (a request field, or
    "game" for the game's own state); `conflict` when the input is well formed but this game
    refuses it (nothing to undo, a test the unit does not take, a figure it has not lost)."""

    def __init__(self, field: str, code: str, conflict: bool = False) -> None:
        super().__init__(f"{field}: {code}")
        self.field, self.code, self.conflict = field, code, conflict


class TestAsk(BaseModel):
    """A test a player asks for one unit (`POST /api/v1/games/{id}/tests`); each system's
    tests are its `GameRules.ASKS`, told apart by their `test`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    unit: Annotated[whole_in(0, limits.MAX_UNITS - 1),  # type: ignore[valid-type]
                    Field(description="the unit's index in `units`")]


class WeatherTable(Protocol):
    """A system's weather table (Chainmail's Table 20)."""

    def starting_weather(self, die: int) -> str: ...

    def roll(self, column: str, die: Callable[[], int]) -> Any: ...


class GameRules(Protocol):
    """A rule system's part of the game companion. Units and armies are the companion's
    plain setups (dicts) and states (`app/systems/game/state.py`: `Army`, `UnitState`)."""

    # Its weather table, or None: the game plays without weather.
    weather: WeatherTable | None
    ASKS: tuple[type[TestAsk], ...]  # the tests a player may ask for, as the API takes them

    def setup(self, document: Any, weather: str, castle_defenders: bool) -> dict[str, Any]:
        """The army's setup, as plain JSON, from a roster document."""
        ...

    def roll(self, unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
             needed: Callable[[], int | None]) -> dict[str, Any]:
        """The test `ask["test"]` rolled for the unit (GameRefused for one it does not take);
        `needed` gives the total the player's table asks, where the test needs one."""
        ...

    def outcome(self, unit: dict[str, Any], rolled: dict[str, Any]) -> str | None:
        """What the test's result does to the unit ("halted", "falls_back", "routs")."""
        ...

    def army_state(self, army: Any) -> str:
        """"steady", or the state the army's losses put it in."""
        ...

    def thresholds(self, army: Any) -> dict[str, Any]:
        """The army's losses beside the thresholds it tests or breaks at."""
        ...

    def page_context(self, army: dict[str, Any], lang: Lang) -> dict[str, Any]:
        """What the game page's forms offer for this system's tests, for the army's setup."""
        ...
