"""Chainmail at the table (the game companion's `GameRules`): the army's setup, Table 17's
peasants and the morale roll with the seed's bonuses, what a failed test does, and the
army's morale check at a third of it lost. Table 20's weather is `weather.py`."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from itertools import product
from typing import Any, Literal

from pydantic import Field

from app.domain.base import Lang, whole_in
from app.domain.game_rules import GameRefused, Roller, TestAsk, chance_json, percent, two_dice
from app.systems.chainmail import game_rolls as rolls
from app.systems.chainmail import weather as table20
from app.systems.chainmail.catalogue import TROOPS
from app.systems.chainmail.sheet import table19_rating
from app.systems.chainmail.sheet_text import BRIBED

PEASANT_MOVE = 7
# Table 17: the enemy unit → (attack, defence).
PEASANT_ENEMIES: dict[str, tuple[int, int]] = {
    "peasant": (4, 5),
    "light_foot": (6, 6),  # light foot and militia
    "heavy_foot": (8, 7),
    "armored_foot": (9, 8),  # armored foot and pikemen
    "light_horse": (10, 9),
    "medium_horse": (11, 10),
    "heavy_horse": (12, 11),
}
PEASANT_TESTS = ("move", "attack", "defend")
weather = table20  # Table 20, rolled every even turn
# The seed's own bonuses to a morale total, by the unit's flags (rules page §7).
MORALE_FLAGS = ("flemish", "religious_order")


def peasant_target(test: str, enemy: str | None) -> int:
    """What 2d6 must reach for the peasants to move, attack or defend against `enemy`."""
    if test == "move":
        return PEASANT_MOVE
    attack, defence = PEASANT_ENEMIES[enemy or ""]
    return attack if test == "attack" else defence


def at_least(target: int) -> Fraction:
    """The chance that 2d6 shows `target` or more, over the 36 throws."""
    return Fraction(sum(a + b >= target for a, b in product(range(1, 7), repeat=2)), 36)


def setup(document: Any, weather: str, castle_defenders: bool) -> dict[str, Any]:
    """`castle_defenders`: the army holds a castle («Вообще, защитникам замка не нужно
    проверять мораль»); games stored before it was asked have no such key: not. Units with
    no figures (engines aside) take no part."""
    units = [_unit(document.nation, u) for u in document.units]
    return {"ruleset": document.ruleset, "name": document.name, "nation": document.nation,
            "weather": weather, "castle_defenders": castle_defenders,
            "units": [u for u in units if u["figures"]]}


def _unit(nation: str, unit: Any) -> dict[str, Any]:
    rating = table19_rating(nation, unit, "en")
    troops = {line.troop for line in unit.lines}
    return {"name": unit.name, "figures": sum(line.figures for line in unit.lines),
            "mercenary": unit.mercenary, "peasants": troops == {"peasant"},
            "troops": sorted(troops), "horse": {TROOPS[t].troop_class for t in troops}
            == {"horse"}, "flags": sorted(unit.flags),
            "rating": rating.value if rating else None}


def roll(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
         needed: Callable[[], int | None]) -> dict[str, Any]:
    """"move", "attack" or "defend" (Table 17, peasants; "enemy" for the last two), "morale",
    or one of the seed's other rolls (`game_rolls.py`); each with the commander's +1 to every
    die where the seed gives it ("near_commander", "commander_lost")."""
    test = ask.get("test")
    if test == "order":
        raise GameRefused("test", "unknown_test", conflict=True)
    if test == "morale":
        return _morale(unit, ask, roller, needed())
    if test in rolls.TESTS:
        return rolls.TESTS[test](unit, ask, roller, commander_bonus(unit, ask, 1))
    return _peasants(unit, ask, roller)


def _peasants(unit: dict[str, Any], ask: dict[str, Any], roller: Roller) -> dict[str, Any]:
    """Table 17 on 2d6, with the commander's +1 to each die: his own peasants, or any within
    12″ of him, move on 5+ (2d6+2), not 7+."""
    if not unit.get("peasants"):
        raise GameRefused("unit", "not_peasants", conflict=True)
    test, enemy = ask.get("test", "move"), ask.get("enemy")
    if test not in PEASANT_TESTS:
        raise GameRefused("test", "unknown_test")
    if test != "move" and enemy not in PEASANT_ENEMIES:
        raise GameRefused("enemy", "unknown_enemy")
    target, dice = peasant_target(test, enemy), two_dice(roller)
    modifiers = commander_bonus(unit, ask, len(dice))
    modifier = sum(m["value"] for m in modifiers)
    return {"table": "17", "test": test, "enemy": enemy if test != "move" else None,
            "dice": dice, "target": target, "modifier": modifier, "modifiers": modifiers,
            "near_commander": bool(ask.get("near_commander")),
            "chance": chance_json(at_least(target - modifier)),
            "result": "pass" if sum(dice) + modifier >= target else "fail"}


def commander_bonus(unit: dict[str, Any], ask: dict[str, Any], dice: int) -> list[dict[str, Any]]:
    """The commander's "+1 к каждому брошенному кубику" as the roll's modifiers (none, or
    one named entry): his own unit's, or any unit's "в пределах 12'' от главнокомандующего"
    (the player says which); "Наёмники не получают эффектов от влияния главнокомандующего",
    and a commander killed or captured gives none."""
    if not ("commander" in unit["flags"] or ask.get("near_commander")):
        return []
    if ask.get("commander_lost"):
        return []
    if unit.get("mercenary"):
        return [{"source": "commander_mercenary", "value": 0}]  # said, so the 0 is understood
    source = "commander" if "commander" in unit["flags"] else "near_commander"
    return [{"source": source, "value": dice}]


def _morale(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
            needed: int | None) -> dict[str, Any]:
    # The seed gives the bonuses but no number to reach (its "standard morale tables" are
    # not in it): the player gives the unit's needed total, once; without it the total is
    # logged beside the unit's Table 19 rating, where it has one.
    dice = two_dice(roller)
    modifiers = [{"source": flag, "value": 1} for flag in MORALE_FLAGS if flag in unit["flags"]]
    modifiers += commander_bonus(unit, ask, len(dice))
    if ask.get("commander_lost"):
        modifiers.append({"source": "commander_lost", "value": -2})
    modifier = sum(m["value"] for m in modifiers)
    return {"table": "morale", "test": "morale", "dice": dice, "modifier": modifier,
            "modifiers": modifiers, "near_commander": bool(ask.get("near_commander")),
            "total": sum(dice) + modifier, "rating": unit.get("rating"), "needed": needed,
            "result": "rolled" if needed is None else
            "pass" if sum(dice) + modifier >= needed else "fail"}


def outcome(unit: dict[str, Any], rolled: dict[str, Any]) -> str | None:
    """Peasants who fail to move or to attack "должны остаться стоять на месте", who fail to
    defend "считаются как подавшиеся в Бегство"; a failed morale roll falls back, but
    religious orders "никогда не сдаются … продолжат сражение в обычном режиме"; knights who
