"""Chainmail's table calculators' pages (Tables 20–23 and 27; the tournament's is
`tournament_page.py`): each page's input read from its address, its fields' labels and its
context, pure. The routes are every calculator's (app/domain/calculator.py)."""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from app.domain.base import Lang
from app.domain.calculator import Asked, Page, Query, shown
from app.domain.translations import ptr, tr
from app.systems.chainmail import figure_sizes as fs
from app.systems.chainmail import man_to_man as mm
from app.systems.chainmail import siege as sg
from app.systems.chainmail import weather as wx
from app.systems.chainmail.siege_rules import REFERENCE, movement_rows

# ---------------------------------------------------------------- weather (Table 20)

DEFAULT_CHECKS = 6


def weather_form(query: Query) -> dict[str, Any]:
    return {"start": query.get("start") or None, "checks": query.get("checks") or DEFAULT_CHECKS}


def weather_labels(query: Query, lang: Lang) -> dict[str, str]:
    return {"start": tr(lang, "Starting weather"), "checks": tr(lang, "Checks")}


def _name(key: str, lang: Lang) -> str:
    return ptr(lang, "weather", wx.NAMES[key])


def _result(key: str, lang: Lang) -> str:
    return ptr(lang, "weather", wx.RESULTS[key])


def _roll(current: str, lang: Lang) -> dict[str, Any]:
    rolled = wx.roll(current or None, lambda: secrets.randbelow(6) + 1)  # type: ignore[arg-type]
    return {"die": rolled.die, "column": current and _name(current, lang),
            "result": rolled.row and _result(rolled.row.result, lang),
            "weather": rolled.weather, "weather_name": _name(rolled.weather, lang)}


def weather_page(asked: Asked) -> Page:
    lang, query, error = asked.lang, asked.query, asked.error
    rolling, current = "roll" in query, (query.get("current") or "").strip()
    if rolling and current and current not in wx.WEATHERS and not error:
        error = tr(lang, "%(field)s: not one of the choices", field=tr(lang, "Weather now"))
    rolled = _roll(current, lang) if rolling and not error else None
    value = asked.value or wx.WeatherRequest(checks=DEFAULT_CHECKS)
    rows = [] if error else [
        {"check": c.check, "turn": c.turn,
         "weather": {w: shown(p, lang) for w, p in c.distribution.items()},
         "events": {e: shown(p, lang) for e, p in c.events.items()}}
        for c in wx.forecast(value.start, value.checks)]
    table = [{"die": die, "cells": [_result(wx.TABLE[w][die - 1].result, lang)
                                    for w in wx.WEATHERS]} for die in wx.FACES]
    context = {"error": error, "start": value.start or "", "checks": value.checks,
               "rows": rows, "rolled": rolled, "roll_error": error if rolling else None,
               "max_checks": wx.MAX_CHECKS, "table": table,
               "names": {k: _name(k, lang) for k in wx.NAMES},
               "current": rolled["weather"] if rolled else query.get("current", "")}
    return Page(context, ("roll",) if rolling else ("result",), error, no_store=bool(rolled))


# ---------------------------------------------------------------- figure sizes (Table 27)

