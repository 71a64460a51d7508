"""Chainmail's edits: units of lines, their special rules, engines, the army's settings, and
"Make it legal" (app/domain/edits.py has the ones every system shares)."""

from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field

from app.domain import edits as common
from app.domain import limits
from app.domain.base import Lang, Whole
from app.domain.edits import (
    Document,
    Edit,
    EditError,
    distinct_name,
    line_of,
    room_for_line,
    unit_of,
)
from app.domain.ids import ItemId, next_id
from app.domain.player_text import Note, UnitName
from app.systems.chainmail import make_legal as legal
from app.systems.chainmail.catalogue import PRESETS
from app.systems.chainmail.roster import (
    REPEATED_FLAG,
    ChainmailRoster,
    EngineId,
    FlagId,
    NationId,
    TroopId,
    WeaponId,
)

PresetId = Literal.__getitem__(tuple(PRESETS))  # type: ignore[attr-defined]
Figures = Annotated[Whole, Field(ge=1, le=limits.MAX_FIGURES)]
Count = Annotated[Whole, Field(ge=1, le=limits.MAX_ENGINE_COUNT)]
Flags = Annotated[list[FlagId], Field(max_length=32)]  # type: ignore[valid-type]

# A refusal already in the player's language (make_legal's reason, worded as it was found).
_SAID = "%(reason)s"


def _once_each(flags: list[str]) -> None:
    """A unit's flags as the roster takes them, each once: refused at the edit's `flags`
    before the unit changes."""
    if len(set(flags)) != len(flags):
        raise EditError("flags", REPEATED_FLAG)


