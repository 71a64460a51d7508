"""Types shared by every rule system: severities, issues, rule checks and the languages
(their messages are in app/domain/translations.py).

Nothing here knows about a particular game, the web or the database.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Annotated, Any, Literal

from babel.numbers import get_decimal_symbol
from pydantic import BeforeValidator, Field

Lang = Literal["en", "ru"]
LANGS: tuple[Lang, ...] = ("en", "ru")


class Severity(StrEnum):
    error = "error"
    warning = "warning"
    info = "info"


class Status(StrEnum):
    """How a rule stands for a roster, as the rules panel shows it."""

    kept = "kept"
    warning = "warning"
    broken = "broken"


class Verdict(StrEnum):
    """A roster's standing in one word, as "my rosters" shows and sorts it (and the roster
    table stores it): broken by an error, else legal with warnings, else legal."""

    legal = "legal"
    warnings = "warnings"
    broken = "broken"


def verdict_of(severities: Iterable[Severity | str]) -> Verdict:
    """The verdict of a roster whose unkept rules have these severities (info counts as
    nothing: it is no rule)."""
    found = {Severity(s) for s in severities}
    if Severity.error in found:
        return Verdict.broken
    return Verdict.warnings if Severity.warning in found else Verdict.legal


# Issues and rule checks are made by the dozen on every evaluation and never changed after;
# like the priced parts (chainmail/pricing.py) they are not frozen, which costs four times as
# much to build.
@dataclass(slots=True)
class Issue:
    code: str
    severity: Severity
    message: str
    unit: int | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "unit": self.unit,
        }


@dataclass(slots=True)
class RuleCheck:
    """One rule evaluated against one roster: kept or not, with the arithmetic in words.

    `issue` is what `validate` reports when the rule does not hold; `summary` is the
    one-line state the rules panel shows whether it holds or not.
    """

    code: str
    title: str
    summary: str
    holds: bool
    severity: Severity
    value: str = ""
    band: str = ""
    hint: str = ""
    unit: int | None = None
    room: str = ""  # how many more of the counted figures the rule has room for

    @property
    def status(self) -> Status:
        if self.holds:
            return Status.kept
        return Status.broken if self.severity is Severity.error else Status.warning

    @property
    def issue(self) -> Issue:
        message = f"{self.summary} — {self.hint}" if self.hint else self.summary
        return Issue(self.code, self.severity, message, self.unit)


def points_json(value: Fraction) -> int | float:
    """Points as a JSON number: every cost is a multiple of 1/8, so a float is exact."""
    if value.denominator == 1:
        return int(value)
    return float(value)


def points_text(value: Fraction, lang: Lang) -> str:
    """Points for people: 12.375, never 12.375000001; in Russian 12,375."""
    if value.denominator == 1:
        return str(int(value))
    return decimal_text(f"{float(value):.3f}".rstrip("0").rstrip("."), lang)


def read_points(text: str) -> Fraction:
    """The points a points_text wrote, in either language."""
    return Fraction(text.replace(",", "."))


def percent_text(value: Fraction | float, lang: Lang) -> str:
    """A share as a percentage with at most one decimal, for display only. A share of whole
    counts may come as `count / base`: the same float as float(Fraction(count, base)), both
    rounded once from the same ratio, without building the Fraction."""
    text = f"{float(value) * 100:.1f}"
    return decimal_text(text[:-2] if text.endswith(".0") else text, lang)


def percent_text_past(count: int, base: int, edge: str, lang: Lang) -> str:
    """percent_text of count / base, a share that lies past a bound (`edge`: the bound's own
    percent_text in the same language), with as many more decimals as it takes not to read
    as the bound itself: 451 of 3000 against at most 15 % is "15.03", where one decimal would
    print "15" beside "must be 5–15 %"."""
    text = percent_text(count / base, lang)
    for decimals in range(2, 7):
        if text != edge:  # both worded alike: equal texts are the same number
            break
        text = decimal_text(f"{count / base * 100:.{decimals}f}".rstrip("0").rstrip("."), lang)
    return text


@functools.cache
def _decimal_mark(lang: Lang) -> str:
    return str(get_decimal_symbol(lang))


def decimal_text(text: str, lang: Lang) -> str:
    """A number Python wrote (12.5) as the language writes it: Russian takes a decimal comma
    (12,5; Babel's locale data). Only the mark changes: players write 1000 points plainly, and
    a number's digits read the same in every language."""
    return text if lang == "en" else text.replace(".", _decimal_mark(lang))


def _integral(value: object) -> object:
    # JSON Schema's "integer" includes 13.0; Python's json reads it as a float.
    return int(value) if isinstance(value, float) and value.is_integer() else value


Whole = Annotated[int, BeforeValidator(_integral)]
"""A whole number as JSON Schema means it: 13 or 13.0, not 13.5, "13" or true (with the
document models' strict types)."""


def whole_in(least: int, most: int) -> Any:
    """A Whole between `least` and `most`, for a field that may also be null: the bounds come
    before the validator, or the JSON Schema would lose them inside the union."""
    return Annotated[int, Field(ge=least, le=most), BeforeValidator(_integral)]
