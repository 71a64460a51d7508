"""What a square does, in a few lines for the table (rules page §4, seed "ФОРМИРОВАНИЕ КАРЕ")."""

from __future__ import annotations

from app.domain.base import Lang
from app.domain.translations import N_, tr
from app.systems.line_and_square.catalogue import SQUARE_MIN_FIGURES

_RULES: tuple[str, ...] = (
    N_("Needs at least %(least)s figures."),
    N_("Cannot move."),
    N_("Shoots only forward, from one side of the square (6 dice only)."),
    N_("+1 in melee."),
    N_("+1 discipline (counted in the order test)."),
    N_("Against cavalry in melee it counts as a target in light cover."),
    # The seed's words beside the reading used; the About page names the other reading.
    N_("Cavalry hit a square only on a 6 (the seed: «Кавалерия атакуют Каре только на 6 "
       "кубах»)."),
    N_("Cavalry must fall back its full move after fighting a square, won or lost, "
       "unless the square broke."),
    N_("Infantry charged by cavalry may try to form square: it takes a test; on a failure it "
       "stands in loose order with a disorder marker."),
)


def square_rules(lang: Lang) -> list[str]:
    # Every line is formatted alike; only the first has a number to fill in.
    return [tr(lang, text, least=SQUARE_MIN_FIGURES) for text in _RULES]