class NewLine(BaseModel):
    """A line of a unit being added: `figures` of one troop type with one weapon."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    troop: TroopId = "light_foot"  # type: ignore[valid-type]
    figures: Figures = 10
    weapon: WeaponId = "none"  # type: ignore[valid-type]


class SetRoster(common.SetRoster):
    nation: NationId | None = None  # type: ignore[valid-type]
    historical: bool | None = None
    fortifications: bool | None = None


class AddUnit(Edit):
    """A unit at the end of the list: a preset's (its name, in the page's language and told
    apart from the other units' names ("Horse archers 2"), unless one is given), or its own
    lines (one line of 10 light foot when none is given)."""

    op: Literal["add_unit"] = "add_unit"
    preset: PresetId | None = None  # type: ignore[valid-type]
    name: UnitName | None = None
    mercenary: bool = False
    flags: Flags = Field(default_factory=list)
    note: Note = ""
    lines: list[NewLine] = Field(default_factory=list, max_length=limits.MAX_LINES)

    def apply(self, doc: Document, lang: Lang) -> None:
        common.room_for_unit(doc)
        _once_each(self.flags)
        if self.preset is not None:
            preset = PRESETS[self.preset]
            lines = [{"troop": preset.troop, "figures": preset.figures, "weapon": preset.weapon}]
            name = self.name or distinct_name(doc["units"], preset.name(lang))
            flags = list(preset.flags)
        else:
            lines = [line.model_dump() for line in self.lines or [NewLine()]]
            name, flags = self.name or "", list(self.flags)
        doc["units"].append(common.new_unit(doc, {
            "name": name, "mercenary": self.mercenary, "flags": flags, "note": self.note,
            "lines": lines}))


class SetUnit(common.SetUnit):
    mercenary: bool | None = None
    flags: Flags | None = None

    def apply(self, doc: Document, lang: Lang) -> None:
        if self.flags is not None:
            _once_each(self.flags)
        super().apply(doc, lang)


# A second line is most often the mixed horse the rules allow: it starts as the next type.
_NEXT_TROOP = {"light_horse": "medium_horse", "medium_horse": "heavy_horse",
               "heavy_horse": "medium_horse"}


class AddLine(Edit):
    """A line at the end of a unit: 5 figures, no weapon, of the type after the unit's last
    (light horse, then medium, then heavy) unless one is given."""

    op: Literal["add_line"] = "add_line"
    unit: ItemId
    troop: TroopId | None = None  # type: ignore[valid-type]
    figures: Figures = 5
    weapon: WeaponId = "none"  # type: ignore[valid-type]

    def apply(self, doc: Document, lang: Lang) -> None:
        unit = unit_of(doc, self.unit)
        room_for_line(unit)
        last = unit["lines"][-1]["troop"] if unit["lines"] else "light_horse"
        unit["lines"].append({"id": next_id("l", (line.get("id") for line in unit["lines"])),
                              "troop": self.troop or _NEXT_TROOP.get(last, last),
                              "figures": self.figures, "weapon": self.weapon})


class SetLine(common.SetLine):
    figures: Figures | None = None
    troop: TroopId | None = None  # type: ignore[valid-type]
    weapon: WeaponId | None = None  # type: ignore[valid-type]


class StepFigures(Edit):
    """One figure more or fewer in a line (a folded row's + and −), never under one."""

    op: Literal["step_figures"] = "step_figures"
    unit: ItemId
    line: ItemId
    by: Literal[-1, 1]

    def apply(self, doc: Document, lang: Lang) -> None:
        line = line_of(unit_of(doc, self.unit), self.line)
        line["figures"] = max(1, line["figures"] + self.by)


RemoveLine = common.RemoveLine


def _engine_of(doc: Document, engine_id: str) -> Document:
    for engine in doc["engines"]:
        if engine.get("id") == engine_id:
            return engine  # type: ignore[no-any-return]
    raise EditError("engine", common.NO_ENGINE, id=engine_id)


class AddEngine(Edit):
    op: Literal["add_engine"] = "add_engine"
    kind: EngineId  # type: ignore[valid-type]
    count: Count
    mercenary: bool = False

    def apply(self, doc: Document, lang: Lang) -> None:
        if len(doc["engines"]) >= limits.MAX_ENGINES:
            raise EditError("engine", common.TOO_MANY_ENGINES, n=limits.MAX_ENGINES)
        doc["engines"].append({"id": next_id("e", (e.get("id") for e in doc["engines"])),
                               "kind": self.kind, "count": self.count,
                               "mercenary": self.mercenary})


class SetEngine(Edit):
    op: Literal["set_engine"] = "set_engine"
    engine: ItemId
    kind: EngineId | None = None  # type: ignore[valid-type]
    count: Count | None = None
    mercenary: bool | None = None

    def apply(self, doc: Document, lang: Lang) -> None:
        _engine_of(doc, self.engine).update(self.changes())


class RemoveEngine(Edit):
    op: Literal["remove_engine"] = "remove_engine"
    engine: ItemId

    def apply(self, doc: Document, lang: Lang) -> None:
        doc["engines"].remove(_engine_of(doc, self.engine))


class MakeLegal(Edit):
    """The smallest change in figures that keeps every numeric rule (make_legal.py), made in
    one step as the very edits `suggested` offers (so the page's "Make these changes" and a
    client's PATCH of the API's suggestion make the same roster); refused, with the reason in
    words, when no change of figures can do it. `fill`: "Fill to the limit" instead, the
    fewest figures added that make the army legal with its points nearest its limit."""

    op: Literal["make_legal"] = "make_legal"
    fill: bool = False

    def apply(self, doc: Document, lang: Lang) -> None:
        found, made = suggested(ChainmailRoster.model_validate(doc), lang, fill=self.fill)
        if not found.possible:
            raise EditError("op", _SAID, reason=found.reason)
        for edit in made:
            edit.apply(doc, lang)


def suggested(roster: ChainmailRoster, lang: Lang, fill: bool = False
              ) -> tuple[legal.Suggestion, list[Edit]]:
    """What "Make it legal" (or, `fill`, "Fill to the limit") would do, as the edits that do
    it: each changed line's figures, the lines it removes (the unit, when none is left), the
    units it adds (a preset's named after it, told apart from the others, with its flags)."""
    found = legal.fill(roster, lang) if fill else legal.make_legal(roster, lang)
    made: list[Edit] = []
    for u, unit in enumerate(roster.units):
        mine = {c.line: c.new for c in found.changes if c.unit == u}
        if unit.lines and all(mine.get(j) == 0 for j in range(len(unit.lines))):
            made.append(common.RemoveUnit(unit=unit.id))
            continue
        for j, line in enumerate(unit.lines):
            if j in mine:
                made.append(SetLine(unit=unit.id, line=line.id, figures=mine[j]) if mine[j]
                            else RemoveLine(unit=unit.id, line=line.id))
    made += [AddUnit(lines=[NewLine(troop=c.troop, figures=c.new, weapon=c.weapon)],
                     **({"name": c.name, "flags": list(PRESETS[c.preset].flags)} if c.preset
                        else {}))
             for c in found.changes if c.unit is None and c.new > 0]
    return found, made


ChainmailEdit = Annotated[Union[  # noqa: UP007
    SetRoster, AddUnit, SetUnit, common.DuplicateUnit, common.MoveUnit, common.RemoveUnit,
    AddLine, SetLine, StepFigures, RemoveLine, AddEngine, SetEngine, RemoveEngine, MakeLegal,
], Discriminator("op")]

