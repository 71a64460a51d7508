"""Table 20, the weather (Таблица 20: Погода), as an exact forecast over the checks.

"Если тип погоды ещё не установлен, бросьте кубик, чтобы определить погоду … Проверка
изменений погоды происходит каждый чётный ход": a d6 sets the start (1–3 clear, 4–5 cloudy,
6 rain), and every even turn one d6 is rolled in the current column; "Погода перемещается в
столбец, обозначенный указателем". Heat wave, drizzle and downpour leave the column as it is.

Mud ("Три хода нескончаемого ливня образуют грязь") is the seed's only rule over turns rather
than checks. Muster's reading: a check's result holds for its own turn and the odd turn after
it (check k on turn 2k covers turns 2k and 2k + 1), so one downpour is two turns and two
downpours in a row are four; mud forms at the second downpour check in a row (its turn is the
third unbroken turn of downpour), and, the seed naming no drying, it stays for the rest of the
battle. The forecast is a Markov chain over (weather, last check a downpour, mud), with exact
fractions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain.base import Whole
from app.domain.translations import NP_

Weather = Literal["clear", "cloudy", "rain"]
WEATHERS: tuple[Weather, ...] = ("clear", "cloudy", "rain")
EVENTS = ("heat_wave", "drizzle", "downpour", "mud")
FACES = range(1, 7)
MAX_CHECKS = 50

# The seed's words for the columns, the rows' results and the events (msgids in the
# "weather" context).
NAMES: dict[str, str] = {
    "clear": NP_("weather", "Clear"), "cloudy": NP_("weather", "Cloudy"),
    "rain": NP_("weather", "Rain"),
    "heat_wave": NP_("weather", "Heat wave"), "drizzle": NP_("weather", "Drizzle"),
    "downpour": NP_("weather", "Downpour"), "mud": NP_("weather", "Mud"),
}
RESULTS: dict[str, str] = {
    "no_change": NP_("weather", "no change"), "heat_wave": NP_("weather", "heat wave"),
    "drizzle": NP_("weather", "drizzle"), "downpour": NP_("weather", "downpour"),
    "to_clear": NP_("weather", "turns clear"),
    "to_cloudy": NP_("weather", "turns cloudy"),
    "to_rain": NP_("weather", "rain begins"),
}


@dataclass(frozen=True)
class Row:
    """One cell of Table 20: what the seed prints, the event it is, the column it leads to."""

    result: str  # a key of RESULTS
    event: str | None
    then: Weather


def _stay(column: Weather, result: str = "no_change", event: str | None = None) -> Row:
    return Row(result, event, column)


TABLE: dict[Weather, tuple[Row, ...]] = {
    "clear": (_stay("clear", "heat_wave", "heat_wave"), _stay("clear"), _stay("clear"),
              _stay("clear"), _stay("clear"), Row("to_cloudy", None, "cloudy")),
    "cloudy": (_stay("cloudy"), _stay("cloudy"), Row("to_clear", None, "clear"),
               _stay("cloudy"), _stay("cloudy"), Row("to_rain", None, "rain")),
    "rain": (_stay("rain", "drizzle", "drizzle"), _stay("rain", "drizzle", "drizzle"),
             Row("to_cloudy", None, "cloudy"), Row("to_cloudy", None, "cloudy"),
             _stay("rain", "downpour", "downpour"), _stay("rain", "downpour", "downpour")),
}


def starting_weather(die: int) -> Weather:
    """The starting roll: 1–3 clear, 4–5 cloudy, 6 rain."""
    return "clear" if die <= 3 else "cloudy" if die <= 5 else "rain"


def start_distribution(start: Weather | None) -> dict[Weather, Fraction]:
    if start is not None:
        return {w: Fraction(int(w == start)) for w in WEATHERS}
    return {w: Fraction(sum(starting_weather(d) == w for d in FACES), 6) for w in WEATHERS}


@dataclass(frozen=True)
class Check:
    """The chances after one check: the weather it leaves, and the events it brings."""

    check: int
    turn: int
    distribution: dict[Weather, Fraction]
    events: dict[str, Fraction]


# (weather, the last check was a downpour, mud has formed)
State = tuple[Weather, bool, bool]


def _step(states: dict[State, Fraction]) -> tuple[dict[State, Fraction], dict[str, Fraction]]:
    after: dict[State, Fraction] = {}
    events = {e: Fraction(0) for e in EVENTS[:3]}
    sixth = Fraction(1, 6)
    for (weather, last_downpour, mud), p in states.items():
        for row in TABLE[weather]:
            downpour = row.event == "downpour"
            if row.event:
                events[row.event] += p * sixth
            key = (row.then, downpour, mud or (downpour and last_downpour))
            after[key] = after.get(key, Fraction(0)) + p * sixth
    return after, events


def forecast(start: Weather | None, checks: int) -> list[Check]:
    """The exact chances after each of the checks 1 … `checks`."""
    states: dict[State, Fraction] = {(w, False, False): p
                                     for w, p in start_distribution(start).items() if p}
    out: list[Check] = []
    for k in range(1, checks + 1):
        states, events = _step(states)
        distribution = {w: sum((p for s, p in states.items() if s[0] == w), Fraction(0))
                        for w in WEATHERS}
        events["mud"] = sum((p for s, p in states.items() if s[2]), Fraction(0))
        out.append(Check(k, 2 * k, distribution, events))
    return out


def fraction_json(p: Fraction) -> dict[str, int]:
    return {"numerator": p.numerator, "denominator": p.denominator}


def forecast_json(start: Weather | None, checks: int) -> dict[str, object]:
    start_json = {w: fraction_json(p) for w, p in start_distribution(start).items()}
    return {"start": start, "start_distribution": start_json, "checks": [
        {"check": c.check, "turn": c.turn,
         "distribution": {w: fraction_json(p) for w, p in c.distribution.items()},
         "events": {e: fraction_json(p) for e, p in c.events.items()}} for c in forecast(
            start, checks)]}


@dataclass(frozen=True)
class Roll:
    """One roll at the table: the die, the column it was rolled in, the row that applied."""

    die: int
    column: Weather | None  # None: the starting roll
    row: Row | None
    weather: Weather


def roll(column: Weather | None, die_roll: Callable[[], int]) -> Roll:
    """A check in `column` (or, with no column, the starting roll) with a die from `die_roll`."""
    die = die_roll()
    if not 1 <= die <= 6:
        raise ValueError(f"a d6 shows 1 to 6, not {die}")
    if column is None:
        return Roll(die, None, None, starting_weather(die))
    row = TABLE[column][die - 1]
    return Roll(die, column, row, row.then)


class WeatherRequest(BaseModel):
    """`start`: the weather now, or null for the starting d6; `checks`: how many to forecast."""

    model_config = ConfigDict(extra="forbid")

    start: Weather | None = None
    checks: Whole = Field(ge=1, le=MAX_CHECKS, strict=True,
                        description="how many checks (every even turn) to forecast")
