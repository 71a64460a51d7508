"""Man-to-man combat (Бой «Один на один») and Table 23, dismounting (Таблица 23: Спешивание).

The weapon table (Appendix B) is not in the seed, so each weapon's class is the player's input.
Muster's readings where the seed is terse: "на 2 класса выше/ниже" is two or more classes;
parry rule 4 b) ("ниже на 3 класса") is exactly three classes lower, c) four to seven, d) eight
or more; in round 2 only the opponent of the first striker can take the first blow from him
(rules b and c name the opponent); a left-flank or rear attack overrides the rest; the long
weapon's charge (the note to d) keeps the attacker's first blow against any lighter weapon in
round 1, unless the defender fights from a higher position, and leaves such a defender (4 c,
4 d) only the parry or the second blow.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.domain.base import Whole

Side = Literal["attacker", "defender"]
FootWeight = Literal["light", "medium", "heavy"]
MAX_CLASS = 20
HORSE_BLOW: dict[str, tuple[int, str]] = {  # the foot's weight → (blows, as weapon)
    "light": (1, "mace"), "medium": (2, "mace"), "heavy": (2, "flail")}
# Table 23: the d6 after a dismounting → turns stunned.
DISMOUNT = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 3}


class Fighter(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    weapon_class: Whole = Field(ge=1, le=MAX_CLASS, description="the weapon's class (Appendix B)")
    mounted: bool = False
    higher: bool = Field(default=False, description="fights from a higher position (a wall)")
    leader: bool = False
    berserker: bool = False
    foot_weight: FootWeight = "medium"  # type: ignore[valid-type]
    charging: bool = Field(default=False, description="the attacker charges")
    long_weapon: bool = Field(default=False, description="a pike, spear or lance")
    long_weapon_charge: bool = Field(default=False, description="charging and long_weapon "
                                     "at once (the one field older callers send)")

    @property
    def long_charge(self) -> bool:
        return self.long_weapon_charge or (self.charging and self.long_weapon)


class Fight(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    attacker: Fighter
    defender: Fighter
    attacked_from: Literal["front", "left_flank", "rear"] = "front"


def other(side: Side) -> Side:
    return "defender" if side == "attacker" else "attacker"


def gap(fight: Fight, side: Side) -> int:
    """How many classes `side`'s weapon is below the other's (negative: above)."""
    me, them = (fight.attacker, fight.defender)[::1 if side == "attacker" else -1]
    return them.weapon_class - me.weapon_class


def long_charge_first(fight: Fight) -> bool:
    """The note to 4 d): «Пики, копья или копья нападающего действительно получают первый
    удар по оружию более низкого класса, если есть заряд» — from the front, against a lower
    class; a defender on a higher position (1 c) keeps his first blow, as the note speaks
    only of the lighter weapon's."""
    return (fight.attacker.long_charge and gap(fight, "defender") > 0
            and fight.attacked_from == "front" and not fight.defender.higher)


def first_in_round_1(fight: Fight) -> tuple[Side, str]:
    """Who strikes first in round 1, and the rule that decides it."""
    if fight.attacked_from == "rear":
        return "attacker", "rear"
    if fight.attacked_from == "left_flank":
        return "attacker", "left_flank"
    if long_charge_first(fight):
        return "attacker", "charge"
    if gap(fight, "defender") >= 8:
        return "defender", "4d"
    if gap(fight, "defender") <= -2:
        return "defender", "1b"
    if fight.defender.higher:
        return "defender", "1c"
    return "attacker", "1a"


def first_in_round_2(fight: Fight) -> tuple[Side, str]:
    """Who strikes first in round 2, and the rule that decides it."""
    if fight.attacked_from == "rear":
        return "attacker", "rear"
    before, _ = first_in_round_1(fight)
    opponent = other(before)
    if gap(fight, opponent) >= 2:
        return opponent, "2b"
    if getattr(fight, opponent).higher:
        return opponent, "2c"
    return before, "2a"


def blows(fight: Fight, side: Side) -> int:
    """Blows a round: two at four classes lower, three at eight."""
    below = gap(fight, side)
    return 3 if below >= 8 else 2 if below >= 4 else 1


