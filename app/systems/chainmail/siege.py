"""Sieges (ОСАДЫ): Table 21's structures, Table 22's weapons, and the covered rams.

"Каждый тип оружия уничтожает определённое количество Очков Структуры, и, как только они
заканчиваются, цель уничтожается": a structure of P points falls to ⌈P / v⌉ hits of a weapon
removing v. The seed gives damage per hit, not the chance to hit (that is the artillery's own
fire), so a battery's turns are counted as if each engine lands one hit a turn: the fewest.

Covered rams, bores and hammers deal 2 points each turn they work; "Защитник может
деактивировать их … в любой Ход их работы, если на броске двух кубиков выпадет 9 или больше".
Muster's reading: each turn, for each working ram, the defender rolls 2d6 before its blow; on
9+ (10 of 36) it is disabled and that turn's 2 points are not dealt. So a ram deals 2·K points,
K the turns before the first 9+, and the rams stop when the structure falls.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from math import ceil, comb
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, create_model

from app.domain.base import Whole
from app.domain.catalogue_entries import Named
from app.domain.translations import N_, NP_

RAM_DAMAGE = 2
DISABLE_AT = 9  # on 2d6
DISABLE = Fraction(sum(a + b >= DISABLE_AT for a, b in product(range(1, 7), repeat=2)), 36)
KEEP = 1 - DISABLE
MAX_STRUCTURES, MAX_ENGINES, MAX_RAMS = 10, 50, 10


@dataclass(frozen=True)
class Structure(Named):
    least: int
    most: int


@dataclass(frozen=True)
class Engine(Named):
    damage: int


STRUCTURES: dict[str, Structure] = {s.id: s for s in (
    Structure("bastion", N_("Bastions and round towers"), 40, 60),
    Structure("gatehouse", N_("Gatehouses, square towers and gates"), 30, 45),
    Structure("curtain_wall", N_("Curtain walls and stone buildings"), 25, 40),
    Structure("rampart", N_("Ramparts and earth-filled gabions"), 20, 30),
    Structure("palisade", N_("Wooden structures and palisades"), 5, 15),
    Structure("large_engine", N_("Cannon and large catapults"), 5, 5),
    Structure("small_engine", N_("Small catapults and mobile mantlets"), 3, 3),
)}

ENGINES: dict[str, Engine] = {e.id: e for e in (
    Engine("bombard", N_("Bombard"), 6),
    Engine("heavy_field_gun", N_("Heavy field gun"), 4),
    Engine("light_field_gun", N_("Light field gun"), 3),
    # Table 22 writes «Тяжёлая Катапульта», the army's engines «Тяжёлая катапульта».
    Engine("heavy_catapult", NP_("siege", "Heavy catapult"), 3, context="siege"),
    Engine("light_catapult", NP_("siege", "Light catapult"), 2, context="siege"),
)}

StructureId = Literal[tuple(STRUCTURES)]  # type: ignore[valid-type]
EngineId = Literal[tuple(ENGINES)]  # type: ignore[valid-type]


def hits_to_destroy(points: int) -> dict[str, int]:
    return {e.id: ceil(points / e.damage) for e in ENGINES.values()}


def ram_damage(rams: int, points: int) -> dict[int, Fraction]:
    """The rams' damage before all are disabled (or the structure falls): value → chance.

    One ram's K (turns before its first 9+) is geometric; the rams are independent, so the
    total is a sum of independent counts, capped at the structure's points.
    """
    if rams == 0:
        return {0: Fraction(1)}
    turns = ceil(points / RAM_DAMAGE)  # no ram need work longer than this
    one = {RAM_DAMAGE * k: KEEP ** k * DISABLE for k in range(turns)}
    one[RAM_DAMAGE * turns] = KEEP ** turns
    total = {0: Fraction(1)}
    for _ in range(rams):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in one.items():
                v = min(a + b, points)
                nxt[v] = nxt.get(v, Fraction(0)) + pa * pb
        total = nxt
    return dict(sorted(total.items()))


def _survivors(working: int) -> list[tuple[int, Fraction]]:
    return [(s, comb(working, s) * KEEP ** s * DISABLE ** (working - s))
            for s in range(working + 1)]


def turns_to_fall(points: int, battery: int, rams: int) -> tuple[dict[int, Fraction], Fraction]:
    """Turns until the structure falls to the battery (`battery` points a turn, every engine
    hitting) and the working rams: {turn: chance}, and the chance it never falls (no battery,
    every ram disabled first). Each turn strictly adds damage or ends the rams, so it stops."""
    states: dict[tuple[int, int], Fraction] = {(0, rams): Fraction(1)}
    falls: dict[int, Fraction] = {}
    never = Fraction(0)
    turn = 0
    while states:
        turn += 1
        nxt: dict[tuple[int, int], Fraction] = {}
        for (done, working), p in states.items():
            for alive, q in _survivors(working):
                dealt = done + battery + RAM_DAMAGE * alive
                if dealt >= points:
                    falls[turn] = falls.get(turn, Fraction(0)) + p * q
                elif battery == 0 and alive == 0:
                    never += p * q
                else:
                    key = (dealt, alive)
                    nxt[key] = nxt.get(key, Fraction(0)) + p * q
        states = nxt
    return falls, never


# ---------------------------------------------------------------- the request and the answer

def _structure_model(s: Structure) -> type[BaseModel]:
    """One kind of structure, its points bounded by its own Table 21 range, so that the
    schema says which points each kind takes."""
    kind_type: Any = Literal[s.id]  # type: ignore[valid-type]
    model: type[BaseModel] = create_model(
        f"Structure_{s.id}", __config__=ConfigDict(extra="forbid"),
        kind=(kind_type, ...),
        points=(Whole, Field(ge=s.least, le=s.most, strict=True,
                             description=f"Table 21: {s.least}–{s.most}")))
    return model


STRUCTURE_TAGS = {s.id: f"chainmail:structure:{s.id}" for s in STRUCTURES.values()}


def _structure_kind(value: Any) -> str | None:
    kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
    return STRUCTURE_TAGS.get(kind) if isinstance(kind, str) else None


StructureIn = Annotated[
    Union[tuple(Annotated[_structure_model(s), Tag(STRUCTURE_TAGS[s.id])]  # noqa: UP007
                for s in STRUCTURES.values())],  # type: ignore[valid-type]
    Discriminator(_structure_kind, custom_error_type="structure_kind",
                  custom_error_message="kind: one of " + ", ".join(STRUCTURES)),
]


class EngineIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: EngineId  # type: ignore[valid-type]
    count: Whole = Field(ge=0, le=MAX_ENGINES, strict=True)


class SiegeRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    structures: list[StructureIn] = Field(  # type: ignore[valid-type]
        min_length=1, max_length=MAX_STRUCTURES)
    weapons: list[EngineIn] = Field(default_factory=list, max_length=len(ENGINES) * 2)
    rams: Whole = Field(default=0, ge=0, le=MAX_RAMS, strict=True)


def _fraction(p: Fraction) -> dict[str, int]:
    return {"numerator": p.numerator, "denominator": p.denominator}


def battery_damage(weapons: list[EngineIn]) -> int:
    return sum(ENGINES[w.kind].damage * w.count for w in weapons)


def structure_json(kind: str, points: int, battery: int, rams: int) -> dict[str, object]:
    falls, never = turns_to_fall(points, battery, rams)
    damage = ram_damage(rams, points)
    return {
        "kind": kind, "points": points, "hits_to_destroy": hits_to_destroy(points),
        "battery": {"damage_per_turn": battery,
                    "turns": ceil(points / battery) if battery else None},
        "rams": {"count": rams, "damage": [{"damage": d, "probability": _fraction(p)}
                                           for d, p in damage.items()],
                 "destroyed": _fraction(damage.get(points, Fraction(0)) if rams
                                        else Fraction(0))},
        "turns": [{"turn": t, "probability": _fraction(p)} for t, p in falls.items()],
        "never": _fraction(never),
    }


def siege_json(request: SiegeRequest) -> dict[str, object]:
    battery = battery_damage(request.weapons)
    return {"disable_chance": _fraction(DISABLE), "battery_damage_per_turn": battery,
            "structures": [structure_json(s.kind, s.points, battery, request.rams)  # type: ignore[attr-defined]
                           for s in request.structures]}
