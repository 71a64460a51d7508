"""The calculators' pages in one router: Chainmail's Tables 20–24 and 27, Line and Square's
order test, Formation Density's melee and shooting, each in a module of its own (their JSON
twins are app/api/calculators.py); the order test's (`orders.py`) and the melee's modules
also hold their rule system's rules page."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from app.web import i18n
from app.web.calculators import (
    figure_sizes,
    man_to_man,
    melee,
    orders,
    shooting,
    siege,
    tournament,
    weather,
)
from app.web.templating import render

router = APIRouter()
for module in (orders, melee, weather, figure_sizes, siege, shooting, tournament, man_to_man):
    router.include_router(module.router)


@router.get("/calc", include_in_schema=False, dependencies=[Depends(i18n.page_language)])
def calculators_page(request: Request) -> Response:
    """Every calculator on one page, by rule system: the navigation's "Calculators"."""
    return render(request, "calc/index.html")
