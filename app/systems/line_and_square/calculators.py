"""Line and Square's table calculator, as its `RuleSystem` offers it: the order test, its
page a GET form (it works without JavaScript, htmx swaps only the result)."""

from __future__ import annotations

from typing import Any

from app.domain.calculator import Api, Asked, Calculator, Page, Query
from app.domain.translations import N_
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.orders import FACES, OrderTestQuery, chance_json, passes

FORM_FIELDS = ("discipline", "formation", "officer", "disorder")


def _form(query: Query) -> dict[str, Any]:
    # An unticked checkbox sends nothing; a blank number field means "as before": 0.
    return {k: query.get(k) for k in FORM_FIELDS if (query.get(k) or "").strip()}


def _page(asked: Asked) -> Page:
    test = (asked.value or OrderTestQuery()).test()
    # The 36 throws as cells of a 6 × 6 chart: first die across, second down.
    grid = [{"first": a, "second": b, "passes": passes(a, b, test.modifier),
             "total": a + b + test.modifier} for b in FACES for a in FACES]
    names = {"formations": {key: f.name(asked.lang) for key, f in cat.FORMATIONS.items()}}
    return Page({"names": names, "query": asked.value or OrderTestQuery(),
                 "error": asked.error, "chance": chance_json(test), "grid": grid,
                 "disciplines": list(range(cat.MIN_DISCIPLINE, cat.MAX_DISCIPLINE + 1)),
                 "max_disorder": cat.MAX_DISORDER})


CALCULATORS = (Calculator(
    "order-test", N_("Order test calculator"), OrderTestQuery, _page, "calc_order_test.html",
    _form, answer=lambda query: chance_json(query.test()),
    api=Api("order_test_chance", "Exact chance of passing a Line and Square order test",
            """
    2d6 + discipline (+1 close order, +1 square, +1 officer in reach, −1 per disorder
    marker) passes on 6 or more; 1-1 always fails, 6-6 always passes. `passing_throws` of
    `throws` (36), the reduced fraction `numerator`/`denominator`, and `chance` as a float.""",
            method="GET", refused="A parameter is invalid; the message names it")),)
