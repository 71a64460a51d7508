"""The Chainmail roster document (the JSON a client sends) as pydantic models.

Ids are checked against the catalogue, so an unknown troop, weapon, engine, nation or flag is
refused with the field's path and the allowed values.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from app.domain import limits
from app.domain.base import Whole, whole_in
from app.domain.ids import REPEATED_ID, ItemId, with_ids
from app.domain.player_text import Note, RosterName, UnitName
from app.domain.translations import N_
from app.systems.chainmail.catalogue import ENGINES, FLAGS, NATIONS, TROOPS, WEAPONS

# Literal types built from the catalogue: the data stays the single source of the ids.
TroopId = Literal.__getitem__(tuple(TROOPS))  # type: ignore[attr-defined]
WeaponId = Literal.__getitem__(tuple(WEAPONS))  # type: ignore[attr-defined]
EngineId = Literal.__getitem__(tuple(ENGINES))  # type: ignore[attr-defined]
NationId = Literal.__getitem__(tuple(NATIONS))  # type: ignore[attr-defined]
FlagId = Literal.__getitem__(tuple(FLAGS))  # type: ignore[attr-defined]


# The refusals of the models' own checks (msgids; ids.py's is every system's): a page says
# them in its language, the API as written.
REPEATED_FLAG = N_("each flag may appear only once")
VALUE_ERRORS = frozenset({REPEATED_FLAG, REPEATED_ID})


class _Document(BaseModel):
    # Unknown keys are refused rather than dropped: a typo must not silently lose data. Types
    # are strict, as the published JSON Schema says: `0` is no `false`, "10" no number.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Line(_Document):
    id: ItemId | None = None  # always set once in a roster (ids.with_ids)
    troop: TroopId  # type: ignore[valid-type]
    figures: Whole = Field(ge=1, le=limits.MAX_FIGURES)
    weapon: WeaponId = "none"  # type: ignore[valid-type]


class Unit(_Document):
    id: ItemId | None = None
    name: UnitName = ""
    mercenary: bool = False
    flags: list[FlagId] = Field(  # type: ignore[valid-type]
        default_factory=list, max_length=len(FLAGS), json_schema_extra={"uniqueItems": True})
    lines: list[Line] = Field(default_factory=list, max_length=limits.MAX_LINES)
    note: Note = ""

    @field_validator("flags")
    @classmethod
    def _flags_once(cls, flags: list[str]) -> list[str]:
        if len(set(flags)) != len(flags):
            raise ValueError(REPEATED_FLAG)
        return flags


class EngineOrder(_Document):
    id: ItemId | None = None
    kind: EngineId  # type: ignore[valid-type]
    count: Whole = Field(ge=1, le=limits.MAX_ENGINE_COUNT)
    mercenary: bool = False


class ChainmailRoster(_Document):
    name: RosterName
    ruleset: Literal["chainmail"]
    nation: NationId = "generic"  # type: ignore[valid-type]
    points_limit: whole_in(1, limits.MAX_POINTS_LIMIT) | None = None
    historical: bool = True
    fortifications: bool = False
    note: Note = ""
    units: list[Unit] = Field(default_factory=list, max_length=limits.MAX_UNITS)
    engines: list[EngineOrder] = Field(default_factory=list, max_length=limits.MAX_ENGINES)

    @model_validator(mode="before")
    @classmethod
    def _ids(cls, data: object) -> object:
        return with_ids(data)
