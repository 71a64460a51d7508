"""Numbers with their nouns in the right form ("1 point", "2.5 очка", "5 фигур") and the
one-line legality verdict every sheet and text export prints."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction

from babel import Locale

from app.domain.base import Lang, Severity, decimal_text, pick, points_text

# Babel names the plural forms; Russian has three ("1 фигура", "2 фигуры", "5 фигур").
NOUNS: dict[str, dict[str, dict[str, str]]] = {
    # The seed's Table 25 writes "1 Очко", "2 Очка", "5 Очков", "0,5 Очка".
    "point": {"en": {"one": "point", "other": "points"},
              "ru": {"one": "очко", "few": "очка", "many": "очков", "other": "очка"}},
    "figure": {"en": {"one": "figure", "other": "figures"},
               "ru": {"one": "фигура", "few": "фигуры", "many": "фигур", "other": "фигуры"}},
    # "добавьте 1 фигуру": the object of a verb takes the accusative.
    "figure_to_add": {"en": {"one": "figure", "other": "figures"},
                      "ru": {"one": "фигуру", "few": "фигуры", "many": "фигур",
                             "other": "фигуры"}},
    # "уберите 1 другую фигуру", "2 другие фигуры", "5 других фигур" (accusative) …
    "other_figure_to_add": {"en": {"one": "other figure", "other": "other figures"},
                            "ru": {"one": "другую фигуру", "few": "другие фигуры",
                                   "many": "других фигур", "other": "другой фигуры"}},
    # … and after "до" the genitive: "от 2 до 21 другой фигуры", "от 3 до 11 других фигур".
    "other_figure_of": {"en": {"one": "other figure", "other": "other figures",
                               "many": "other figures"},
                        "ru": {"one": "другой фигуры", "few": "других фигур",
                               "many": "других фигур", "other": "другой фигуры"}},
    # "из 1 фигуры", "из 3 фигур", "из 21 фигуры": the genitive after "из".
    "figure_of": {"en": {"one": "figure", "other": "figures"},
                  "ru": {"one": "фигуры", "few": "фигур", "many": "фигур", "other": "фигуры"}},
    # "из 1 очка", "из 2 очков", "из 5 очков", "из 0,5 очка": the genitive after "из".
    "point_of": {"en": {"one": "point", "other": "points"},
                 "ru": {"one": "очка", "few": "очков", "many": "очков", "other": "очка"}},
    "warrior": {"en": {"one": "warrior", "other": "warriors"},
                "ru": {"one": "воин", "few": "воина", "many": "воинов", "other": "воина"}},
    # "срок — 1 день", "2 дня", "30 дней": a span of time, in the nominative.
    "day": {"en": {"one": "day", "other": "days"},
            "ru": {"one": "день", "few": "дня", "many": "дней", "other": "дня"}},
    "error": {"en": {"one": "error", "other": "errors"},
              "ru": {"one": "ошибка", "few": "ошибки", "many": "ошибок", "other": "ошибки"}},
    "warning": {"en": {"one": "warning", "other": "warnings"},
                "ru": {"one": "предупреждение", "few": "предупреждения",
                       "many": "предупреждений", "other": "предупреждения"}},
}


@functools.lru_cache(maxsize=4096)
def counted(amount: Fraction | int | float, noun: str, lang: Lang) -> str:
    """The number as players write it (12.5, never 12.50; 12,5 in Russian) followed by its
    noun. Kept per amount: judging a roster words a few (its limit, a share's remedies) every
    time, and Babel's plural rule took 10 µs a call."""
    text = points_text(Fraction(amount), "en")
    form = _plural_form(lang)(Decimal(text))
    forms = NOUNS[noun][lang]
    return f"{decimal_text(text, lang)} {forms.get(form, forms['other'])}"


@functools.cache
def _plural_form(lang: Lang) -> Callable[[Decimal], str]:
    return Locale(lang).plural_form  # type: ignore[no-any-return]


def legality_text(severities: Iterable[Severity | str], lang: Lang, empty: bool = False) -> str:
    """The list's legality in one line: 'Legal' or 'Not legal: 2 errors, 1 warning'; an army
    with no figures (army.empty) has nothing to judge yet."""
    if empty:
        return pick(lang, "Nothing to judge yet: the army has no figures",
                    "Судить пока не о чем: в армии нет фигур")
    values = [Severity(s).value for s in severities]
    errors, warnings = values.count("error"), values.count("warning")
    parts = [counted(errors, "error", lang)] if errors else []
    if warnings:
        parts.append(counted(warnings, "warning", lang))
    if errors:
        return pick(lang, "Not legal: ", "Не по правилам: ") + ", ".join(parts)
    legal = pick(lang, "Legal", "По правилам")
    return f"{legal}, {parts[0]}" if parts else legal
