"""The figure-size calculator (Chainmail, Table 27): `/calc/figure-sizes`, a GET form that works
without JavaScript (htmx swaps only the result), and `GET /api/v1/rulesets/chainmail/
figure-sizes?scale=N`. The seed's two columns, and the builder's own extension to any scale."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.domain.translations import tr
from app.systems.chainmail import figure_sizes as fs
from app.web import i18n
from app.web.calculators.forms import FieldProblem, whole
from app.web.templating import render

router = APIRouter()
DEFAULT_SCALE = 28




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
    names = {k.id: k.name(lang) for k in fs.KINDS}
    table = [{"name": names[k.id], "at_30": k.at_30, "at_40": k.at_40} for k in fs.KINDS]
    result = [] if error else [{"name": names[row["kind"]], "mm": row["mm"]}  # type: ignore[index]
                               for row in fs.sizes(scale)]
    context = {"error": error, "scale": scale, "table": table, "result": result,
               "raw": request.query_params.get("scale", ""),
               "seed_scale": scale in fs.SEED_SCALES, "min": fs.MIN_SCALE, "max": fs.MAX_SCALE,
               "human_sized": tr(lang, fs.HUMAN_SIZED)}
    return render(request, "calc/figure_sizes.html", context, blocks=["result"],
                  status_code=422 if error else 200)
