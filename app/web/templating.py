"""Jinja2 templates with autoescape, gettext and jinja2-fragments block rendering.

`render` gives the whole page, or — for htmx requests — just the named block(s), so one route
serves both (and says so with `Vary: HX-Request`).
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Hashable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PrefixLoader,
    Undefined,
    pass_context,
)
from jinja2.runtime import Context
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from app.domain.base import decimal_text
from app.domain.player_text import balanced
from app.services.cache import Recent
from app.systems import SYSTEMS
from app.web import i18n

# A page differs by these: htmx's fragments, the language, the browser's cookies.
VARY = "HX-Request, Accept-Language, Cookie"
TEMPLATE_DIR = Path(__file__).resolve().parent.parent.parent / "templates"
STATIC_DIR = TEMPLATE_DIR.parent / "static"
# What a static file's hashed address may be kept for: it changes whenever the file does.
IMMUTABLE = "public, max-age=31536000, immutable"


class Unwritten(Undefined):
    """A name the context lacks: false and empty in a test (`{% if problem %}`), as Jinja's
    own, but an error when written out. A fragment drawn without a word its page's template
    set (the "no weapon" choice of a changed unit) would otherwise answer an empty label."""

    __str__ = Undefined._fail_with_undefined_error  # type: ignore[assignment]


# Autoescape every template, whatever its extension. Templates ship with the code, so they are
# not checked for changes on every page. Messages are translated by the i18n extension with
# the request's language (i18n.gettext reads it, set by `render`).
def _finalize(value: Any) -> Any:
    """Every value a template writes: a player's text loses the direction controls it leaves
    open (app/domain/player_text.py: balanced), so none reaches past its element; markup is ours."""
    return balanced(value) if type(value) is str else value


# The shared pages' templates, and each rule system's from its own package, as
# "systems/<id>/<name>" (so `{% include "systems/chainmail/_unit.html" %}` finds it there).
LOADER = ChoiceLoader([FileSystemLoader(TEMPLATE_DIR), PrefixLoader({"systems": PrefixLoader(
    {id_: FileSystemLoader(system.templates) for id_, system in SYSTEMS.items()},
    delimiter="/")}, delimiter="/")])
env = Environment(loader=LOADER, autoescape=True, extensions=["jinja2.ext.i18n"],
                  auto_reload=False, undefined=Unwritten, finalize=_finalize)


# Jinja's new-style gettext, with the values closed (i18n.closed) before they are escaped into
# the message: what it answers is markup, which `_finalize` leaves as it is.
@pass_context
def _gettext(context: Context, message: str, **values: Any) -> Markup:
    return Markup(i18n.gettext(message)) % i18n.closed(values)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, num: int, **values: Any) -> Markup:
    return Markup(i18n.ngettext(singular, plural, num)) % i18n.closed({"num": num, **values})


env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
env.globals.update(gettext=_gettext, _=_gettext, ngettext=_ngettext)
env.globals["SYSTEMS"] = SYSTEMS
# A player's text where no element can isolate it (a page's <title>): between First Strong
# Isolate and Pop Directional Isolate, so its direction stays its own.
env.filters["isolated"] = lambda text: f"\u2068{balanced(str(text))}\u2069"


def names_list(names: list[str]) -> Markup:
    """Players' names as a comma-separated list, each in an element of its own (<bdi>)."""
    return Markup(", ").join(Markup("<bdi>%s</bdi>") % balanced(name) for name in names)


env.filters["names_list"] = names_list
# Templates translate with `_` alone (formatting its keywords); `tp` is gettext with a context.
env.globals["tp"] = i18n.pgettext
TEMPLATES = Jinja2Blocks(env=env)


@functools.cache
def static_hash(name: str) -> str | None:
    """A short hash of a static file's content (files ship with the code), None for none."""
    path = (STATIC_DIR / name).resolve()
    if not path.is_relative_to(STATIC_DIR) or not path.is_file():
        return None
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def static_url(name: str) -> str:
    """The address of a file under static/, with its content's hash: `/static/app.css?v=…`."""
    digest = static_hash(name)
    return f"/static/{name}" + (f"?v={digest}" if digest else "")


env.globals["static_url"] = static_url


class HashedStaticFiles(StaticFiles):
    """Static files; one asked for by its hashed address (static_url) may be kept a year."""

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        asked = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v")
        if asked and asked[-1] == static_hash(self.get_path(scope)):
            response.headers["Cache-Control"] = IMMUTABLE
        return response


