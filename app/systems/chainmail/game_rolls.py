"""The seed's rolls beyond Table 17 and morale, as the game companion makes them: the knights'
discipline die, the longbowmen's stakes, a ladder pushed off, stones on a ladder, and a
mercenary unit marked in melee (no Table 16 roll while it lasts). Each roll's chance is exact,
counted over every throw of its dice.

The commander's "+1 к каждому брошенному кубику" is added where a higher die serves the unit
that throws it (the knights' discipline die, the defenders' ladder die); the stakes' dice are
the charging horse's and the stones' dice save on low faces, so no bonus is added to them.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import comb
from typing import Any

from app.domain.game_rules import GameRefused, Roller, chance_json, d6

DISCIPLINE_HOLDS = 6  # "если только на «кубике дисциплины» не выброшена 6"
STAKES_KILL = 4  # "4-6 означает, что лошадь пронзена насквозь, а всадник убит"
LADDER_PUSHED = 5  # "Бросок на 5-6 означает, что лестницу удалось оттолкнуть"
# "1-3 означает выживание второго и 1-5 выживание третьего": the highest face each survives.
STONES_SURVIVE = {2: 3, 3: 5}
MAX_FRONT_RANK = 60
MAX_CLIMBERS = 3  # "Три человека могут подняться … за один Ход"


def at_least_one_die(target: int) -> Fraction:
    """The chance that one d6 shows `target` or more."""
    return Fraction(sum(face >= target for face in range(1, 7)), 6)


def _total(modifiers: list[dict[str, Any]]) -> int:
    return sum(m["value"] for m in modifiers)


def _flagged(unit: dict[str, Any], flag: str, code: str) -> None:
    if flag not in unit.get("flags", ()):
        raise GameRefused("unit", code, conflict=True)


def _whole(ask: dict[str, Any], field: str, least: int, most: int) -> int:
    value = ask.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise GameRefused(field, "out_of_range")
    return value


def discipline(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
               modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """Knights who see an enemy within charge reach charge "независимо от любых приказов, если
    только на «кубике дисциплины» не выброшена 6": 1d6 (+1 with the commander), 6 holds."""
    _flagged(unit, "knights", "not_knights")
    dice, modifier = [d6(roller)], _total(modifiers)
    return {"table": "knights", "test": "discipline", "dice": dice, "modifier": modifier,
            "modifiers": modifiers, "near_commander": bool(ask.get("near_commander")),
            "target": DISCIPLINE_HOLDS,
            "chance": chance_json(at_least_one_die(DISCIPLINE_HOLDS - modifier)),
            "result": "pass" if dice[0] + modifier >= DISCIPLINE_HOLDS else "fail"}


def stakes(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
           modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """Horse charging longbowmen with their stakes set from the front "должна бросить кубик
    за каждую фигуру в своём первом ряду": 4–6 kills horse and rider. `front_rank`: the
    charging horse's figures in their first rank. The chance is of exactly the number killed."""
    _flagged(unit, "stakes", "no_stakes")
    front = _whole(ask, "front_rank", 1, MAX_FRONT_RANK)
    dice = [d6(roller) for _ in range(front)]
    killed = sum(face >= STAKES_KILL for face in dice)
    each = at_least_one_die(STAKES_KILL)
    exactly = comb(front, killed) * each ** killed * (1 - each) ** (front - killed)
    return {"table": "stakes", "test": "stakes", "dice": dice, "front_rank": front,
            "target": STAKES_KILL, "killed": killed, "each": chance_json(each),
            "chance": chance_json(exactly), "result": "rolled"}


def ladder(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
           modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """Defenders who won a fight with a climber roll to push the ladder off: 5–6 (+1 with the
    commander); then, of three climbing, "второй атакующий умирает, а третий оглушается на
    один Ход". `climbers`: how many were on it."""
    climbers = _whole(ask, "climbers", 1, MAX_CLIMBERS)
    dice, modifier = [d6(roller)], _total(modifiers)
    pushed = dice[0] + modifier >= LADDER_PUSHED
    return {"table": "ladder", "test": "ladder", "dice": dice, "modifier": modifier,
            "modifiers": modifiers, "near_commander": bool(ask.get("near_commander")),
            "climbers": climbers, "target": LADDER_PUSHED,
            "chance": chance_json(at_least_one_die(LADDER_PUSHED - modifier)),
            "killed": int(pushed and climbers >= 2), "stunned": int(pushed and climbers >= 3),
            "result": "pass" if pushed else "fail"}


def stones(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
           modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """A stone on a ladder "убьёт первого карабкающегося по ней, а второй и третий должны
    бросить кубик": the second lives on 1–3, the third on 1–5. The chance is of the whole
    outcome logged (who lives, who dies)."""
    climbers = _whole(ask, "climbers", 1, MAX_CLIMBERS)
    dice = [d6(roller) for _ in range(climbers - 1)]
    survivors, chance = [], Fraction(1)
    for place, face in enumerate(dice, start=2):
        lives = Fraction(STONES_SURVIVE[place], 6)
        survived = face <= STONES_SURVIVE[place]
        if survived:
            survivors.append(place)
        chance *= lives if survived else 1 - lives
    return {"table": "stones", "test": "stones", "dice": dice, "climbers": climbers,
            "survivors": survivors, "killed": climbers - len(survivors),
            "chance": chance_json(chance), "result": "rolled"}


def melee(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
          modifiers: list[dict[str, Any]]) -> dict[str, Any]:
    """A mercenary unit in melee, or out of it: "Если отряд вступил в Рукопашный Бой, нет
    необходимости делать эту проверку до конца схватки" (Table 16). No dice."""
    if not unit.get("mercenary"):
        raise GameRefused("unit", "not_mercenary", conflict=True)
    in_melee = ask.get("in_melee", True)
    if not isinstance(in_melee, bool):
        raise GameRefused("in_melee", "out_of_range")
    return {"table": "melee", "test": "melee", "dice": [], "in_melee": in_melee,
            "result": "in_melee" if in_melee else "out_of_melee"}


Rolled = Callable[[dict[str, Any], dict[str, Any], Roller, list[dict[str, Any]]],
                  dict[str, Any]]
TESTS: dict[str, Rolled] = {"discipline": discipline, "stakes": stakes, "ladder": ladder,
                            "stones": stones, "melee": melee}
# Where a higher die serves the unit: the commander's +1 is offered on the page.
COMMANDED = ("discipline", "ladder")


def odds(bonus: int) -> dict[str, str]:
    """Each roll's chance as the page shows it, with `bonus` on each die."""
    return {"discipline": _percent(at_least_one_die(DISCIPLINE_HOLDS - bonus)),
            "ladder": _percent(at_least_one_die(LADDER_PUSHED - bonus)),
            "stakes": _percent(at_least_one_die(STAKES_KILL)),
            "second": _percent(Fraction(STONES_SURVIVE[2], 6)),
            "third": _percent(Fraction(STONES_SURVIVE[3], 6))}


def _percent(chance: Fraction) -> str:
    return f"{round(float(chance) * 100)}%"
