"""A game's changes: each returns the log's new entries and advances the state with them.

Every entry carries its place in the log (`seq`, from 1), the turn it happened in and its
`kind`; rolls also their table, dice and result code (and the unit's index, when a unit
rolled). The state passed in is advanced by the entries, so it stays the state after them.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.systems.chainmail import weather as table20
from app.systems.game import tables
from app.systems.game.dice import Roller, d6
from app.systems.game.state import Army, Entry, GameState, apply, replay, sides_of
from app.systems.line_and_square import catalogue as las
from app.systems.line_and_square.orders import OrderTest, passes

MAX_TURN = 999
MAX_NEEDED = 20  # the highest total 2d6 and every bonus can make, and then some
MAX_ENTRIES = 20_000  # a game of many hundred turns; past it the log takes no more


class GameRefused(ValueError):
    """A change the game cannot take: `field` names what is wrong (a request field, or
    "game" for the game's own state); `conflict` when the input is well formed but this game
    refuses it (nothing to undo, a test the unit does not take, a figure it has not lost)."""

    def __init__(self, field: str, code: str, conflict: bool = False) -> None:
        super().__init__(f"{field}: {code}")
        self.field, self.code, self.conflict = field, code, conflict


def _append(game: GameState, entries: list[Entry], **entry: Any) -> None:
    if game.entries >= MAX_ENTRIES:
        raise GameRefused("game", "log_full", conflict=True)
    game.entries += 1
    full = {"seq": game.entries, "turn": game.turn, **entry}
    entries.append(full)
    apply(game, full)


def start(setup: dict[str, Any], roller: Roller) -> list[Entry]:
    """The game's first entry: its starting weather, rolled ("1–3 ясно, 4–5 облачно, 6
    дождь") or chosen by the first side; none when the game plays without weather."""
    game, entries = replay(setup, []), []
    choice = sides_of(setup)[0].get("weather", "off")
    if choice == "rolled":
        die = d6(roller)
        _append(game, entries, kind="roll", table="20", dice=[die], column=None,
                result="start", weather=table20.starting_weather(die))
    elif choice != "off":
        _append(game, entries, kind="roll", table="20", dice=[], column=None,
                result="chosen", weather=choice)
    return entries


def _mercenary(game: GameState, entries: list[Entry], side: int, index: int,
               roller: Roller) -> None:
    unit = game.sides[side].units[index]
    if unit.left == 0 or unit.mercenary in tables.MERCENARY_LOST:
        return  # gone from the table, or fighting for the enemy: nothing to roll
    if game.turn <= unit.obey_until:
        _append(game, entries, kind="roll", table="16", side=side, unit=index, dice=[],
                result="obey_remembered", obey_until=unit.obey_until)
        return
    dice = [d6(roller)]
    if dice[0] == 6:
        dice.append(d6(roller))
    result = tables.mercenary(dice[0], dice[1] if len(dice) > 1 else None)
    extra = {"obey_until": game.turn + tables.OBEY_TURNS - 1} if result == "obey_3" else {}
    _append(game, entries, kind="roll", table="16", side=side, unit=index, dice=dice,
            result=result, **extra)


def _weather(game: GameState, entries: list[Entry], roller: Roller) -> None:
    weather = game.weather
    if weather.column is None:
        return
    rolled = table20.roll(weather.column, lambda: d6(roller))  # type: ignore[arg-type]
    assert rolled.row is not None
    downpour = rolled.row.event == "downpour"
    _append(game, entries, kind="roll", table="20", dice=[rolled.die], column=weather.column,
            result=rolled.row.result, event=rolled.row.event, weather=rolled.weather,
            mud=weather.mud or (downpour and weather.last_downpour))


def next_turn(setup: dict[str, Any], game: GameState, roller: Roller) -> list[Entry]:
    """Advance to the next turn and roll what the seed rolls before it: Table 16 for every
    mercenary unit ("перед каждым ходом") of each side, in the army's order, then on every
    even turn Table 20 for the battle ("проверка изменений погоды происходит каждый чётный
    ход")."""
    if game.turn >= MAX_TURN:
        raise GameRefused("game", "last_turn", conflict=True)
    entries: list[Entry] = []
    _append(game, entries, kind="turn", turn=game.turn + 1)
    for side, army in enumerate(sides_of(setup)):
        for index, unit in enumerate(army["units"]):
            if unit.get("mercenary"):
                _mercenary(game, entries, side, index, roller)
    if game.turn % 2 == 0:
        _weather(game, entries, roller)
    return entries


def _army(setup: dict[str, Any], side: int) -> dict[str, Any]:
    sides = sides_of(setup)
    if not 0 <= side < len(sides):
        raise GameRefused("side", "no_such_side", conflict=True)
    return sides[side]


def _unit(setup: dict[str, Any], side: int, index: int) -> dict[str, Any]:
    units = _army(setup, side)["units"]
    if not 0 <= index < len(units):
        raise GameRefused("unit", "no_such_unit")
    return units[index]  # type: ignore[no-any-return]


def _thresholds(game: GameState, side: int, entries: list[Entry],
                before: tuple[str, list[str]]) -> None:
    """Log each unit and the army whose state the change moved, as it stands now."""
    army, (was_army, units) = game.sides[side], before
    for unit, was in zip(army.units, units, strict=True):
        if unit.state != was:
            _append(game, entries, kind="threshold", side=side, unit=unit.index,
                    result=unit.state)
    if army.army_state != was_army:
        _append(game, entries, kind="threshold", side=side, unit=None, result=army.army_state)


def _states(army: Army) -> tuple[str, list[str]]:
    return army.army_state, [u.state for u in army.units]


def casualty(setup: dict[str, Any], game: GameState, index: int, change: int,
             side: int = 0) -> list[Entry]:
    """One figure of the side's unit lost (+1) or given back (−1), and any threshold it
    crosses."""
    _unit(setup, side, index)
    if change not in (1, -1):
        raise GameRefused("change", "plus_or_minus_one")
    army = game.sides[side]
    lost = army.units[index].lost + change
    if not 0 <= lost <= army.units[index].figures:
        raise GameRefused("change", "none_left" if change > 0 else "none_lost", conflict=True)
    before, entries = _states(army), []
    _append(game, entries, kind="casualty", side=side, unit=index, change=change, lost=lost)
    _thresholds(game, side, entries, before)
    return entries


def undo(game: GameState, log: list[Entry], side: int = 0) -> list[Entry]:
    """Take back the side's last casualty change not yet taken back, as a new entry (the log
    is never rewritten). Rolls are not undone: dice once thrown stay thrown."""
    if not 0 <= side < len(game.sides) or not game.sides[side].undoable:
        raise GameRefused("game", "nothing_to_undo", conflict=True)
    army = game.sides[side]
    undone = log[army.undoable[-1] - 1]
    before, entries = _states(army), []
    _append(game, entries, kind="undo", side=side, unit=undone["unit"],
            change=-undone["change"], lost=undone["lost"] - undone["change"], of=undone["seq"])
    _thresholds(game, side, entries, before)
    return entries


def _two(roller: Roller) -> list[int]:
    return [d6(roller), d6(roller)]


def _chance(p: Fraction) -> dict[str, int]:
    return {"numerator": p.numerator, "denominator": p.denominator}


def _peasants(unit: dict[str, Any], ask: dict[str, Any], roller: Roller) -> dict[str, Any]:
    if not unit.get("peasants"):
        raise GameRefused("unit", "not_peasants", conflict=True)
    test, enemy = ask.get("test", "move"), ask.get("enemy")
    if test not in tables.PEASANT_TESTS:
        raise GameRefused("test", "unknown_test")
    if test != "move" and enemy not in tables.PEASANT_ENEMIES:
        raise GameRefused("enemy", "unknown_enemy")
    target, dice = tables.peasant_target(test, enemy), _two(roller)
    return {"table": "17", "test": test, "enemy": enemy if test != "move" else None,
            "dice": dice, "target": target, "chance": _chance(tables.at_least(target)),
            "result": "pass" if sum(dice) >= target else "fail"}


def _order(unit: dict[str, Any], ask: dict[str, Any], roller: Roller) -> dict[str, Any]:
    formation = ask.get("formation") or unit["formation"]
    disorder = ask.get("disorder", 0)
    if formation not in las.FORMATIONS:
        raise GameRefused("formation", "unknown_formation")
    if not isinstance(disorder, int) or not 0 <= disorder <= las.MAX_DISORDER:
        raise GameRefused("disorder", "out_of_range")
    test = OrderTest(unit["discipline"], formation, bool(ask.get("officer")), disorder)
    dice = _two(roller)
    return {"table": "order", "test": "order", "dice": dice, "formation": formation,
            "officer": test.officer_in_reach, "disorder": disorder, "modifier": test.modifier,
            "target": las.ORDER_TEST_TARGET, "chance": _chance(test.chance),
            "result": "pass" if passes(dice[0], dice[1], test.modifier) else "fail"}


# The seed's own bonuses to a morale total, by the unit's flags (rules page §7).
MORALE_FLAGS = ("flemish", "religious_order")


def _commander(unit: dict[str, Any], ask: dict[str, Any], dice: int) -> dict[str, Any] | None:
    """The commander's "+1 к каждому брошенному кубику": his own unit's, or any unit's "в
    пределах 12'' от главнокомандующего" (the player says which); "Наёмники не получают
    эффектов от влияния главнокомандующего", and a commander killed or captured gives none."""
    if not ("commander" in unit["flags"] or ask.get("near_commander")):
        return None
    if ask.get("commander_lost"):
        return None
    if unit.get("mercenary"):
        return {"source": "commander_mercenary", "value": 0}  # said, so the 0 is understood
    source = "commander" if "commander" in unit["flags"] else "near_commander"
    return {"source": source, "value": dice}


def _morale(unit: dict[str, Any], ask: dict[str, Any], roller: Roller,
            needed: int | None) -> dict[str, Any]:
    # The seed gives the bonuses but no number to reach (its "standard morale tables" are
    # not in it): the player gives the unit's needed total, once; without it the total is
    # logged beside the unit's Table 19 rating, where it has one.
    dice = _two(roller)
    modifiers = [{"source": flag, "value": 1} for flag in MORALE_FLAGS if flag in unit["flags"]]
    if (commander := _commander(unit, ask, len(dice))) is not None:
        modifiers.append(commander)
    if ask.get("commander_lost"):
        modifiers.append({"source": "commander_lost", "value": -2})
    modifier = sum(m["value"] for m in modifiers)
    return {"table": "morale", "test": "morale", "dice": dice, "modifier": modifier,
            "modifiers": modifiers, "near_commander": bool(ask.get("near_commander")),
            "total": sum(dice) + modifier, "rating": unit.get("rating"), "needed": needed,
            "result": "rolled" if needed is None else
            "pass" if sum(dice) + modifier >= needed else "fail"}


def _outcome(unit: dict[str, Any], rolled: dict[str, Any]) -> str | None:
    """What a failed test does to the unit, as the seeds say: peasants who fail to move or
    to attack "должны остаться стоять на месте", who fail to defend "считаются как
    подавшиеся в Бегство"; a Line and Square unit that fails the order test "остается на
    месте и не может больше предпринимать действий в этот ход"; a failed morale roll falls
    back, but religious orders "никогда не сдаются … продолжат сражение в обычном режиме"."""
    if rolled["result"] != "fail":
        return None
    if rolled["test"] == "defend":
        return "routs"
    if rolled["test"] == "morale":
        return None if "religious_order" in unit.get("flags", ()) else "falls_back"
    return "halted"


def _needed(game: GameState, entries: list[Entry], side: int, index: int,
            ask: dict[str, Any]) -> int | None:
    """The unit's needed morale total: given now (and then kept in the log), or as kept."""
    given, kept = ask.get("needed"), game.sides[side].units[index].needed
    if given is None:
        return kept
    if not isinstance(given, int) or not 2 <= given <= MAX_NEEDED:
        raise GameRefused("needed", "out_of_range")
    if given != kept:
        _append(game, entries, kind="needed", side=side, unit=index, needed=given)
    return given  # type: ignore[no-any-return]


def roll_test(setup: dict[str, Any], game: GameState, index: int, ask: dict[str, Any],
              roller: Roller, side: int = 0) -> list[Entry]:
    """A test the player asks for when it comes up: `ask["test"]` is "move", "attack" or
    "defend" (Table 17, peasants; "enemy" for the last two), "order" (Line and Square:
    "formation", "officer", "disorder") or "morale" (Chainmail: "near_commander",
    "commander_lost")."""
    unit, entries = _unit(setup, side, index), []
    test = ask.get("test")
    if setup["ruleset"] == "line_and_square":
        if test != "order":
            raise GameRefused("test", "unknown_test", conflict=True)
        rolled = _order(unit, ask, roller)
    elif test == "order":
        raise GameRefused("test", "unknown_test", conflict=True)
    elif test == "morale":
        rolled = _morale(unit, ask, roller, _needed(game, entries, side, index, ask))
    else:
        rolled = _peasants(unit, ask, roller)
    _append(game, entries, kind="test", side=side, unit=index, outcome=_outcome(unit, rolled),
            **rolled)
    return entries