do not throw the 6 charge "независимо от любых приказов"."""
    if rolled["result"] != "fail":
        return None
    if rolled["test"] == "discipline":
        return "charges"
    if rolled["test"] == "ladder":
        return None
    if rolled["test"] == "defend":
        return "routs"
    if rolled["test"] == "morale":
        return None if "religious_order" in unit.get("flags", ()) else "falls_back"
    return "halted"


def morale_at(army: Any) -> int | None:
    """The losses at which the army tests morale, a third of its figures, rounded up. The
    man-to-man section's «Мораль» gives it, after its first words «Вообще, защитникам замка
    не нужно проверять мораль»: castle defenders have none (None)."""
    return None if army.castle_defenders else math.ceil(army.figures / 3)


def army_state(army: Any) -> str:
    at = morale_at(army)
    return "morale_check" if at is not None and army.figures and army.lost >= at else "steady"


def thresholds(army: Any) -> dict[str, Any]:
    return {"figures": army.figures, "lost": army.lost, "morale_at": morale_at(army),
            "state": army_state(army)}



def _table17_odds(bonus: int) -> dict[str, Any]:
    """Table 17's targets and chances with `bonus` added to the 2d6 (the commander's +2)."""
    peasants = {enemy: {"attack": a, "attack_chance": percent(at_least(a - bonus)),
                        "defend": d, "defend_chance": percent(at_least(d - bonus))}
                for enemy, (a, d) in PEASANT_ENEMIES.items()}
    return {"move": percent(at_least(PEASANT_MOVE - bonus)), "peasants": peasants,
            **rolls.odds(bonus // 2)}


def page_context(army: dict[str, Any], lang: Lang) -> dict[str, Any]:
    """The chances shown beside the test buttons, each for the roll the button makes: plain,
    and with the commander's +1 to each die ("commander": his own unit's, or a unit's within
    12″ when the player ticks it)."""
    return {"odds": {**_table17_odds(0), "commander": _table17_odds(2)},
            "enemies": list(PEASANT_ENEMIES), "bribed": BRIBED,
            "castle_defenders": bool(army.get("castle_defenders"))}


class Commanded(TestAsk):
    """A roll the commander's +1 to each die may help."""

    near_commander: bool = Field(
        default=False, description="the unit is within 12\" of the commander: +1 to each die, "
                                   "as his own unit has (not for mercenaries, nor once he "
                                   "is killed or captured)")
    commander_lost: bool = Field(default=False,
                                 description="the commander was killed or captured: no bonus")


