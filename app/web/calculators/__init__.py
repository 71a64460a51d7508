"""The table calculators' routers in one: Chainmail's Tables 20–24 and 27 and Formation
Density's shooting results, each in a module of its own."""

from __future__ import annotations

from fastapi import APIRouter

from app.routes import figure_sizes, man_to_man, shooting, siege, tournament, weather

router = APIRouter()
for module in (weather, figure_sizes, siege, shooting, tournament, man_to_man):
    router.include_router(module.router)