def points_value(value: float | int | None) -> str:
    """Points as a form field's value: 12.375, 72, never 72.0; always with a decimal point,
    which is what a number field takes (the browser shows it in the reader's own way)."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


def points(value: float | int | None) -> str:
    """Points as players read them, in the page's language: 12.375, or 12,375 in Russian."""
    return decimal_text(points_value(value), i18n.current_lang())


def fixed(value: float, places: int = 1) -> str:
    """A number with `places` decimals, in the page's language: 33.3 %, 33,3 %."""
    return decimal_text(f"{value:.{places}f}", i18n.current_lang())


def decimal(value: float, places: int = 3) -> str:
    """A number with at most `places` decimals (2.5, not 2.500), in the page's language."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return decimal_text(text, i18n.current_lang())


def day(moment: datetime) -> str:
    """A date in the page's language (i18n.day)."""
    return i18n.day(moment, i18n.current_lang())


env.filters.update(points=points, points_value=points_value, fixed=fixed, decimal=decimal,
                   day=day)


@pass_context
def autofocus(context: Context, element_id: str) -> Markup:
    """` autofocus` on the element whose id is the page's `focus` (where a change's answer
    puts the keyboard: htmx focuses it once the answer is in), else nothing."""
    return Markup(" autofocus") if context.get("focus") == element_id else Markup("")


env.globals["autofocus"] = autofocus

# Parts of a share view already drawn, by what they show: (part, roster id, version,
# language). A stored version never changes, so neither does its part of the page; drawing
# the units, totals and rules is half the view's time. Only what every reader of that
# version sees goes in (the page's CSRF token and addresses stay outside). The last few
# hundred are kept, a page or so of memory each.
KEPT_PARTS: Recent[Markup] = Recent(256)


def kept(*key: Hashable, caller: Callable[[], str]) -> Markup:
    """`{% call kept("units", roster.id, roster.version, lang) %}…{% endcall %}`: the block
    as drawn before for the same key, or drawn now and kept. Why this exists: a 20-unit
    roster's share view takes 1.2 ms in-process with it, 2.4 without (docs/speed.md)."""
    return KEPT_PARTS.get(key, lambda: Markup(caller()))


env.globals["kept"] = kept


def is_htmx(request: Request) -> bool:
    """htmx asks for a fragment; not when it restores a page from history (the Back button):
    that answer replaces the whole page, so it must be the whole page."""
    headers = request.headers
    return (headers.get("hx-request") == "true"
            and headers.get("hx-history-restore-request") != "true")


def render(request: Request, name: str, context: dict[str, Any] | None = None, *,
           blocks: list[str] | None = None, status_code: int = 200,
           headers: dict[str, str] | None = None) -> HTMLResponse:
    """Render `name` in the request's language; only `blocks` when htmx asked for a fragment."""
    lang = i18n.request_lang(request)
    i18n.use_lang(lang)
    ctx = {"lang": lang, "request": request, **(context or {})}
    kwargs: dict[str, Any] = {"status_code": status_code, "headers": headers}
    templates = TEMPLATES
    if blocks and is_htmx(request):
        response = templates.TemplateResponse(request, name, ctx, block_names=blocks, **kwargs)
    else:
        response = templates.TemplateResponse(request, name, ctx, **kwargs)
    response.headers["Vary"] = VARY
    return response  # type: ignore[return-value]


def site_address(request: Request) -> str:
    """This site's address (`https://host[/root]`, no final slash), for the links a page shows
    to be copied: the operator's MUSTER_PUBLIC_URL when set (`app.state.public_url`), else the
    site as the browser reached it."""
    scope = request.scope
    app = scope.get("app")
    if app is not None and (public := getattr(app.state, "public_url", "")):
        return str(public)
    host = next((value for key, value in scope["headers"] if key == b"host"), None)
    server = scope.get("server")  # a list from some servers: hashable for the cache
    return _site_address(scope.get("scheme", "http"), tuple(server) if server else None, host,
                         scope.get("app_root_path", scope.get("root_path", "")))


@functools.lru_cache(maxsize=64)
def _site_address(scheme: str, server: tuple[str, int | None] | None, host: bytes | None,
                  root: str) -> str:
    # Starlette's own reading of the address, kept per distinct answer: building it anew is
    # a fortieth of an editor change. The host is the client's to send, so the cache is small.
    scope = {"type": "http", "scheme": scheme, "server": server, "root_path": root,
             "path": root, "query_string": b"", "headers": [(b"host", host)] if host else []}
    return str(Request(scope).base_url).rstrip("/")
