"""A game's changes: each returns the log's new entries and advances the state with them.

Every entry carries its place in the log (`seq`, from 1), the turn it happened in and its
`kind`; rolls also their table, dice and result code (and the unit's index, when a unit
rolled). The state passed in is advanced by the entries, so it stays the state after them.
"""

from __future__ import annotations

from typing import Any

from app.domain.game_rules import GameRefused, GameRules, Roller, d6
from app.systems import SYSTEMS
from app.systems.game import tables
from app.systems.game.state import Army, Entry, GameState, apply, replay, sides_of

MAX_TURN = 999
MAX_NEEDED = 20  # the highest total 2d6 and every bonus can make, and then some
MAX_ENTRIES = 20_000  # a game of many hundred turns; past it the log takes no more


def _rules(ruleset: str) -> GameRules:
    rules = SYSTEMS[ruleset].game
    assert rules is not None, "a game is only ever set up for a system that plays"
    return rules


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
    table = _rules(game.ruleset).weather
    if choice == "rolled" and table is not None:
        die = d6(roller)
        _append(game, entries, kind="roll", table="20", dice=[die], column=None,
                result="start", weather=table.starting_weather(die))
    elif choice != "off":
        _append(game, entries, kind="roll", table="20", dice=[], column=None,
                result="chosen", weather=choice)
    return entries


def _mercenary(game: GameState, entries: list[Entry], side: int, index: int,
               roller: Roller) -> None:
    unit = game.sides[side].units[index]
    if unit.left == 0 or unit.mercenary in tables.MERCENARY_LOST:
        return  # gone from the table, or fighting for the enemy: nothing to roll
    if unit.in_melee:  # "нет необходимости делать эту проверку до конца схватки"
        _append(game, entries, kind="roll", table="16", side=side, unit=index, dice=[],
                result="in_melee")
        return
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
    weather, table = game.weather, _rules(game.ruleset).weather
    if weather.column is None or table is None:
        return
    rolled = table.roll(weather.column, lambda: d6(roller))
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
    """A test the player asks for when it comes up (`ask["test"]`, one of the system's
    `GameRules.ASKS`), rolled by the game's rule system."""
    unit, entries = _unit(setup, side, index), []
    rules = _rules(game.ruleset)
    rolled = rules.roll(unit, ask, roller, lambda: _needed(game, entries, side, index, ask))
    _append(game, entries, kind="test", side=side, unit=index,
            outcome=rules.outcome(unit, rolled), **rolled)
    return entries
