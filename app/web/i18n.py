"""Page language: gettext catalogues compiled by Babel, in the language the request asks for
(app/http/language.py's request_lang: `?lang=`, the `lang` cookie, Accept-Language, English),
set once per request for every message the route makes."""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from typing import Any

from babel.dates import format_date
from babel.support import NullTranslations
from starlette.requests import Request

from app.domain.base import Lang
from app.domain.player_text import balanced
from app.domain.translations import catalogue, ptr
from app.http.language import request_lang as request_lang

_current: ContextVar[Lang] = ContextVar("muster_lang", default="en")


def translations(lang: Lang) -> NullTranslations:
    """The page's catalogue: the same one the rules and the exports read."""
    return catalogue(lang)


def use_lang(lang: Lang) -> None:
    _current.set(lang)


async def page_language(request: Request) -> None:
    """A page router's dependency: the request's language for every message the route makes,
    not only for its template (a refusal or a conflict is worded before the template chooses
    the language, and would come in English to a Russian page). Async: no worker-thread trip."""
    use_lang(request_lang(request))


def current_lang() -> Lang:
    return _current.get()


def closed(values: dict[str, Any]) -> dict[str, Any]:
    """The values a message is formatted with, each text without the direction controls it
    leaves open (app/domain/player_text.py: balanced): a name's unclosed right-to-left
    override would otherwise reverse the rest of the sentence, and of the page after it."""
    return {name: balanced(value) if isinstance(value, str) else value
            for name, value in values.items()}


def gettext(message: str, **values: Any) -> str:
    """`message` in the request's language, formatted with `values` (closed) if given."""
    text = translations(_current.get()).ugettext(message)
    return text % closed(values) if values else text


def pgettext(context: str, message: str) -> str:
    """gettext of a message that one rule system words its own way: Line and Square's seed
    says «подразделение» where the others say «отряд», for the same English "unit"."""
    return ptr(_current.get(), context, message)


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    text = translations(_current.get()).ungettext(singular, plural, n)
    return text % closed(values) if values else text


def day(moment: datetime, lang: Lang) -> str:
    """A date as players read it in `lang` ('2 January 2027', «2 января 2027»): the month's
    name in the locale's form from Babel (genitive in Russian), without the «г.» of the long
    format, which a sentence's full stop would follow."""
    return format_date(moment.date(), format="d MMMM y", locale=lang)
