"""The language a request asks for: the API's words follow its `lang` query parameter
(`lang_of`); a page's follow `?lang=`, then the remembered `lang` cookie, then the browser's
Accept-Language, then English (`request_lang`)."""

from __future__ import annotations

from functools import lru_cache

from babel.core import Locale, negotiate_locale
from starlette.requests import Request

from app.domain.base import LANGS, Lang

LANG_COOKIE = "lang"


def lang_of(request: Request) -> Lang:
    """The language of the API's words: its `lang` query parameter (LangDep), else English."""
    return "ru" if request.query_params.get("lang") == "ru" else "en"


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