@dataclass(frozen=True)
class Parry:
    rule: str  # "4a" … "4d"
    allowed: bool
    minus: int  # taken from the attacker's roll
    counter: str  # "no" | "once" | "yes"
    charge: bool = False  # 4 c/d facing a charging long weapon: no first blow in round 1
    # Why a defender of 4 c/d has no first blow in round 1, None when he has it: "charge",
    # "left_flank" («автоматически ходит вторым в 1-м раунде») or "rear" («не контратакует
    # в 1-м раунде»).
    first_blow_lost: str | None = None


def parry(fight: Fight, side: Side) -> Parry:
    """What `side` may do against the other's blow (rule 4). Against a charging long weapon
    the first blow of 4 c (its choice) and of 4 d is the attacker's in round 1: the defender
    keeps only the parry or the second blow."""
    below = gap(fight, side)
    charged = side == "defender" and long_charge_first(fight)
    lost = _first_blow_lost(fight, side, charged)
    if below <= -2:
        return Parry("4a", False, 0, "yes")
    if below == 3:
        return Parry("4b", True, 2, "no")
    if 4 <= below <= 7:
        return Parry("4c", True, 2, "once", charged, lost)
    if below >= 8:
        return Parry("4d", True, 1, "yes", charged, lost)
    return Parry("", False, 0, "yes")


def _first_blow_lost(fight: Fight, side: Side, charged: bool) -> str | None:
    """A left-flank or rear attack overrides 4 c/d's first blow as it overrides 1 b/c."""
    if side != "defender":
        return None
    if fight.attacked_from != "front":
        return fight.attacked_from
    return "charge" if charged else None


def modifier(fight: Fight, side: Side, round_: int) -> int:
    """What is added to `side`'s die in the round: horse against foot, the rear, leader,
    berserker."""
    me, them = getattr(fight, side), getattr(fight, other(side))
    total = 0
    if me.mounted and not them.mounted:
        total += 2 if round_ == 1 else 1
    elif them.mounted and not me.mounted:
        total -= 1
    if side == "attacker" and fight.attacked_from == "rear":
        total += 1
    if me.leader:
        total += 1
    if me.berserker:
        total -= 2
    return total


def strikes(fight: Fight, side: Side, round_: int) -> bool:
    """A man attacked from the rear does not strike back in round 1."""
    return not (round_ == 1 and side == "defender" and fight.attacked_from == "rear")


def horse_blow(fight: Fight, side: Side) -> tuple[int, str] | None:
    """In round 2 a rider's horse strikes too, at foot only, by the foot's weight."""
    me, them = getattr(fight, side), getattr(fight, other(side))
    if me.mounted and not them.mounted:
        return HORSE_BLOW[them.foot_weight]
    return None


def dismount_chances() -> dict[int, Fraction]:
    """Table 23: turns stunned → chance."""
    out: dict[int, Fraction] = {}
    for turns in DISMOUNT.values():
        out[turns] = out.get(turns, Fraction(0)) + Fraction(1, 6)
    return out


def _fraction(p: Fraction) -> dict[str, int]:
    return {"numerator": p.numerator, "denominator": p.denominator}


def fight_json(fight: Fight) -> dict[str, object]:
    r1, why1 = first_in_round_1(fight)
    r2, why2 = first_in_round_2(fight)
    sides = {}
    for side in ("attacker", "defender"):
        p = parry(fight, side)  # type: ignore[arg-type]
        sides[side] = {
            "blows": blows(fight, side),  # type: ignore[arg-type]
            "strikes": {"1": strikes(fight, side, 1), "2": True},  # type: ignore[arg-type]
            "modifier": {"1": modifier(fight, side, 1), "2": modifier(fight, side, 2)},  # type: ignore[arg-type]
            "parry": {"rule": p.rule or None, "allowed": p.allowed, "minus": p.minus,
                      "counter": p.counter, "charge": p.charge,
                      "first_blow_lost": p.first_blow_lost},
            "horse_blow": (dict(zip(("blows", "as"), hb, strict=True))
                           if (hb := horse_blow(fight, side)) else None),  # type: ignore[arg-type]
        }
    mixed = fight.attacker.mounted != fight.defender.mounted
    return {"first": {"1": {"side": r1, "rule": why1}, "2": {"side": r2, "rule": why2}},
            "sides": sides,
            "dismount": ({str(k): _fraction(v) for k, v in dismount_chances().items()}
                         if mixed else None)}
