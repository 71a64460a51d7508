"""Numbers with their nouns in the right form ("1 point", "2,5 очка", "5 фигур")."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from babel import Locale

from app.rules.base import Lang, points_text

# Babel names the plural forms; Russian has three ("1 фигура", "2 фигуры", "5 фигур").
NOUNS: dict[str, dict[str, dict[str, str]]] = {
    "point": {"en": {"one": "point", "other": "points"},
              "ru": {"one": "очко", "few": "очка", "many": "очков", "other": "очка"}},
    "figure": {"en": {"one": "figure", "other": "figures"},
               "ru": {"one": "фигура", "few": "фигуры", "many": "фигур", "other": "фигуры"}},
    # "добавьте 1 фигуру": the object of a verb takes the accusative.
    "figure_to_add": {"en": {"one": "figure", "other": "figures"},
                      "ru": {"one": "фигуру", "few": "фигуры", "many": "фигур",
                             "other": "фигуры"}},
}


def counted(amount: Fraction | int | float, noun: str, lang: Lang) -> str:
    """The number as players write it (12.5, never 12.50) followed by its noun."""
    text = points_text(Fraction(amount))
    form = Locale(lang).plural_form(Decimal(text))
    words = NOUNS[noun][lang]
    return f"{text} {words.get(form, words['other'])}"
