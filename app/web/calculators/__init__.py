"""The calculators' pages in one router: Chainmail's Tables 20–24 and 27, Line and Square's
order test, Formation Density's melee and shooting, each in a module of its own (their JSON
twins are app/api/calculators.py); the order test's and the melee's modules also hold their
rule system's rules page."""

from __future__ import annotations

from fastapi import APIRouter

from app.web.calculators import (
    figure_sizes,
    man_to_man,
    melee,
    order_test,
    shooting,
    siege,
    tournament,
    weather,
)

router = APIRouter()
for module in (order_test, melee, weather, figure_sizes, siege, shooting, tournament, man_to_man):
    router.include_router(module.router)
