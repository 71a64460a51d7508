"""Numbers with their nouns in the right form ("1 point", "2.5 очка", "5 фигур") and the
one-line legality verdict every sheet and text export prints."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from fractions import Fraction

from app.domain.base import Lang, Severity
from app.domain.text import nptr, tr


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
