"""Every message a player reads, in their language: the gettext catalogues in app/locale
(compiled by Babel, `tools/i18n.py`), the one source of Russian for the rules, the exports and
the pages alike (app/web/i18n.py reads the same catalogues through `catalogue`); numbers with
their nouns in the right form ("1 point", "2.5 очка", "5 фигур") and the one-line legality
verdict every sheet and text export prints.

The rules' messages are English msgids with named placeholders, `tr(lang, "%(n)s left",
n=3)`; `ntr` chooses the plural form from the catalogue's Plural-Forms (Russian has three).
Babel is not web: the domain may load catalogues and stay free of the web.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from babel.support import NullTranslations, Translations

from app.domain.base import Lang, Severity, decimal_text, points_text

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"


@functools.cache
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


def plural_noun(case: str, singular: str, plural: str) -> tuple[str, str, str]:
    """A counted noun's messages, marked for extraction; `case` is the gettext context that
    keeps Russian's cases apart for the same English words."""
    return case, singular, plural


# The catalogue holds each noun's Russian forms for 1, 2 and 5 («1 фигура», «2 фигуры»,
# «5 фигур»; the seed's Table 25 writes "1 Очко", "2 Очка", "5 Очков", "0,5 Очка").
NOUNS: dict[str, tuple[str, str, str]] = {
    "point": plural_noun("point", "%(n)s point", "%(n)s points"),
    "figure": plural_noun("figure", "%(n)s figure", "%(n)s figures"),
    # «из 1 очка», «из 2 очков», «из 5 очков»: the genitive after «из».
    "point_of": plural_noun("point_of", "%(n)s point", "%(n)s points"),
    "warrior": plural_noun("warrior", "%(n)s warrior", "%(n)s warriors"),
    # «срок — 1 день», «2 дня», «30 дней»: a span of time, in the nominative.
    "day": plural_noun("day", "%(n)s day", "%(n)s days"),
    "error": plural_noun("error", "%(n)s error", "%(n)s errors"),
    "warning": plural_noun("warning", "%(n)s warning", "%(n)s warnings"),
}


@functools.lru_cache(maxsize=4096)
def counted(amount: Fraction | int | float, noun: str, lang: Lang) -> str:
    """The number as players write it (12.5, never 12.50; 12,5 in Russian) followed by its
    noun (NOUNS) in the catalogue's plural form. Kept per amount: judging a roster words a
    few (its limit, a share's remedies) every time."""
    return nptr(lang, *NOUNS[noun], amount)


def legality_text(severities: Iterable[Severity | str], lang: Lang, empty: bool = False) -> str:
    """The list's legality in one line: 'Legal' or 'Not legal: 2 errors, 1 warning'; an army
    with no figures (army.empty) has nothing to judge yet."""
    if empty:
        return tr(lang, "Nothing to judge yet: the army has no figures")
    values = [Severity(s).value for s in severities]
    errors, warnings = values.count("error"), values.count("warning")
    parts = [counted(errors, "error", lang)] if errors else []
    if warnings:
        parts.append(counted(warnings, "warning", lang))
    if errors:
        return tr(lang, "Not legal: %(problems)s", problems=", ".join(parts))
    legal = tr(lang, "Legal")
    return f"{legal}, {parts[0]}" if parts else legal
