"""The rule systems Muster knows, by id. Pure domain: no web, database or template imports."""

from __future__ import annotations

from app.domain.chainmail import CHAINMAIL
from app.domain.formation_density import FORMATION_DENSITY
from app.domain.line_and_square import LINE_AND_SQUARE
from app.domain.system import Evaluation, RuleSystem

RULESETS: dict[str, RuleSystem] = {system.id: system for system in (CHAINMAIL, LINE_AND_SQUARE,
                                                                    FORMATION_DENSITY)}


def get_ruleset(ruleset_id: str) -> RuleSystem | None:
    return RULESETS.get(ruleset_id)


__all__ = ["RULESETS", "Evaluation", "RuleSystem", "get_ruleset"]


def _document_type() -> object:
    """The roster document any rule system accepts, told apart by its `ruleset` field."""
    from typing import Annotated, Union

    from pydantic import Discriminator

    models = tuple(system.roster_model for system in RULESETS.values())
    if len(models) == 1:
        return models[0]
    # Union[tuple] spells "any of these models"; the `|` operator cannot take a tuple.
    # A Discriminator rather than Field(discriminator=...): FastAPI's `= Body(...)` replaces
    # a parameter's Field, and the union would silently fall back to trying every model.
    return Annotated[Union[models], Discriminator("ruleset")]  # type: ignore  # noqa: UP007


RosterDocument = _document_type()


def results_type() -> object:
    """The priced result of any rule system (the union of each system's result model)."""
    from typing import Union

    models = tuple(system.result_model for system in RULESETS.values())
    return models[0] if len(models) == 1 else Union[models]  # type: ignore  # noqa: UP007


__all__ += ["RosterDocument", "results_type"]
