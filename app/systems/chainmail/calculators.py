"""Chainmail's table calculators, as its `RuleSystem` offers them: weather (Table 20),
siege (Tables 21–22), man-to-man (Table 23), the tournament (Table 24) and figure sizes
(Table 27); their pages in `calc_pages.py` and `tournament_page.py`, their rules beside."""

from __future__ import annotations

from app.domain.calculator import Api, Calculator
from app.domain.translations import N_
from app.systems.chainmail import calc_pages as pages
from app.systems.chainmail import man_to_man as mm
from app.systems.chainmail import siege as sg
from app.systems.chainmail import weather as wx
from app.systems.chainmail.tournament_page import tournament_page

WEATHER = Calculator(
    "weather", N_("Weather calculator"), wx.WeatherRequest, pages.weather_page,
    "calc_weather.html", pages.weather_form, pages.weather_labels,
    lambda body: wx.forecast_json(body.start, body.checks),
    Api("weather_forecast", "Exact weather forecast by Chainmail's Table 20", """
    For each check (every even turn) 1 … `checks`: the exact chance of each weather after it
    (`distribution`) and of each event at it (`events`: heat wave, drizzle, downpour rolled at
    that check; mud formed by then — two downpour checks in a row, and it stays). `start` null:
    the starting d6 decides (1–3 clear, 4–5 cloudy, 6 rain)."""))

SIEGE = Calculator(
    "siege", N_("Siege calculator"), sg.SiegeRequest, pages.siege_page, "calc_siege.html",
    pages.siege_form, pages.siege_labels, sg.siege_json,
    Api("siege", "Hits, turns and ram damage against Chainmail's siege structures", """
    For each structure: `hits_to_destroy` per Table 22 weapon (⌈points / damage⌉); the
    battery's turns if every engine lands one hit a turn; the rams' exact damage distribution
    before all are disabled (2 points a turn each; a 9+ on 2d6 before its blow disables one),
    capped at the structure's points; and the exact distribution of turns until the structure
    falls to battery and rams together (`never`: no battery and every ram disabled first).""",
        refused="A field is invalid (points outside Table 21's range among them); the "
                "message names it"), frozenset(sg.STRUCTURE_TAGS.values()))

MAN_TO_MAN = Calculator(
    "man-to-man", N_("Man-to-man combat"), mm.Fight, pages.man_to_man_page,
    "calc_man_to_man.html", pages.man_to_man_form, pages.man_to_man_labels, mm.fight_json,
    Api("man_to_man", "Who strikes first, blows, parries and modifiers in man-to-man combat",
        """
    Weapon classes are the player's (Appendix B is not in the seed). For rounds 1 and 2 the
    first striker and the rule deciding it; for each side its blows a round, whether it strikes
    in round 1, its die modifiers, its parry (rule 4) and its horse's blow in round 2; and, when
    foot meets horse, Table 23's chances of being stunned after a dismounting."""))

TOURNAMENT = Calculator("tournament", N_("Tournament"), None, tournament_page,
                        "calc_tournament.html")

FIGURE_SIZES = Calculator(
    "figure-sizes", N_("Figure sizes"), pages.FigureScale, pages.figure_sizes_page,
    "calc_figure_sizes.html", pages.figure_sizes_form, pages.figure_sizes_labels,
    pages.figure_sizes_answer,
    Api("figure_sizes", "Fantasy figure sizes by Chainmail's Table 27, at any human scale",
        pages.figure_sizes_answer.__doc__ or "", method="GET",
        refused="The scale is invalid; the message names it"))

CALCULATORS = (WEATHER, SIEGE, MAN_TO_MAN, TOURNAMENT, FIGURE_SIZES)
