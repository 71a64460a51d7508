"""Jinja2 templates with autoescape, gettext and jinja2-fragments block rendering.

`render` gives the whole page, or — for htmx requests — just the named block(s), so one route
serves both (and says so with `Vary: HX-Request`).
"""

from __future__ import annotations

import functools
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, nodes, pass_environment
from jinja2.visitor import NodeTransformer
from jinja2_fragments.fastapi import Jinja2Blocks
from markupsafe import Markup, escape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from app.kept import Kept
from app.rules import RULESETS
from app.rules.base import LANGS, Lang, decimal_text
from app.web import i18n

TEMPLATE_DIR = Path(__file__).resolve().parent.parent.parent / "templates"
# The i18n extension's gettext, the plain one below, and the plain one with a context.
TRANSLATORS = ("_", "t", "tp")


class _Literals(NodeTransformer):
    """Translate `_("…")` and `t("…")` of one literal string while a template compiles, so a
    page does not call gettext (and escape its answer) for every label on every request: on
    an editor change those calls were a third of drawing the answer. Each result is what the
    call gives at run time: `_` (the i18n extension's, newstyle) is markup formatted with no
    variables ("%%" becomes "%"), `t` is plain text, escaped when written, and so is
    `tp("context", "…")`, a message worded its own way in one context (i18n.pgettext)."""

    def __init__(self, lang: Lang) -> None:
        self.translations = i18n.translations(lang)

    def visit_Call(self, node: nodes.Call) -> nodes.Node:
        self.generic_visit(node)
        callee, args = node.node, node.args
        if not (isinstance(callee, nodes.Name) and callee.name in TRANSLATORS
                and len(args) == (2 if callee.name == "tp" else 1)
                and all(isinstance(a, nodes.Const) and isinstance(a.value, str) for a in args)
                and not node.kwargs and node.dyn_args is None and node.dyn_kwargs is None):
            return node
        if callee.name == "tp":
            context, message = (a.value for a in args)  # type: ignore[attr-defined]
            return nodes.Const(i18n.in_context(self.translations, context, message),
                               lineno=node.lineno)
        text = self.translations.ugettext(args[0].value)  # type: ignore[attr-defined]
        if callee.name == "_":
            return nodes.MarkSafe(nodes.Const(str(Markup(text) % {})), lineno=node.lineno)
        return nodes.Const(text, lineno=node.lineno)


def _binds_translator(template: nodes.Template) -> bool:
    """Whether the template names a variable `_` or `t` itself (say, a loop `for t in …`):
    there the names are not the translators, and nothing is translated early. (A context
    cannot be seen here: no route passes one named `_` or `t`.)"""
    return any(name.name in TRANSLATORS and name.ctx in ("store", "param")
               for name in template.find_all(nodes.Name))


# What `getattr` finds on a plain dict: its methods and dunders, never its keys.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class LanguageEnvironment(Environment):
    """The templates as compiled for one language (see _Literals)."""

    lang: Lang = "en"

    def getattr(self, obj: Any, attribute: str) -> Any:
        """`obj.attribute` in a template. Jinja tries the attribute first and the key after
        it; much of the pages' context is plain dicts (documents and results as JSON), where
        the failed attribute lookup raised and caught an exception every time (1.2 µs each,
        dozens per editor change). A plain dict has no attributes but its methods, so for
        any other name the key is the same answer, found directly."""
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)

    def _generate(self, source: nodes.Template, name: str | None, filename: str | None,
                  defer_init: bool = False) -> str:
        if not _binds_translator(source):
            source = _Literals(self.lang).visit(source)
        return super()._generate(source, name, filename, defer_init)


# Autoescape every template, whatever its extension. Templates ship with the code, so they are
# not checked for changes on every page (a stat of each file, 5 % of an editor change).
# `env` holds the settings; pages are drawn by its overlays in TEMPLATES, one per language.
env = LanguageEnvironment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=True,
                          extensions=["jinja2.ext.i18n"], auto_reload=False)
env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
env.globals["RULESETS"] = RULESETS
# A plain gettext for hot loops: the i18n extension's `_` goes through the template context
# on every call, which on a 100-unit editor cost more than the rest of the page.
env.globals["t"] = i18n.gettext
env.globals["tp"] = i18n.pgettext


