"""What every rule system offers the rest of the application: one typed contract.

Everything outside a system's package talks to it only through its `RuleSystem` (found in
the registry, `app.systems.SYSTEMS`), so a new game is a new package under `app/systems/`
that provides one `RuleSystem` and one line in the registry.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel, TypeAdapter

from app.domain.base import Issue, Lang, RuleCheck, Verdict, verdict_of
from app.domain.calculator import Calculator
from app.domain.catalogue_entries import Named
from app.domain.form_reading import Document, Edits, Form
from app.domain.game_rules import GameRules
from app.domain.text_writing import TextSheet
from app.domain.translations import ptr


@dataclass(frozen=True)
class Evaluation:
    """A roster priced and judged: the JSON result plus the checks the rules panel lists."""

    result: dict[str, Any]
    checks: list[RuleCheck]

    @property
    def issues(self) -> list[Issue]:
        return [c.issue for c in self.checks if not c.holds]

    @property
    def verdict(self) -> Verdict:
        """From the result's issues, as its `valid` is: broken exactly when not valid."""
        return verdict_of(issue["severity"] for issue in self.result["issues"])


class Editor(Protocol):
    """A system's part of the editor (its `editor.py`): the forms read as edits, a new
    document from the home page's form, and what its templates need beyond the roster. Pure:
    the language comes in (the form's, or `lang`), message text goes out."""

    UNIT_ACTIONS: frozenset[str]  # actions that change one unit: the page redraws it alone
    LINE_FIELD: str  # the field focused after "Add a line": "{unit}-{line}-figures"
    NEW_UNIT_OPENS: bool  # a new unit opens its row (its fields are many, not one line's)
    # Its forms' fields and its documents' keys, by the label the forms show (msgids), for
    # the messages that name a refused field; a line's own where a unit's differs.
    LABELS: Mapping[str, str]
    LINE_LABELS: Mapping[str, str]
    VALUE_ERRORS: frozenset[str]  # its documents' own checks, worded as msgids

    def read(self, action: str, argument: str, form: Form) -> Edits | None: ...

    def new_document(self, form: Form) -> dict[str, Any]: ...

    def page_context(self, doc: Document, result: dict[str, Any], catalogue: dict[str, Any],
                     lang: Lang) -> dict[str, Any]: ...


class Writers(Protocol):
    """A system's army sheet and its text (its `text.py`): the print page draws the sheet with
    the system's `print.html`; one writer a format draws its `text_sheet`."""

    OPTIONAL_SECTIONS: tuple[str, ...]  # the sheet's sections a player may tick

    def sheet_of(self, document: Any, lang: Lang, optional: Iterable[str] = ()) -> Any: ...

    def print_words(self, lang: Lang) -> dict[str, str]: ...

    def print_context(self, sheet: Any) -> dict[str, Any]: ...

    def text_sheet(self, document: Any, lang: Lang) -> TextSheet:
        """The army as every text export writes it (`app/domain/text_writing.py`)."""
        ...


@dataclass(frozen=True)
class RuleSystem:
    id: str
    title: str  # the English msgid of its name, in the context "ruleset"
    version: str
    roster_model: type[BaseModel]
    result_model: type[BaseModel]  # the JSON shape of `evaluate(...).result`
    catalogue: Callable[[], dict[str, Any]]  # built once and shared: read it, never change it
    evaluate: Callable[[Any, Lang], Evaluation]
    # The catalogue's lists of named entries, by the catalogue's key for each list.
    entries: Mapping[str, Mapping[str, Named]] = field(compare=False)
    # The edits a player can make (the system's `edits.py`): the union of its edit models,
    # told apart by their `op`.
    edit: Any = field(compare=False)
    editor: Editor = field(compare=False)
    writers: Writers = field(compare=False)
    # Its templates' folder: the pages find them as "systems/<id>/<name>".
    templates: Path = field(compare=False)
    # Its part of the game companion, where it has one.
    game: GameRules | None = field(default=None, compare=False)
    # Its rules page (`/rules/<id>`, its `rules.html`): the template's context in a language.
    rules_page: Callable[[Lang], dict[str, Any]] | None = field(default=None, compare=False)
    # "Make it legal", where the system offers it: the suggestion and the edits that make it;
    # its third argument, `fill`, asks for "Fill to the limit" instead (figures only added).
    suggest: Callable[[Any, Lang, bool], tuple[Any, list[Any]]] | None = field(
        default=None, compare=False)
    calculators: tuple[Calculator, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        # The catalogue is fixed data every page reads; building it anew cost each editor
        # change more than a database read.
        object.__setattr__(self, "catalogue", functools.cache(self.catalogue))

    @functools.cached_property
    def edits(self) -> TypeAdapter[list[Any]]:
        """A list of the system's edits, as JSON or data."""
        return TypeAdapter(list[self.edit])  # type: ignore[name-defined]

    def name(self, lang: Lang) -> str:
        return ptr(lang, "ruleset", self.title)

    @property
    def name_ru(self) -> str:
        """The Russian name, as the API serves it beside the English (and pages read it)."""
        return self.name("ru")

    @property
    def name_en(self) -> str:
        return self.name("en")

    def names(self, lang: Lang) -> dict[str, dict[str, str]]:
        """Every entry's name in `lang`, by list and id."""
        return {group: {key: entry.name(lang) for key, entry in items.items()}
                for group, items in self.entries.items()}

    def summary(self) -> dict[str, str]:
        return {"id": self.id, "name_ru": self.name_ru, "name_en": self.name_en,
                "version": self.version}
