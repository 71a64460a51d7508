"""The floor bench/load.py measures Muster against: a textbook FastAPI + SQLAlchemy + Jinja2
app, no middleware, doing the least each measured route must do, on Muster's own database
(DATABASE_URL), so that both read the same rows.

    GET  /healthz              an async constant
    GET  /api/v1/rosters/{id}  one SELECT of the stored roster JSON, answered as it is
    GET  /r/{id}               that row drawn as a plain HTML table by a Jinja template
    POST /api/v1/price         the body parsed into the roster's pydantic models (Muster's own,
                               the least a price must check), the figures summed

Run by bench/load.py as `uvicorn --factory bench.textbook:create`.
"""

from __future__ import annotations

import json
import os
from typing import Annotated

from fastapi import Body, FastAPI, Response
from fastapi.responses import HTMLResponse
from jinja2 import DictLoader, Environment
from sqlalchemy import create_engine, text

from app.systems import RosterDocument

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>{{ roster.name }}</title></head><body>
<h1>{{ roster.name }}</h1>
<table><tr><th>unit</th><th>troop</th><th>figures</th><th>weapon</th></tr>
{% for unit in roster.units %}{% for line in unit.lines %}
<tr><td>{{ unit.name }}</td><td>{{ line.troop }}</td><td>{{ line.figures }}</td>
<td>{{ line.weapon }}</td></tr>{% endfor %}{% endfor %}
</table></body></html>
"""


def create() -> FastAPI:
    engine = create_engine(os.environ["DATABASE_URL"])
    page = Environment(loader=DictLoader({"page.html": PAGE}), autoescape=True) \
        .get_template("page.html")
    app = FastAPI()
    select = text("SELECT document FROM roster WHERE id = :id")

    def stored(roster_id: str) -> str:
        with engine.connect() as connection:
            return str(connection.execute(select, {"id": roster_id}).scalar_one())

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/v1/rosters/{roster_id}")
    def read(roster_id: str) -> Response:
        return Response(stored(roster_id), media_type="application/json")

    @app.get("/r/{roster_id}")
    def view(roster_id: str) -> HTMLResponse:
        return HTMLResponse(page.render(roster=json.loads(stored(roster_id))))

    @app.post("/api/v1/price")
    async def price(roster: Annotated[RosterDocument, Body()]) -> dict[str, int]:  # type: ignore[valid-type]
        return {"figures": sum(line.figures for unit in roster.units for line in unit.lines)}

    return app
