"""Proportion bands (the Chainmail rules, §6): "about" shares, rounded in the player's favour but
never down to no figures, and "hard" bounds ("не менее", "максимум"), not rounded at all."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from app.domain.base import LANGS, Lang, decimal_text, percent_text
from app.domain.translations import ntr, tr


@dataclass(frozen=True)
class Band:
    """`lo`…`hi` of a base. `hard`: the seed says "at least"/"at most", so the whole-figure
    limits are ceil(lo·N) … floor(hi·N); otherwise it says "about", and they are
    max(1, floor(lo·N)) … ceil(hi·N) (the 1 only when lo > 0: a share the seed says exists
    needs a figure). `word` is the seed's word for a one-sided "about" ("большинство").
    `over`: strictly more than `lo` of the base, up to all of it: the seed's majority words
    ("большинство", "преимущественно", the Poles' "главный инструмент") read as more than
    half; the least whole count is floor(lo·N) + 1, not rounded in anyone's favour."""

    lo: Fraction = Fraction(0)
    hi: Fraction = Fraction(1)
    hard: bool = False
    word: str | None = None  # a msgid
    over: bool = False

    @functools.cached_property
    def _parts(self) -> tuple[int, int, int, int]:
        # Read on every step of every search below: the Fractions' parts, once.
        return self.lo.numerator, self.lo.denominator, self.hi.numerator, self.hi.denominator

    def limits(self, base: int) -> tuple[int, int]:
        """Whole-figure limits for a base of `base` figures."""
        a, b, p, q = self._parts
        if self.over:
            return a * base // b + 1, base
        if self.hard:
            return -(-a * base // b), p * base // q
        return max(1 if a else 0, a * base // b), -(-p * base // q)

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
        return hi if count > self.limits(base)[1] else lo

    @functools.cached_property
    def _edges(self) -> dict[str, tuple[str, str]]:
        return {lang: (percent_text(self.lo, lang), percent_text(self.hi, lang))
                for lang in LANGS}

    @functools.cached_property
    def _texts(self) -> dict[str, str]:
        return {lang: self._text(lang) for lang in LANGS}

    def _text(self, lang: Lang) -> str:
        """The band as the rules panel shows it: at least 75 %, exact; about 20 %, 10–30 %."""
        lo, hi = self._edges[lang]
        word = None if self.word is None else tr(lang, self.word)
        if self.over:
            more = tr(lang, "more than %(lo)s %%", lo=lo)
            return f"{more} ({word})" if word else more
        if self.hard:
            if self.hi == 1:
                return tr(lang, "at least %(lo)s %%, strictly (no rounding)", lo=lo)
            if self.lo == 0:
                return tr(lang, "at most %(hi)s %%, strictly (no rounding)", hi=hi)
            return tr(lang, "%(lo)s–%(hi)s %%, strictly (no rounding)", lo=lo, hi=hi)
        if self.hi == 1:
            more = tr(lang, "%(lo)s %% or more", lo=lo)
            return f"{more} ({word})" if word else tr(lang, "about ") + more
        if self.lo == 0:
            return tr(lang, "about %(hi)s %% or less", hi=hi)
        if word is None:
            middle = percent_text((self.lo + self.hi) / 2, lang)
            word = tr(lang, "about %(middle)s %%", middle=middle)
        return f"{word}, {lo}–{hi} %"

    def remedies(self, count: int, base: int) -> Remedies | None:
        """How many figures, added or removed, bring `count` of `base` back into the band;
        None when it holds. The counted figures are among the base's (every share rule's
        are), so adding or removing them moves the base as well: 6 of 20 at 40–60 % needs 2
        to 17 more (8 of 22 … 23 of 37), not the 2 to 6 that the base of 20 alone suggests.
        Each range is every number that mends the rule and only those: it is found by the
        same `holds` the verdict uses, on limits that grow by at most one figure per figure
        of base, so the numbers that mend it are one unbroken run."""
        if base == 0 or self.holds(count, base):
            return None
        n, c = base, count
        far = self._far(c, n)
        # Removing every figure of the base leaves nothing to judge: no remedy.
        if c < self.limits(n)[0]:  # too few: more of them, or fewer of the others
            kind = self._span(True, lambda k: (c + k, n + k), None, far)
            others = self._span(False, lambda j: (c, n - j), min(n - c, n - 1), far)
        else:  # too many: fewer of them, or more of the others
            # When they are the whole base, removing some leaves them the whole base still:
            # only a base of one or two figures, rounded up, would read as mended (10 horse
            # archers of 10 are not mended by removing 8 or 9 of them).
            kind = None if c == n else \
                self._span(False, lambda k: (c - k, n - k), min(c, n - 1), far)
            others = self._span(True, lambda j: (c, n + j), None, far)
        return Remedies(kind, others)

    def _far(self, count: int, base: int) -> int:
        """Past every finite end of a remedy or a room for `count` of `base`: each limit is
        a linear inequality in the figures moved whose bound is at most the band's larger
        denominator times (base + count + 1); a run still going here goes on for ever."""
        return max(self._parts[1], self._parts[3]) * (base + count + 2) + 2

    def _span(self, add: bool, moved: Callable[[int], tuple[int, int]],
              most: int | None, far: int) -> Span | None:
        """The run of k in 1…most (None: unbounded) for which `moved(k)` holds. Each of the
        band's two limits is met on a run that starts at 1 or ends at the far end (the count
        and the limits move together, a limit by at most one a step): found by bisection."""
        last = far if most is None else most
        if last < 1:
            return None

        def low_ok(k: int) -> bool:
            count, base = moved(k)
            return count >= self.limits(base)[0]

        def high_ok(k: int) -> bool:
            count, base = moved(k)
            return count <= self.limits(base)[1]

        first, end = 1, last
        for met in (low_ok, high_ok):
            run = _run(met, first, end)
            if run is None:
                return None
            first, end = run
        return Span(add, first, None if most is None and end == far else end)

    def room(self, count: int, base: int) -> tuple[int, int | None] | None:
        """How many of the counted figures may be added with the share holding after:
        (least, most), 0 the least when it holds now, most None for no end; None when no
        number added keeps it."""
        added = self._span(True, lambda k: (count + k, base + k), None,
                           self._far(count, base))
        if not self.holds(count, base):
            return None if added is None else (added.least, added.most)
        if added is None or added.least > 1:
            return 0, 0
        return 0, added.most

    def rounding(self, count: int, base: int, lang: Lang) -> str:
        """Why a share that lies outside the band's printed edges is kept, when whole figures
        keep it: "kept by whole figures: 5–15 % of 7 is 0.35–1.05 figures, and as the rules
        read “about”, 1–2 are allowed". Empty when the share lies inside them, breaks the
        band, or the band is hard (never rounded)."""
        if self.hard or self.over or not base or not self.holds(count, base) or \
                self.lo <= Fraction(count, base) <= self.hi:
            return ""
        lo, hi = self._edges[lang]
        low, high = self.limits(base)
        return tr(lang, "kept by whole figures: %(band)s of %(base)s is %(exact)s figures, and as "
                        "the rules read “about”, %(whole)s are allowed", band=f"{lo}–{hi} %",
                  base=base,
                  exact=_span_text(_decimal(self.lo * base, lang), _decimal(self.hi * base, lang)),
                  whole=_span_text(str(low), str(high)))

    def hint(self, count: int, base: int, lang: Lang, base_name: str = "") -> str:
        """The remedies in words: "add 2 to 17 more, or remove 3 to 11 other figures"."""
        found = self.remedies(count, base)
        if found is None:
            return ""
        parts = []
        if found.kind is not None:
            parts.append(found.kind.text(lang))
        if found.others is not None:
            parts.append(found.others.text(lang, other=base_name))
        return tr(lang, ", or ").join(parts)


def _decimal(value: Fraction, lang: Lang) -> str:
    """A number of figures with at most two decimals: 0.35, 1.05, 7."""
    return decimal_text(f"{float(value):.2f}".rstrip("0").rstrip("."), lang)


def _span_text(low: str, high: str) -> str:
    return low if low == high else f"{low}–{high}"


def _run(met: Callable[[int], bool], first: int, last: int) -> tuple[int, int] | None:
    """The k in first…last where `met` holds, `met` being true on a run that touches one end
    (or on all or none of them)."""
    at_first, at_last = met(first), met(last)
    if at_first and at_last:
        return first, last
    if not at_first and not at_last:
        return None
    low, high = first, last
    if at_first:  # true, then false: the last true
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if met(middle) else (low, middle - 1)
        return first, low
    while low < high:  # false, then true: the first true
        middle = (low + high) // 2
        low, high = (low, middle) if met(middle) else (middle + 1, high)
    return low, last


@dataclass(slots=True)  # built anew for every broken share: not frozen (see results.py)
class Span:
    """Add (or remove) from `least` to `most` figures; `most` None: no upper bound."""

    add: bool
    least: int
    most: int | None

    @property
    def possible(self) -> bool:
        return self.most is None or self.least <= self.most

    def text(self, lang: Lang, other: str | None = None) -> str:
        least, most = self.least, self.most
        if other is None:  # the counted figures, named by the rule's title
            if self.add:
                if least == most:
                    return tr(lang, "add %(least)s more", least=least)
                if most is None:
                    return tr(lang, "add %(least)s or more", least=least)
                return tr(lang, "add %(least)s to %(most)s more", least=least, most=most)
            if least == most:
                return tr(lang, "remove %(least)s", least=least)
            return tr(lang, "remove %(least)s to %(most)s", least=least, most=most)
        kind = _qualifier(lang, other)
        if least == most:
            if self.add:
                return ntr(lang, "add %(n)s other %(kind)sfigure",
                           "add %(n)s other %(kind)sfigures", least, kind=kind)
            return ntr(lang, "remove %(n)s other %(kind)sfigure",
                       "remove %(n)s other %(kind)sfigures", least, kind=kind)
        if most is None:
            if self.add:
                return tr(lang, "add %(least)s or more other %(kind)sfigures", least=least,
                          kind=kind)
            return tr(lang, "remove %(least)s or more other %(kind)sfigures", least=least,
                      kind=kind)
        if self.add:
            return ntr(lang, "add %(least)s to %(n)s other %(kind)sfigure",
                       "add %(least)s to %(n)s other %(kind)sfigures", most, least=least,
                       kind=kind)
        return ntr(lang, "remove %(least)s to %(n)s other %(kind)sfigure",
                   "remove %(least)s to %(n)s other %(kind)sfigures", most, least=least,
                   kind=kind)


@dataclass(slots=True)
class Remedies:
    """The two ways to mend a share: change the counted figures, or the others of the base."""

    kind: Span | None
    others: Span | None


def _qualifier(lang: Lang, base_name: str) -> str:
    """The base's words beside "figures": "horse " before them, « конницы» after."""
    return tr(lang, base_name) if base_name else ""


def figures_of(lang: Lang, base: int, base_name: str) -> str:
    """'of 20 horse figures' / 'из 20 фигур конницы': `base_name` is the base's Figures name."""
    return ntr(lang, "of %(n)s %(kind)sfigure", "of %(n)s %(kind)sfigures", base,
               kind=_qualifier(lang, base_name))
