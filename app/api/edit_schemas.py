"""The JSON shapes of the roster edits API (app/api/roster_edits.py): the PATCH body and the
"Make it legal" answer, so that /docs (OpenAPI) shows every rule system's edits.

Which edits a roster takes depends on its rule system, which the body does not name: the body
is described as any system's edit (`anyOf` the three systems' unions, each told apart by `op`)
and taken as a list of JSON objects; app/services/edits.py then validates them as the roster's
own system's edits, so that a refusal names `body.edits.<i>.<field>` of that system alone.
"""

from __future__ import annotations

from typing import Annotated, Any, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    WithJsonSchema,
)
from pydantic_core import PydanticCustomError, core_schema

from app.domain.edits import Edit
from app.systems import SYSTEMS

MAX_EDITS = 100


def _json_object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PydanticCustomError("dict_type", "Input should be a valid dictionary (an edit)")
    return value


class _Titled:
    """Gives a system's union of edits, in the description, its title and a sentence."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema,
                                     handler: GetJsonSchemaHandler) -> dict[str, Any]:
        name = SYSTEMS[self.ruleset].name("en")
        return {**handler(schema), "title": f"{name} edit",
                "description": f"An edit of a {name} roster (ruleset {self.ruleset!r})"}


class _AnyEdit:
    """A JSON object taken as it is (the roster's system validates it), described as an edit
    of any rule system."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any,
                                     handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        described = core_schema.union_schema([
            handler.generate_schema(Annotated[system.edit, _Titled(ruleset)])
            for ruleset, system in SYSTEMS.items()])
        return core_schema.no_info_plain_validator_function(
            _json_object, json_schema_input_schema=described)


def _ops(union: Any) -> list[str]:
    return [member.model_fields["op"].default for member in get_args(get_args(union)[0])]


def _suggested_edit() -> WithJsonSchema:
    """An answer's edit, described by its `op` alone: the edits' own schemas are the PATCH
    body's (a second copy, in the answers' serialisation mode, would only repeat them under
    new names). Only the systems that offer "Make it legal" suggest edits."""
    offering = [system for system in SYSTEMS.values() if system.suggest is not None]
    return WithJsonSchema({
        "type": "object", "required": ["op"],
        "properties": {"op": {"type": "string", "enum": sorted(
            {op for system in offering for op in _ops(system.edit)},
            key=[op for system in offering for op in _ops(system.edit)].index)}},
        "description": f"a {' or '.join(s.name('en') for s in offering)} edit, as the PATCH "
                       "body takes it"})


_SUGGESTED_EDIT = _suggested_edit()


class RosterEdits(BaseModel):
    """`PATCH /api/v1/rosters/{id}`'s body: edits of the roster's own rule system, made in
    order as one new version, or none of them."""

    model_config = ConfigDict(extra="forbid", strict=True)

    edits: list[_AnyEdit] = Field(  # type: ignore[valid-type]
        min_length=1, max_length=MAX_EDITS,
        description="1 to 100 edits of the roster's rule system, each told apart by its `op`; "
                    "units, lines and engines are named by their ids in the document "
                    "(`u1`, `l1`, `e1`)")


class LegalSuggestion(BaseModel):
    """What "Make it legal" would change in the roster's current version, and the edits that
    make it, as `PATCH /api/v1/rosters/{id}` takes them."""

    possible: bool = Field(description="whether a change of figures can keep every rule")
    reason: str | None = Field(description="why not, when it cannot")
    outcome: str = Field(description="what the edits do, in words (empty: nothing to change)")
    moved: int = Field(description="figures added or removed in all")
    total: float = Field(description="the army's points once the edits are made")
    version: int = Field(description="the version suggested for: PATCH with If-Match "
                                     "\"v<version>\"")
    edits: list[Annotated[dict[str, Any], _SUGGESTED_EDIT]] = Field(
        description="the edits that make it (none when nothing is to change or it cannot)")


def edit_data(edit: Edit) -> dict[str, Any]:
    """An edit as a client would send it: its `op` and the fields it was made with."""
    return {"op": edit.op, **edit.model_dump(mode="json", by_alias=True,  # type: ignore[attr-defined]
                                             exclude_unset=True)}
