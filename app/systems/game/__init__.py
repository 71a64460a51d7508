"""The game-day companion: what the rules roll each turn and on demand, and a game's state.

Pure: a game is its setup (the army as it stood when the game began) and its log, an
append-only list of entries (plain JSON-able dicts of codes and numbers, no words). The state
is replayed from the log (`state.replay`); a change is new entries (`play`). Dice come from an
injected roller, so tests can fix them; production rolls with `secrets` (`dice.secure`).
"""

from app.domain.game_rules import GameRefused, Roller, secure
from app.systems.game.play import casualty, next_turn, roll_test, start, undo
from app.systems.game.setup import setup_of
from app.systems.game.state import Army, GameState, replay

__all__ = ["Army", "GameRefused", "GameState", "Roller", "casualty", "next_turn", "replay",
           "roll_test", "secure", "setup_of", "start", "undo"]
