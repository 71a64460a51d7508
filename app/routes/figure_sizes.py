"""The figure-size calculator (Chainmail, Table 27): `/calc/figure-sizes`, a GET form that works
without JavaScript (htmx swaps only the result), and `GET /api/v1/rulesets/chainmail/
figure-sizes?scale=N`. The seed's two columns, and the builder's own extension to any scale."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from starlette.responses import Response

from app.domain.chainmail import figure_sizes as fs
from app.domain.text import tr
from app.routes.calc_forms import FieldProblem, whole
from app.schemas import ValidationFailure
from app.web import i18n
from app.web.templating import render

router = APIRouter()
DEFAULT_SCALE = 28


@router.get("/api/v1/rulesets/chainmail/figure-sizes", tags=["pricing"],
            summary="Fantasy figure sizes by Chainmail's Table 27, at any human scale",
            responses={422: {"model": ValidationFailure,
                             "description": "The scale is invalid; the message names it"}})
def figure_sizes(scale: Annotated[int, Query(ge=fs.MIN_SCALE, le=fs.MAX_SCALE,
                                             description="human figures' height, mm")]
                 ) -> dict[str, Any]:
    """Each kind's size in whole mm (halves up) and exactly. At 30 and 40 mm the seed's table;
    elsewhere the builder's extension: scaled from the 30 mm column up to 30 mm, from the 40 mm
    column from 40 mm, in a straight line between the two columns in between."""
    return {"scale": scale, "from_the_table": scale in fs.SEED_SCALES,
            "sizes": fs.sizes(scale)}


@router.get("/calc/figure-sizes", include_in_schema=False,
            dependencies=[Depends(i18n.page_language)])
def figure_sizes_page(request: Request) -> Response:
    lang = i18n.request_lang(request)
    error: str | None = None
    scale = DEFAULT_SCALE
    try:
        scale = whole(request.query_params.get("scale"), i18n.gettext("Human scale, mm"),
                      fs.MIN_SCALE, fs.MAX_SCALE, DEFAULT_SCALE)
    except FieldProblem as problem:
        error = str(problem)
    key = "name_ru" if lang == "ru" else "name_en"
    table = [{"name": getattr(k, key), "at_30": k.at_30, "at_40": k.at_40} for k in fs.KINDS]
    result = [] if error else [{"name": row[key], "mm": row["mm"]} for row in fs.sizes(scale)]
    context = {"error": error, "scale": scale, "table": table, "result": result,
               "raw": request.query_params.get("scale", ""),
               "seed_scale": scale in fs.SEED_SCALES, "min": fs.MIN_SCALE, "max": fs.MAX_SCALE,
               "human_sized": tr(lang, fs.HUMAN_SIZED)}
    return render(request, "calc/figure_sizes.html", context, blocks=["result"],
                  status_code=422 if error else 200)