class FigureScale(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scale: int = Field(ge=fs.MIN_SCALE, le=fs.MAX_SCALE, description="human figures' height, mm")


def figure_sizes_form(query: Query) -> dict[str, Any]:
    return {"scale": query.get("scale") or 28}


def figure_sizes_labels(query: Query, lang: Lang) -> dict[str, str]:
    return {"scale": tr(lang, "Human scale, mm")}


def figure_sizes_answer(value: FigureScale) -> dict[str, Any]:
    """Each kind's size in whole mm (halves up) and exactly. At 30 and 40 mm the seed's table;
    elsewhere the builder's extension: scaled from the 30 mm column up to 30 mm, from the 40 mm
    column from 40 mm, in a straight line between the two columns in between."""
    return {"scale": value.scale, "from_the_table": value.scale in fs.SEED_SCALES,
            "sizes": fs.sizes(value.scale)}


def figure_sizes_page(asked: Asked) -> Page:
    lang, scale = asked.lang, asked.value.scale if asked.value else 28
    names = {k.id: k.name(lang) for k in fs.KINDS}
    table = [{"name": names[k.id], "at_30": k.at_30, "at_40": k.at_40} for k in fs.KINDS]
    result = [] if asked.error else [{"name": names[row["kind"]], "mm": row["mm"]}  # type: ignore[index]
                                     for row in fs.sizes(scale)]
    return Page({"error": asked.error, "scale": scale, "table": table, "result": result,
                 "raw": asked.query.get("scale", ""), "seed_scale": scale in fs.SEED_SCALES,
                 "min": fs.MIN_SCALE, "max": fs.MAX_SCALE,
                 "human_sized": tr(lang, fs.HUMAN_SIZED)})


# ---------------------------------------------------------------- man to man (Table 23)

FLAGS = {"mounted": "mounted", "higher": "higher", "leader": "leader",
         "berserker": "berserker", "charging": "charge", "long_weapon": "long"}
SIDES = {"attacker": ("a", 5, "Attacker"), "defender": ("d", 3, "Defender")}


def man_to_man_form(query: Query) -> dict[str, Any]:
    sides = {side: {"weapon_class": query.get(f"{p}_class") or default,
                    "foot_weight": query.get(f"{p}_weight") or "medium",
                    **{key: f"{p}_{flag}" in query for key, flag in FLAGS.items()}}
             for side, (p, default, _) in SIDES.items()}
    return {**sides, "attacked_from": query.get("from") or "front"}


def man_to_man_labels(query: Query, lang: Lang) -> dict[str, str]:
    labels = {"attacked_from": tr(lang, "Attacked from")}
    for side, (_, _, name) in SIDES.items():
        labels[f"{side}.weapon_class"] = tr(lang, "%(side)s: weapon class", side=tr(lang, name))
        labels[f"{side}.foot_weight"] = tr(lang, "%(side)s: foot", side=tr(lang, name))
    return labels


def man_to_man_page(asked: Asked) -> Page:
    fight = asked.value or mm.Fight(attacker=mm.Fighter(weapon_class=5),
                                    defender=mm.Fighter(weapon_class=3))
    dismount = [(turns, shown(p, asked.lang)) for turns, p in mm.dismount_chances().items()]
    return Page({"error": asked.error, "fight": fight,
                 "result": None if asked.error else mm.fight_json(fight),
                 "dismount": dismount, "max_class": mm.MAX_CLASS,
                 "gap": mm.gap(fight, "defender")})


# ---------------------------------------------------------------- siege (Tables 21–22)

PAGE_STRUCTURES = 3


def _slots(query: Query) -> list[tuple[int, str]]:
    """The form's structure rows that name a kind, by their place; a new page: a bastion."""
    fresh = "s0" not in query
    kinds = [(i, (query.get(f"s{i}") or "").strip() or ("bastion" if i == 0 and fresh else ""))
             for i in range(PAGE_STRUCTURES)]
    return [(i, kind) for i, kind in kinds if kind]


def siege_form(query: Query) -> dict[str, Any]:
    fresh = "s0" not in query
    structures = [{"kind": kind, "points": query.get(f"p{i}") or (
        sg.STRUCTURES[kind].least if kind in sg.STRUCTURES else 0)} for i, kind in _slots(query)]
    weapons = [{"kind": e.id, "count": query.get(e.id) or int(e.id == "bombard" and fresh)}
               for e in sg.ENGINES.values()]
    return {"structures": structures, "weapons": weapons,
            "rams": query.get("rams") or int(fresh)}


def siege_labels(query: Query, lang: Lang) -> dict[str, str]:
    labels = {"structures": tr(lang, "Structure %(n)s", n=1), "rams": tr(lang, "Covered rams")}
    for j, (i, _) in enumerate(_slots(query)):
        labels[f"structures[{j}]"] = labels[f"structures[{j}].kind"] = tr(
            lang, "Structure %(n)s", n=i + 1)
        labels[f"structures[{j}].points"] = tr(lang, "Structure points %(n)s", n=i + 1)
    for k, engine in enumerate(sg.ENGINES.values()):
        labels[f"weapons[{k}].count"] = engine.name(lang)
    return labels


def _siege_result(value: sg.SiegeRequest, lang: Lang) -> list[dict[str, Any]]:
    battery, rams = sg.battery_damage(value.weapons), value.rams
    out = []
    for structure in value.structures:
        kind, points = structure.kind, structure.points
        falls, never = sg.turns_to_fall(points, battery, rams)
        damage = sg.ram_damage(rams, points)
        out.append({
            "name": sg.STRUCTURES[kind].name(lang), "points": points,
            "hits": [(e.name(lang), e.damage, n) for e, n in zip(
                sg.ENGINES.values(), sg.hits_to_destroy(points).values(), strict=True)],
            "battery": battery, "battery_turns": -(-points // battery) if battery else None,
            "damage": [(d, shown(p, lang)) for d, p in damage.items()],
            "destroyed": shown(damage.get(points, Fraction(0)) if rams else Fraction(0), lang),
            "turns": [(t, shown(p, lang)) for t, p in falls.items()],
            "never": shown(never, lang) if never else None,
        })
    return out


def siege_page(asked: Asked) -> Page:
    lang, query, value = asked.lang, asked.query, asked.value
    fresh = "s0" not in query
    rows = [{"i": i, "kind": query.get(f"s{i}", "bastion" if i == 0 else ""),
             "points": query.get(f"p{i}", "40" if i == 0 and fresh else "")}
            for i in range(PAGE_STRUCTURES)]
    return Page({
        "error": asked.error, "rows": rows,
        "weapons": {w.kind: w.count for w in value.weapons} if value else dict.fromkeys(
            sg.ENGINES, 0), "rams": value.rams if value else 0,
        "structures": [(s.id, s.name(lang), s.least, s.most) for s in sg.STRUCTURES.values()],
        "engines": [(e.id, e.name(lang), e.damage) for e in sg.ENGINES.values()],
        "result": _siege_result(value, lang) if value else [],
        "disable": shown(sg.DISABLE, lang), "movement": movement_rows(),
        "reference": [(p.id, tr(lang, p.title), tr(lang, p.text)) for p in REFERENCE],
        "max_engines": sg.MAX_ENGINES, "max_rams": sg.MAX_RAMS,
    })
