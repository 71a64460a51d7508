"""The weather calculator (Chainmail, Table 20): `/calc/weather`, a GET form that works without
JavaScript (htmx swaps only the forecast or the roll), and its JSON twin
`POST /api/v1/rulesets/chainmail/weather`. The roll button rolls one d6 on the server."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.domain.base import Lang
from app.domain.translations import ptr
from app.systems.chainmail import weather as wx
from app.web import i18n
from app.web.calculators.forms import FieldProblem, choice, shown, whole
from app.web.templating import render

router = APIRouter()
DEFAULT_CHECKS = 6




def _name(key: str, lang: Lang) -> str:
    return ptr(lang, "weather", wx.NAMES[key])


def _result(key: str, lang: Lang) -> str:
    return ptr(lang, "weather", wx.RESULTS[key])


def _rows(start: wx.Weather | None, checks: int, lang: Lang) -> list[dict[str, Any]]:
    return [{"check": c.check, "turn": c.turn,
             "weather": {w: shown(p, lang) for w, p in c.distribution.items()},
             "events": {e: shown(p, lang) for e, p in c.events.items()}}
            for c in wx.forecast(start, checks)]


def _table(lang: Lang) -> list[dict[str, Any]]:
    return [{"die": die, "cells": [_result(wx.TABLE[w][die - 1].result, lang)
                                   for w in wx.WEATHERS]} for die in wx.FACES]


def _roll(params: Any, lang: Lang) -> dict[str, Any]:
    raw = params.get("current", "")
    column = choice(raw, i18n.gettext("Weather now"), wx.WEATHERS, "") or None
    rolled = wx.roll(column, lambda: secrets.randbelow(6) + 1)  # type: ignore[arg-type]
    return {"die": rolled.die, "column": column and _name(column, lang),
            "result": rolled.row and _result(rolled.row.result, lang),
            "weather": rolled.weather, "weather_name": _name(rolled.weather, lang)}


@router.get("/calc/weather", include_in_schema=False,
            dependencies=[Depends(i18n.page_language)])
def weather_page(request: Request) -> Response:
    lang = i18n.request_lang(request)
    params = request.query_params
    error: str | None = None
    start_raw = params.get("start", "")
    start: str = ""
    checks = DEFAULT_CHECKS
    rolled = None
    try:
        start = choice(start_raw, i18n.gettext("Starting weather"), wx.WEATHERS, "")
        checks = whole(params.get("checks"), i18n.gettext("Checks"), 1, wx.MAX_CHECKS,
                       DEFAULT_CHECKS)
        if "roll" in params:
            rolled = _roll(params, lang)
    except FieldProblem as problem:
        error = str(problem)
    rows = [] if error else _rows(start or None, checks, lang)  # type: ignore[arg-type]
    context = {"error": error, "start": start, "checks": checks, "rows": rows,
               "rolled": rolled, "roll_error": error if "roll" in params else None,
               "max_checks": wx.MAX_CHECKS, "table": _table(lang),
               "names": {k: _name(k, lang) for k in wx.NAMES},
               "current": params.get("current", "") if not rolled else rolled["weather"]}
    headers = {"Cache-Control": "no-store"} if rolled else None
    return render(request, "calc/weather.html", context,
                  blocks=["roll"] if "roll" in params else ["result"],
                  status_code=422 if error else 200, headers=headers)
