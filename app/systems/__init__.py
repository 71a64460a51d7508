"""The one registry of the rule systems Muster knows, by id, and what is derived from it: the
roster document any system accepts, the priced result of any system, and (by the API) the
edits of any system. A new rule system is a package beside `chainmail/` and one line here.
Pure: no web, database or template imports."""

from __future__ import annotations

from app.domain.system import RuleSystem
from app.systems.chainmail import CHAINMAIL
from app.systems.formation_density import FORMATION_DENSITY
from app.systems.line_and_square import LINE_AND_SQUARE

SYSTEMS: dict[str, RuleSystem] = {system.id: system for system in (
    CHAINMAIL,
    LINE_AND_SQUARE,
    FORMATION_DENSITY,
)}

# The first registered is the one the pages offer first (the home page's, a new event's).
DEFAULT_SYSTEM: str = next(iter(SYSTEMS))


def get_system(ruleset_id: str) -> RuleSystem | None:
    return SYSTEMS.get(ruleset_id)


__all__ = ["SYSTEMS", "get_system"]


def _document_type() -> object:
    """The roster document any rule system accepts, told apart by its `ruleset` field."""
    from typing import Annotated, Union

    from pydantic import Discriminator

    models = tuple(system.roster_model for system in SYSTEMS.values())
    if len(models) == 1:
        return models[0]
    # Union[tuple] spells "any of these models"; the `|` operator cannot take a tuple.
    # A Discriminator rather than Field(discriminator=...): FastAPI's `= Body(...)` replaces
    # a parameter's Field, and the union would silently fall back to trying every model.
    return Annotated[Union[models], Discriminator("ruleset")]  # type: ignore  # noqa: UP007


RosterDocument = _document_type()


def results_type() -> object:
    """The priced result of any rule system: the union of each system's result model, told
    apart by a field only that system's result has (results carry no `ruleset`). Without the
    discriminator pydantic validates a result against every model to choose one: a 20-unit
    Chainmail result took 160 µs instead of 31, on every read and price."""
    from typing import Annotated, Union

    from pydantic import BaseModel, Discriminator, Tag

    systems = list(SYSTEMS.values())
    if len(systems) == 1:
        return systems[0].result_model
    fields = {s.id: set(s.result_model.model_fields) for s in systems}
    marks: dict[str, str] = {}
    for system in systems:
        others = set().union(*(fields[o.id] for o in systems if o is not system))
        own = sorted(fields[system.id] - others)
        if not own:
            raise TypeError(f"{system.id}'s result has no field of its own to be told apart by")
        marks[system.id] = own[0]

    def system_of(value: object) -> str | None:
        keys = type(value).model_fields if isinstance(value, BaseModel) else value
        if not isinstance(keys, dict):
            return None
        return next((id_ for id_, mark in marks.items() if mark in keys), None)

    tagged = tuple(Annotated[s.result_model, Tag(s.id)] for s in systems)
    return Annotated[Union[tagged], Discriminator(system_of)]  # type: ignore  # noqa: UP007


__all__ += ["RosterDocument", "results_type"]