class PeasantMove(Commanded):
    test: Literal["move"] = Field(description="Table 17: peasants move on 7+ (2d6, +1 to each "
                                              "die with the commander)")


class PeasantFight(Commanded):
    test: Literal["attack", "defend"] = Field(description="Table 17, by the enemy")
    enemy: Literal[tuple(PEASANT_ENEMIES)]  # type: ignore[valid-type]


class MoraleAsked(Commanded):
    test: Literal["morale"] = Field(description="Chainmail: 2d6 with the seed's bonuses")
    commander_lost: bool = Field(default=False,
                                 description="the commander was killed or captured (−2)")
    needed: whole_in(2, 20) | None = Field(  # type: ignore[valid-type]
        default=None, description="the total this unit needs, from your morale table (the "
                                  "seed has none); kept for the unit's later rolls")


class DisciplineAsked(Commanded):
    test: Literal["discipline"] = Field(
        description="knights' discipline die: they charge whatever the orders unless a 6 is "
                    "thrown (1d6, +1 with the commander)")


class StakesAsked(TestAsk):
    test: Literal["stakes"] = Field(
        description="horse charging these longbowmen's stakes from the front: a die per "
                    "figure of its first rank, 4–6 kills horse and rider")
    front_rank: whole_in(1, rolls.MAX_FRONT_RANK) = Field(  # type: ignore[valid-type]
        description="the charging horse's figures in their first rank")


class LadderAsked(Commanded):
    test: Literal["ladder"] = Field(
        description="defenders who won a fight on a ladder push it off on 5–6 (1d6, +1 with "
                    "the commander)")
    climbers: whole_in(1, rolls.MAX_CLIMBERS) = Field(  # type: ignore[valid-type]
        description="the men on the ladder")


class StonesAsked(TestAsk):
    test: Literal["stones"] = Field(
        description="a stone on this unit's ladder: the first climber dies, the second lives "
                    "on 1–3, the third on 1–5")
    climbers: whole_in(1, rolls.MAX_CLIMBERS) = Field(  # type: ignore[valid-type]
        description="the men on the ladder")


class MeleeAsked(TestAsk):
    test: Literal["melee"] = Field(
        description="a mercenary unit in melee (or out of it): no Table 16 roll while it lasts")
    in_melee: bool = Field(default=True, description="in melee (true) or out of it (false)")


ASKS: tuple[type[TestAsk], ...] = (PeasantMove, PeasantFight, MoraleAsked, DisciplineAsked,
                                   StakesAsked, LadderAsked, StonesAsked, MeleeAsked)
