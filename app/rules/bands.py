"""Proportion bands: "between lo and hi of N figures", rounded in the player's favour."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

from app.rules.base import LANGS, Lang, percent_text, pick
from app.rules.words import NOUNS, counted


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

    def crossed(self, count: int, base: int, lang: Lang) -> str:
        """The percent_text of the bound a share outside the band lies past."""
        lo, hi = self._edges[lang]
        over = count * self.hi.denominator > self.hi.numerator * base
        return hi if over else lo

    @functools.cached_property
    def _edges(self) -> dict[str, tuple[str, str]]:
        return {lang: (percent_text(self.lo, lang), percent_text(self.hi, lang))
                for lang in LANGS}

    @functools.cached_property
    def _texts(self) -> dict[str, str]:
        # Every check prints its band, and the bands are a handful made at import: worked
        # out once per band, where a cache keyed by the band hashed its Fractions per call.
        return {lang: self._text(lang) for lang in LANGS}

    def _text(self, lang: Lang) -> str:
        lo, hi = self._edges[lang]
        if self.hi == 1:
            return pick(lang, f"at least {lo} %", f"не менее {lo} %")
        if self.lo == 0:
            return pick(lang, f"at most {hi} %", f"не более {hi} %")
        return f"{lo}–{hi} %"

    def remedies(self, count: int, base: int) -> Remedies | None:
        """How many figures, added or removed, bring `count` of `base` back into the band;
        None when it holds. The counted figures are among the base's (every share rule's
        are), so adding or removing them moves the base as well: 6 of 20 at 40–60 % needs 2
        to 17 more (8 of 22 … 23 of 37), not the 2 to 6 that the base of 20 alone suggests.
        Each range is every number that mends the rule, and only those (the band's limits
        only grow with the base, so the numbers that mend it are one unbroken run)."""
        if base == 0:
            return None
        low, high = self.limits(base)
        if low <= count <= high:
            return None
        a, b = self.lo.numerator, self.lo.denominator
        p, q = self.hi.numerator, self.hi.denominator
        # (k, M) holds when floor(a·M/b) <= k, i.e. a·M < b·(k + 1), and k <= ceil(p·M/q),
        # i.e. q·(k - 1) < p·M. Each range below solves the two for the one unknown.
        n, c = base, count
        kind: Span | None
        others: Span | None
        if c < low:  # too few: more of them, or fewer of the others
            # (a band of "all of them" cannot be met by adding: a > 0 here, as low > 0)
            kind = None if a == b else Span(
                True, max(1, _above(a * n - b * (c + 1), b - a)),
                None if p == q else _below(p * n - q * (c - 1), q - p))
            others = Span(False, max(1, _above(a * n - b * (c + 1), a)),
                          min(n - c, n - 1, _below(p * n - q * (c - 1), p)))
        else:  # too many: fewer of them, or more of the others (p < q here, as high < n)
            kind = Span(False, max(1, _above(q * (c - 1) - p * n, q - p)),
                        min(c, n - 1, _below(b * (c + 1) - a * n, b - a)))
            others = None if p == 0 else Span(
                True, max(1, _above(q * (c - 1) - p * n, p)),
                None if a == 0 else _below(b * (c + 1) - a * n, a))
        return Remedies(kind if kind and kind.possible else None,
                        others if others and others.possible else None)

    def hint(self, count: int, base: int, lang: Lang, base_en: str = "",
             base_ru: str = "") -> str:
        """The remedies in words: "add 2 to 17 more, or remove 3 to 11 other figures"."""
        found = self.remedies(count, base)
        if found is None:
            return ""
        parts = []
        if found.kind is not None:
            parts.append(found.kind.text(lang))
        if found.others is not None:
            parts.append(found.others.text(lang, other=(base_en, base_ru)))
        return pick(lang, ", or ", " или ").join(parts)


def _above(numerator: int, denominator: int) -> int:
    """The least whole number greater than numerator / denominator (denominator > 0)."""
    return numerator // denominator + 1


def _below(numerator: int, denominator: int) -> int:
    """The greatest whole number less than numerator / denominator (denominator > 0)."""
    return (numerator - 1) // denominator


@dataclass(slots=True)  # built anew for every broken share: not frozen (see results.py)
class Span:
    """Add (or remove) from `least` to `most` figures; `most` None: no upper bound."""

    add: bool
    least: int
    most: int | None

    @property
    def possible(self) -> bool:
        return self.most is None or self.least <= self.most

    def text(self, lang: Lang, other: tuple[str, str] | None = None) -> str:
        least, most = self.least, self.most
        if other is None:  # the counted figures, named by the rule's title
            if self.add:
                if least == most:
                    return pick(lang, f"add {least} more", f"добавьте ещё {least}")
                if most is None:
                    return pick(lang, f"add {least} or more", f"добавьте ещё {least} или больше")
                return pick(lang, f"add {least} to {most} more",
                            f"добавьте ещё от {least} до {most}")
            if least == most:
                return pick(lang, f"remove {least}", f"уберите {least}")
            return pick(lang, f"remove {least} to {most}", f"уберите от {least} до {most}")
        base_en, base_ru = other
        if lang == "ru":  # "уберите 1 другую фигуру", "от 2 до 21 другой фигуры"
            verb = "добавьте" if self.add else "уберите"
            if least == most:
                amount = counted(least, "other_figure_to_add", lang)
            elif most is None:
                amount = f"{least} или больше {NOUNS['other_figure_of']['ru']['many']}"
            else:
                amount = f"от {least} до {counted(most, 'other_figure_of', lang)}"
            return f"{verb} {amount}{base_ru}"
        verb = "add" if self.add else "remove"  # "add 6 to 17 other horse figures"
        if least == most:
            return f"{verb} {least} other {base_en}{'figure' if least == 1 else 'figures'}"
        if most is None:
            return f"{verb} {least} or more other {base_en}figures"
        return f"{verb} {least} to {most} other {base_en}figures"


@dataclass(slots=True)
class Remedies:
    """The two ways to mend a share: change the counted figures, or the others of the base."""

    kind: Span | None
    others: Span | None


def figures_of(lang: Lang, base: int, base_en: str, base_ru: str) -> str:
    """'of 20 horse figures' / 'из 20 фигур конницы' with the right Russian case."""
    if lang == "ru":
        return f"из {counted(base, 'figure_of', lang)}{base_ru}"
    return f"of {base} {base_en}figures" if base != 1 else f"of 1 {base_en}figure"
