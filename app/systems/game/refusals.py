"""What the game's refusals say to an API client, by the domain's code (GameRefused.code)."""

from __future__ import annotations

from app.domain.base import Lang
from app.domain.translations import N_, tr

_REFUSED = {
    "no_such_unit": N_("the game has no unit by this index"),
    "not_peasants": N_("only peasants test on Table 17"),
    "not_knights": N_("only knights throw the discipline die"),
    "no_stakes": N_("only longbowmen with stakes set take this roll"),
    "not_mercenary": N_("only mercenaries roll Table 16"),
    "unknown_test": N_("this rule system has no such test"),
    "unknown_enemy": N_("attack and defence name the enemy (Table 17)"),
    "unknown_formation": N_("no such formation"),
    "out_of_range": N_("out of range"),
    "plus_or_minus_one": N_("1 or -1"),
    "none_left": N_("the unit has no figures left to lose"),
    "none_lost": N_("the unit has lost no figures to give back"),
    "nothing_to_undo": N_("nothing to undo: no casualty change is left to take back"),
    "log_full": N_("the game's log is full"),
    "no_such_side": N_("the game has no such side"),
    "last_turn": N_("the game is at its last turn"),
}


def refused_text(code: str, lang: Lang) -> str:
    return tr(lang, _REFUSED[code]) if code in _REFUSED else code
