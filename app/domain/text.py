"""Every message a player reads, in their language: the gettext catalogues in app/locale
(compiled by Babel, `tools/i18n.py`), the one source of Russian for the rules, the exports and
the pages alike (app/web/i18n.py reads the same catalogues through `catalogue`).

The rules' messages are English msgids with named placeholders, `tr(lang, "%(n)s left",
n=3)`; `ntr` chooses the plural form from the catalogue's Plural-Forms (Russian has three).
Babel is not web: the domain may load catalogues and stay free of the web.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

from app.domain.base import Lang, decimal_text, points_text

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"


@cache
def catalogue(lang: Lang) -> NullTranslations:
    return Translations.load(str(LOCALE_DIR), [lang], DOMAIN)


def N_(message: str) -> str:
    """Marks a message kept as data (a rule's title, a sheet's text) for extraction; it is
    translated where it is shown, with `tr`."""
    return message


def NP_(context: str, message: str) -> str:
    """N_ of a message kept as data that one context words its own way; shown with `ptr`."""
    return message


def tr(lang: Lang, message: str, **params: object) -> str:
    """`message` in `lang`, its %(name)s placeholders filled from `params`."""
    text = catalogue(lang).ugettext(message)
    return text % params if params else text


def ptr(lang: Lang, context: str, message: str, **params: object) -> str:
    """`tr` of a message one rule system words its own way (Line and Square's seed says
    «подразделение» where the others say «отряд»); as everywhere else where the context has
    no translation of its own."""
    words = catalogue(lang)
    text = words.upgettext(context, message)
    if text == message:
        text = words.ugettext(message)
    return text % params if params else text


def ntr(lang: Lang, singular: str, plural: str, n: Fraction | int | float,
        **params: object) -> str:
    """The form of `singular`/`plural` for the amount `n`, which fills %(n)s as players write
    it (12.5, in Russian 12,5). gettext's plural rules count whole numbers only; a fraction
    takes the form of 2: the English plural ("0.5 points") and the Russian genitive singular
    («0,5 очка»), the form CLDR gives Russian fractions."""
    return nptr(lang, "", singular, plural, n, **params)


def nptr(lang: Lang, context: str, singular: str, plural: str, n: Fraction | int | float,
         **params: object) -> str:
    """`ntr` in a gettext context: the same English noun in another Russian case ("figure"
    after «из» is «фигуры», as the object of «добавьте» «фигуру»)."""
    amount = Fraction(n)
    whole = int(amount) if amount.denominator == 1 else 2
    words = catalogue(lang)
    if context:
        text = words.unpgettext(context, singular, plural, whole)
    else:
        text = words.ungettext(singular, plural, whole)
    return text % {"n": decimal_text(points_text(amount, "en"), lang), **params}
