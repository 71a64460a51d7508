"""Page language: gettext catalogues compiled by Babel, chosen per request.

Order of choice: an explicit `?lang=` on the request, the remembered `lang` cookie, the
browser's Accept-Language, then English.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache

from babel.core import Locale, negotiate_locale
from babel.dates import format_date
from babel.support import NullTranslations
from starlette.requests import Request

from app.domain.base import LANGS, Lang
from app.domain.text import catalogue, ptr

LANG_COOKIE = "lang"
_current: ContextVar[Lang] = ContextVar("muster_lang", default="en")


def translations(lang: Lang) -> NullTranslations:
    """The page's catalogue: the same one the rules and the exports read."""
    return catalogue(lang)


def as_lang(value: str | None) -> Lang | None:
    return value if value in LANGS else None  # type: ignore[return-value]


def from_accept_language(header: str) -> Lang | None:
    """The first supported language in an Accept-Language header, by quality. Kept per
    header, as a page asks several times and browsers send the same few headers again and
    again; only headers of a browser's length, so a client cannot fill memory with them."""
    if len(header) > 256:
        # No browser sends more; a header of megabytes (asked for several times a page) must
        # not cost seconds: only its first part is read, up to the last whole entry.
        return _negotiate(header[:256].rpartition(",")[0] or header[:256])
    return _negotiate_kept(header)


def _negotiate(header: str) -> Lang | None:
    weighted: list[tuple[float, str]] = []
    for position, part in enumerate(header.split(",")):
        piece = part.strip()
        if not piece:
            continue
        tag, _, params = piece.partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        weighted.append((-quality + position * 1e-6, tag.strip().replace("-", "_")))
    preferred = [tag for _, tag in sorted(weighted) if tag and tag != "*"]
    chosen = negotiate_locale(preferred, list(LANGS), sep="_")
    if chosen:
        return as_lang(Locale.parse(chosen).language)
    return None


_negotiate_kept = lru_cache(maxsize=512)(_negotiate)


def request_lang(request: Request) -> Lang:
    return (
        as_lang(request.query_params.get("lang"))
        or as_lang(request.cookies.get(LANG_COOKIE))
        or from_accept_language(request.headers.get("accept-language", ""))
        or "en"
    )


def use_lang(lang: Lang) -> None:
    _current.set(lang)


async def page_language(request: Request) -> None:
    """A page router's dependency: the request's language for every message the route makes,
    not only for its template (a refusal or a conflict was worded before the template chose
    the language, and so came in English to a Russian page). Async: no worker-thread trip."""
    use_lang(request_lang(request))


def current_lang() -> Lang:
    return _current.get()


def gettext(message: str) -> str:
    return translations(_current.get()).ugettext(message)


def pgettext(context: str, message: str) -> str:
    """gettext of a message that one rule system words its own way: Line and Square's seed
    says «подразделение» where the others say «отряд», for the same English "unit"."""
    return ptr(_current.get(), context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(_current.get()).ungettext(singular, plural, n)


def day(moment: datetime, lang: Lang) -> str:
    """A date as players read it in `lang` ('2 January 2027', «2 января 2027»): the month's
    name in the locale's form from Babel (genitive in Russian), without the «г.» of the long
    format, which a sentence's full stop would follow."""
    return format_date(moment.date(), format="d MMMM y", locale=lang)