def _for(lang: Lang) -> Jinja2Blocks:
    # An overlay shares the loader, globals and filters, and keeps its own compiled templates.
    overlay = env.overlay()
    overlay.lang = lang  # type: ignore[attr-defined]
    return Jinja2Blocks(env=overlay)


TEMPLATES: dict[Lang, Jinja2Blocks] = {lang: _for(lang) for lang in LANGS}


def points_value(value: float | int | None) -> str:
    """Points as a form field's value: 12.375, 72, never 72.0; always with a decimal point,
    which is what a number field takes (the browser shows it in the reader's own way)."""
    if value is None:
        return "—"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


@pass_environment
def points(environment: Environment, value: float | int | None) -> str:
    """Points as players read them, in the page's language: 12.375, or 12,375 in Russian."""
    return decimal_text(points_value(value), environment.lang)  # type: ignore[attr-defined]


@pass_environment
def fixed(environment: Environment, value: float, places: int = 1) -> str:
    """A number with `places` decimals, in the page's language: 33.3 %, 33,3 %."""
    return decimal_text(f"{value:.{places}f}", environment.lang)  # type: ignore[attr-defined]


@pass_environment
def decimal(environment: Environment, value: float, places: int = 3) -> str:
    """A number with at most `places` decimals (2.5, not 2.500), in the page's language."""
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    return decimal_text(text, environment.lang)  # type: ignore[attr-defined]


@pass_environment
def day(environment: Environment, moment: datetime) -> str:
    """A date in the page's language (i18n.day)."""
    return i18n.day(moment, environment.lang)  # type: ignore[attr-defined]


env.filters.update(points=points, points_value=points_value, fixed=fixed, decimal=decimal,
                   day=day)


# Drawn <option> lists by (names, selected, blank). The name dicts are built once per process
# and language (`app.routes.pages._names`), so a select is drawn once and then reused: the
# editor draws two per line of every unit it sends. The dict itself is kept with its entry, so
# a key's id cannot be reused by another dict while the entry lives.
# Selected values are catalogue ids (a few hundred pairs); the bound keeps even a pathological
# mix to about a megabyte.
_DRAWN_OPTIONS: Kept[tuple[int, str, str | None], tuple[dict[str, str], Markup]] = Kept(1024)


def options(names: dict[str, str], selected: str, blank: str | None = None) -> Markup:
    """<option> elements for a catalogue select, `selected` marked.

    Written in Python rather than a template loop: the editor draws a few of these per unit,
    and on a 100-unit roster the template loops were most of each change's server time.
    """
    key = (id(names), selected, blank)
    kept = _DRAWN_OPTIONS.get(key)
    if kept is not None and kept[0] is names:
        return kept[1]
    parts = []
    for value, label in names.items():
        text = blank if (blank is not None and value == "none") else label
        mark = " selected" if value == selected else ""
        parts.append(f'<option value="{escape(value)}"{mark}>{escape(text)}</option>')
    drawn = Markup("".join(parts))
    _DRAWN_OPTIONS.put(key, (names, drawn))
    return drawn


def flag_boxes(prefix: str, names: dict[str, str], checked: list[str]) -> Markup:
    """Checkbox + label pairs for a unit's special-rule flags (see `options` for why)."""
    parts = []
    for value, label in names.items():
        ident = escape(f"{prefix}-flag-{value}")
        mark = " checked" if value in checked else ""
        parts.append(f'<span class="check"><input id="{ident}" type="checkbox" '
                     f'name="flags" value="{escape(value)}"{mark}>'
                     f'<label for="{ident}">{escape(label)}</label></span>')
    return Markup("".join(parts))


env.globals["options"] = options
env.globals["flag_boxes"] = flag_boxes


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
    templates = TEMPLATES[lang]
    if blocks and is_htmx(request):
        response = templates.TemplateResponse(request, name, ctx, block_names=blocks, **kwargs)
    else:
        response = templates.TemplateResponse(request, name, ctx, **kwargs)
    response.headers["Vary"] = "HX-Request, Accept-Language, Cookie"
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
    # Starlette's own reading of the address, kept per distinct answer: building it anew took
    # a fortieth of an editor change. The host is the client's to send, so the cache is small.
    scope = {"type": "http", "scheme": scheme, "server": server, "root_path": root,
             "path": root, "query_string": b"", "headers": [(b"host", host)] if host else []}
    return str(Request(scope).base_url).rstrip("/")
