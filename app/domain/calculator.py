"""A table calculator, as a rule system offers it (its `calculators.py`, in its `RuleSystem`'s
`calculators`): one page, `/calc/<slug>`, and where it has one, one API operation under
`/api/v1/rulesets/<system>/<slug>`, both reading the same input model. The system gives the
pure parts: the input read from the page's address, the fields' labels, the page's context
and the API's answer; the routes (app/web/calculators.py, app/api/calculators.py) do the
rest for every calculator alike."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Protocol

from pydantic import BaseModel

from app.domain.base import Lang, percent_text


class Query(Protocol):
    """A page's address's fields, as the browser sent them."""

    def get(self, key: str, default: Any = None) -> Any: ...

    def getlist(self, key: str) -> list[str]: ...

    def __contains__(self, key: object) -> bool: ...


@dataclass(frozen=True)
class Asked:
    """What a calculator's page is asked: the input read from the address, or None when it was
    refused (`error` says why, in the page's language) or the page has no input model."""

    value: Any
    query: Query
    lang: Lang
    error: str | None = None


@dataclass(frozen=True)
class Page:
    """A calculator's page: its template's context, and the blocks htmx takes of it."""

    context: dict[str, Any]
    blocks: tuple[str, ...] = ("result",)
    error: str | None = None  # a refusal of the page's own (beside its input's): 422
    no_store: bool = False  # it rolled a die: never kept


@dataclass(frozen=True)
class Api:
    """The calculator's JSON operation: its name (the operation's id), its words in the API's
    description, and how it is asked (a GET's query, a POST's body: the input model)."""

    name: str
    summary: str
    description: str
    method: Literal["GET", "POST"] = "POST"
    response_model: type[BaseModel] | None = None
    refused: str = "A field is invalid; the message names it"


@dataclass(frozen=True)
class Calculator:
    slug: str  # its page's address, /calc/<slug>, and its operation's last segment
    title: str  # the msgid of its name
    input: type[BaseModel] | None  # what the page's address and the API's request give
    page: Callable[[Asked], Page]
    template: str  # in its system's templates
    # The input model's data from the page's address: what the form's fields say, in the
    # model's shape (a blank field: the page's default). Text is left as it came.
    form: Callable[[Query], dict[str, Any]] = lambda query: {}
    # The form's label, in `lang`, of each field of the input (by its path: "target.density").
    labels: Callable[[Query, Lang], Mapping[str, str]] = lambda query, lang: {}
    answer: Callable[[Any], Any] | None = None  # the API's answer to an input
    api: Api | None = None
    # The tags of its input's discriminated unions: no fields, left out of errors' paths.
    error_tags: frozenset[str] = frozenset()


def shown(p: Fraction, lang: Lang) -> dict[str, str]:
    """A probability as the pages write it: the reduced fraction and a percentage."""
    if 0 < p < Fraction(1, 2000):
        percent = "<" + percent_text(Fraction(1, 1000), lang)
    else:
        percent = percent_text(p, lang)
    return {"exact": f"{p.numerator}/{p.denominator}" if p.denominator != 1 else
            str(p.numerator), "percent": percent}
