"""The shooting-results calculator (Formation Density): `/calc/shooting`, a GET form that works
without JavaScript (htmx swaps only the result), and its JSON twin
`POST /api/v1/rulesets/formation_density/shooting`."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.domain.base import Lang, decimal_text
from app.systems.formation_density import catalogue as cat
from app.systems.formation_density import shooting as sh
from app.systems.formation_density.dice import Dist
from app.web import i18n
from app.web.calculators.forms import FieldProblem, shown, whole
from app.web.templating import render

router = APIRouter()
FLAGS = ("shield", "armour", "cavalry", "cavalry_armour")




def _rows(d: Dist, lang: Lang) -> list[tuple[int, dict[str, str]]]:
    return [(v, shown(p, lang)) for v, p in d.fractions()]


def _read(params: Any) -> sh.ShootingRequest:
    number = {
        "hits": whole(params.get("hits"), i18n.gettext("Hits landed"), 0, sh.MAX_HITS, 6),
        "shooter_density": whole(params.get("shooter_density"),
                                 i18n.gettext("Shooters' density"), cat.MIN_DENSITY,
                                 cat.MAX_DENSITY, 4),
        "density": whole(params.get("density"), i18n.gettext("Target's density"),
                         cat.MIN_DENSITY, cat.MAX_DENSITY, 3),
        "warriors": whole(params.get("warriors"), i18n.gettext("Warriors in the target"),
                          cat.MIN_COUNT, cat.MAX_COUNT, 40),
    }
    flags = {f: f in params for f in FLAGS} if "hits" in params else {
        "shield": True, "armour": True, "cavalry": False, "cavalry_armour": False}
    return sh.ShootingRequest(hits=number["hits"], shooter_density=number["shooter_density"],
                              target=sh.Target(density=number["density"],
                                               warriors=number["warriors"], **flags))


@router.get("/calc/shooting", include_in_schema=False,
            dependencies=[Depends(i18n.page_language)])
def shooting_page(request: Request) -> Response:
    lang = i18n.request_lang(request)
    error: str | None = None
    query = sh.ShootingRequest(hits=6, shooter_density=4, target=sh.Target(density=3))
    try:
        query = _read(request.query_params)
    except FieldProblem as problem:
        error = str(problem)
    result: dict[str, Any] | None = None
    if not error:
        lost, parts = sh.losses(query)
        result = {"hits": sh.split(query.hits, query.target.cavalry), "lost": _rows(lost, lang),
                  "mean": shown(lost.mean(), lang)["exact"],
                  "mean_float": decimal_text(f"{float(lost.mean()):.2f}", lang),
                  "parts": {k: _rows(d, lang) for k, d in parts.items()},
                  "higher": query.shooter_density > query.target.density,
                  "retreat": shown(sh.retreat_chance(query, lost), lang)}
    raw = {k: request.query_params.get(k, "") for k in
           ("hits", "shooter_density", "density", "warriors")}
    return render(request, "calc/shooting.html",
                  {"error": error, "q": query, "raw": raw, "result": result,
                   "max_hits": sh.MAX_HITS, "min_density": cat.MIN_DENSITY,
                   "max_density": cat.MAX_DENSITY, "max_count": cat.MAX_COUNT},
                  blocks=["result"], status_code=422 if error else 200)
