"""Table 20 (weather): the seed's hand-worked chances and a brute-force enumeration of every
sequence of dice, against the Markov chain the calculator runs."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import pytest

from app.systems.chainmail import weather as wx


def test_one_and_two_checks_from_clear() -> None:
    one, two = wx.forecast("clear", 2)
    assert one.distribution == {"clear": F(5, 6), "cloudy": F(1, 6), "rain": 0}
    assert one.events["heat_wave"] == F(1, 6) and one.turn == 2
    assert two.distribution == {"clear": F(13, 18), "cloudy": F(1, 4), "rain": F(1, 36)}
    assert two.turn == 4


def test_one_check_from_rain() -> None:
    (one,) = wx.forecast("rain", 1)
    assert one.distribution == {"clear": 0, "cloudy": F(1, 3), "rain": F(2, 3)}
    assert one.events["drizzle"] == F(1, 3) and one.events["downpour"] == F(1, 3)
    assert one.events["mud"] == 0  # one downpour is two turns, not three


def test_mud_is_two_downpour_checks_in_a_row_and_stays() -> None:
    first, second, third = wx.forecast("rain", 3)
    assert second.events["mud"] == F(1, 3) * F(1, 3)  # 5–6, then 5–6
    assert third.events["mud"] > second.events["mud"]  # mud once formed stays


def test_the_starting_die_decides_when_the_weather_is_not_set() -> None:
    assert wx.start_distribution(None) == {"clear": F(1, 2), "cloudy": F(1, 3), "rain": F(1, 6)}
    assert [wx.starting_weather(d) for d in range(1, 7)] == ["clear"] * 3 + ["cloudy"] * 2 + [
        "rain"]


def _enumerated(start: wx.Weather | None, checks: int) -> tuple[dict[str, F], dict[str, F]]:
    """Every sequence of dice, the starting die included, walked through Table 20 by hand."""
    starts = [start] if start else [wx.starting_weather(d) for d in range(1, 7)]
    weather: dict[str, F] = {w: F(0) for w in wx.WEATHERS}
    events: dict[str, F] = {e: F(0) for e in wx.EVENTS}
    each = F(1, len(starts) * 6 ** checks)
    for first in starts:
        for dice in product(range(1, 7), repeat=checks):
            now, streak, mud, last = first, 0, False, None
            for die in dice:
                row = wx.TABLE[now][die - 1]
                streak = streak + 2 if row.event == "downpour" else 0
                mud = mud or streak >= 3  # three turns: two per check
                now, last = row.then, row.event
            weather[now] += each
            if last:
                events[last] += each
            events["mud"] += each if mud else 0
    return weather, events


@pytest.mark.parametrize("start", [None, "clear", "cloudy", "rain"])
@pytest.mark.parametrize("checks", [1, 2, 3, 4])
def test_the_chain_agrees_with_every_sequence_of_dice(start: wx.Weather | None,
                                                      checks: int) -> None:
    weather, events = _enumerated(start, checks)
    last = wx.forecast(start, checks)[-1]
    assert last.distribution == weather
    assert last.events == events


def test_the_json_gives_reduced_fractions() -> None:
    answer = wx.forecast_json("clear", 2)
    second = answer["checks"][1]  # type: ignore[index]
    assert second["distribution"]["clear"] == {"numerator": 13, "denominator": 18}
    assert second["events"]["heat_wave"] == {"numerator": 5, "denominator": 36}


def test_a_roll_names_the_row_that_applied() -> None:
    rolled = wx.roll("cloudy", lambda: 6)
    assert rolled.row and rolled.row.result == "to_rain" and rolled.weather == "rain"
    assert wx.roll(None, lambda: 4).weather == "cloudy"
    with pytest.raises(ValueError):
        wx.roll("clear", lambda: 7)
