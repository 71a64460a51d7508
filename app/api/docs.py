"""The interactive API documentation at /docs (Swagger UI), served from this server.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline script; the
Content-Security-Policy of every answer (`script-src 'self'`) forbids both, which left /docs
blank. Here the Swagger UI files come from the fastapi-offline package and the page starts them
with a script file of ours, so the policy stays strict.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from markupsafe import escape

ASSETS = "/static/api-docs"
PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>{title} — API</title>
  <link rel="icon" href="/static/favicon.svg">
  <link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui" data-openapi-url="{openapi_url}"></div>
  <script src="{assets}/swagger-ui-bundle.js"></script>
  <script src="/static/js/api-docs.js"></script>
</body>
</html>
"""


def install(app: FastAPI) -> None:
    """Serve /docs and the Swagger UI files; create the app with `docs_url=None`."""
    app.mount(ASSETS, StaticFiles(directory=str(files("fastapi_offline") / "static")),
              name="api-docs")
    router = APIRouter(include_in_schema=False)
    body = PAGE.format(title=escape(app.title), assets=ASSETS,
                       openapi_url=escape(app.openapi_url or "/openapi.json"))

    @router.get("/docs")
    def api_docs() -> HTMLResponse:
        return HTMLResponse(body)

    app.include_router(router)
