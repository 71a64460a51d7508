""""Line and Square" pages of its own: the order-test calculator (`/calc/order-test`, and its
JSON twin under the ruleset's API) and the rules page the calculator is linked from.

The calculator is a GET form: it works without JavaScript, and htmx swaps only the result.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import ValidationError
from starlette.responses import Response

from app.domain.base import Lang
from app.domain.translations import tr
from app.systems import get_system
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.orders import FACES, OrderTestQuery, chance_json, passes
from app.systems.line_and_square.square import square_rules
from app.systems.line_and_square.validation import RULE_TITLES
from app.web.i18n import page_language, request_lang
from app.web.problems import problem_text
from app.web.templating import render

router = APIRouter()
FORM_FIELDS = ("discipline", "formation", "officer", "disorder")




def _names(lang: Lang) -> dict[str, dict[str, str]]:
    system = get_system(cat.RULESET_ID)
    assert system is not None
    return system.names(lang)


def _grid(modifier: int) -> list[dict[str, Any]]:
    """The 36 throws as cells of a 6 × 6 chart: first die across, second down."""
    return [{"first": a, "second": b, "passes": passes(a, b, modifier),
             "total": a + b + modifier} for b in FACES for a in FACES]


@router.get("/calc/order-test", include_in_schema=False,
            dependencies=[Depends(page_language)])
def order_test_page(request: Request) -> Response:
    lang = request_lang(request)
    raw = {k: request.query_params[k] for k in FORM_FIELDS if k in request.query_params}
    # An unticked checkbox sends nothing; a blank number field means "as before": 0.
    values: dict[str, Any] = {k: v for k, v in raw.items() if v.strip() != ""}
    error: str | None = None
    status = 200
    try:
        query = OrderTestQuery(**values)
    except ValidationError as exc:
        error = problem_text(exc.errors())
        status = 422
        query = OrderTestQuery()
    test = query.test()
    context = {"names": _names(lang), "query": query, "raw": raw, "error": error,
               "chance": chance_json(test), "grid": _grid(test.modifier),
               "disciplines": list(range(cat.MIN_DISCIPLINE, cat.MAX_DISCIPLINE + 1)),
               "max_disorder": cat.MAX_DISORDER}
    return render(request, "calc/order_test.html", context, blocks=["result"],
                  status_code=status)


@router.get("/rules/line_and_square", include_in_schema=False)
def rules_page(request: Request) -> Response:
    lang = request_lang(request)
    system = get_system(cat.RULESET_ID)
    assert system is not None
    return render(request, "systems/line_and_square/rules.html",
                  {"names": _names(lang), "catalogue": system.catalogue(),
                   "square_rules": square_rules(lang),
                   "rule_titles": {code: tr(lang, title) for code, title in RULE_TITLES.items()}})
