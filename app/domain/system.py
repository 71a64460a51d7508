"""What every rule system offers the rest of the application.

The web layer talks only to this interface (through the registry), so a new game is a new
package beside `chainmail/` that provides one `RuleSystem`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from app.domain.base import Issue, Lang, RuleCheck, Verdict, verdict_of


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


@dataclass(frozen=True)
class RuleSystem:
    id: str
    name_ru: str
    name_en: str
    version: str
    roster_model: type[BaseModel]
    result_model: type[BaseModel]  # the JSON shape of `evaluate(...).result`
    catalogue: Callable[[], dict[str, Any]]  # built once and shared: read it, never change it
    evaluate: Callable[[Any, Lang], Evaluation]

    def __post_init__(self) -> None:
        # The catalogue is fixed data every page reads; building it anew cost each editor
        # change more than a database read.
        object.__setattr__(self, "catalogue", functools.cache(self.catalogue))

    def summary(self) -> dict[str, str]:
        return {"id": self.id, "name_ru": self.name_ru, "name_en": self.name_en,
                "version": self.version}
