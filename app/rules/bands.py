"""Proportion bands: "between lo and hi of N figures", rounded in the player's favour."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from app.rules.base import LANGS, Lang, percent_text, pick


@dataclass(frozen=True)
class Band:
    lo: Fraction = Fraction(0)
    hi: Fraction = Fraction(1)

    def limits(self, base: int) -> tuple[int, int]:
        """Whole-figure limits for a base of `base` figures: floor(lo·N) … ceil(hi·N)."""
        # Integer floor/ceil division on the fractions' parts: exact, and cheaper than
        # building a Fraction per product on every rule of every roster.
        lo, hi = self.lo, self.hi
        return (lo.numerator * base // lo.denominator,
                -(-hi.numerator * base // hi.denominator))

    def holds(self, count: int, base: int) -> bool:
        if base == 0:
            return True
        low, high = self.limits(base)
        return low <= count <= high

    def text(self, lang: Lang) -> str:
        return self._texts[lang]

    @functools.cached_property
    def _texts(self) -> dict[str, str]:
        # Every check prints its band, and the bands are a handful made at import: worked
        # out once per band, where a cache keyed by the band hashed its Fractions per call.
        return {lang: self._text(lang) for lang in LANGS}

    def _text(self, lang: Lang) -> str:
        lo, hi = percent_text(self.lo), percent_text(self.hi)
        if self.hi == 1:
            return pick(lang, f"at least {lo} %", f"не менее {lo} %")
        if self.lo == 0:
            return pick(lang, f"at most {hi} %", f"не более {hi} %")
        return f"{lo}–{hi} %"

    def hint(self, count: int, base: int, lang: Lang) -> str:
        """What to add or remove, counted against the current base."""
        low, high = self.limits(base)
        if count < low:
            return _span(lang, low - count, high - count, add=True)
        if count > high:
            return _span(lang, count - high, count - low, add=False)
        return ""


def _span(lang: Lang, least: int, most: int, add: bool) -> str:
    if add:
        if least == most:
            return pick(lang, f"add {least} more", f"добавьте ещё {least}")
        if most >= 10**9:
            return pick(lang, f"add {least} or more", f"добавьте ещё {least} или больше")
        return pick(lang, f"add {least} to {most} more", f"добавьте ещё от {least} до {most}")
    if least == most:
        return pick(lang, f"remove {least}", f"уберите {least}")
    return pick(lang, f"remove {least} to {most}", f"уберите от {least} до {most}")


def figures_of(lang: Lang, base: int, base_en: str, base_ru: str) -> str:
    """'of 20 horse figures' / 'из 20 фигур конницы' with the right Russian case."""
    noun_ru = "фигуры" if base % 10 == 1 and base % 100 != 11 else "фигур"
    en = f"of {base} {base_en}figures" if base != 1 else f"of 1 {base_en}figure"
    ru = f"из {base} {noun_ru}{base_ru}"
    return pick(lang, en, ru)
