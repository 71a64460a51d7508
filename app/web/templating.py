"""Jinja2 templates with autoescape, gettext and jinja2-fragments block rendering.

`render` gives the whole page, or — for htmx requests — just the named block(s), so one route
serves both (and says so with `Vary: HX-Request`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from app.rules import RULESETS
from app.web import i18n

TEMPLATE_DIR = Path(__file__).resolve().parent.parent.parent / "templates"

# Autoescape every template, whatever its extension. Templates ship with the code, so they are
# not checked for changes on every page (a stat of each file, 5 % of an editor change).
env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=True,
                  extensions=["jinja2.ext.i18n"], auto_reload=False)
templates = Jinja2Blocks(env=env)
env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
env.globals["RULESETS"] = RULESETS
# A plain gettext for hot loops: the i18n extension's `_` goes through the template context
# on every call, which on a 100-unit editor cost more than the rest of the page.
env.globals["t"] = i18n.gettext


def points(value: float | int | None) -> str:
    """Points as players write them: 12.375, 72, never 72.0."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


env.filters["points"] = points


def options(names: dict[str, str], selected: str, blank: str | None = None) -> Markup:
    """<option> elements for a catalogue select, `selected` marked.

    Written in Python rather than a template loop: the editor draws a few of these per unit,
    and on a 100-unit roster the template loops were most of each change's server time.
    """
    parts = []
    for value, label in names.items():
        text = blank if (blank is not None and value == "none") else label
        mark = " selected" if value == selected else ""
        parts.append(f'<option value="{escape(value)}"{mark}>{escape(text)}</option>')
    return Markup("".join(parts))


def flag_boxes(prefix: str, names: dict[str, str], checked: list[str]) -> Markup:
    """Checkbox + label pairs for a unit's special-rule flags (see `options` for why)."""
    parts = []
    for value, label in names.items():
        ident = f"{prefix}-flag-{value}"
        mark = " checked" if value in checked else ""
        parts.append(f'<span class="check"><input id="{escape(ident)}" type="checkbox" '
                     f'name="flags" value="{escape(value)}"{mark}>'
                     f'<label for="{escape(ident)}">{escape(label)}</label></span>')
    return Markup("".join(parts))


env.globals["options"] = options
env.globals["flag_boxes"] = flag_boxes


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def render(request: Request, name: str, context: dict[str, Any] | None = None, *,
           blocks: list[str] | None = None, status_code: int = 200,
           headers: dict[str, str] | None = None) -> HTMLResponse:
    """Render `name` in the request's language; only `blocks` when htmx asked for a fragment."""
    lang = i18n.request_lang(request)
    i18n.use_lang(lang)
    ctx = {"lang": lang, "request": request, **(context or {})}
    kwargs: dict[str, Any] = {"status_code": status_code, "headers": headers}
    if blocks and is_htmx(request):
        response = templates.TemplateResponse(request, name, ctx, block_names=blocks, **kwargs)
    else:
        response = templates.TemplateResponse(request, name, ctx, **kwargs)
    response.headers["Vary"] = "HX-Request, Accept-Language, Cookie"
    return response  # type: ignore[return-value]
