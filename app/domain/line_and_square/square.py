"""What a square does, in a few lines for the table (rules page §4, seed "ФОРМИРОВАНИЕ КАРЕ")."""

from __future__ import annotations

from app.domain.base import Lang, pick
from app.domain.line_and_square.catalogue import SQUARE_MIN_FIGURES

_RULES: tuple[tuple[str, str], ...] = (
    (f"Needs at least {SQUARE_MIN_FIGURES} figures.",
     f"Для формирования каре нужно не меньше {SQUARE_MIN_FIGURES} фигур."),
    ("Cannot move.", "Подразделения в каре двигаться не могут."),
    ("Shoots only forward, from one side of the square (6 dice only).",
     "Стрельба из каре ведётся только вперёд, от одной из сторон каре (только 6 кубиков)."),
    ("+1 in melee.", "Ближний бой +1."),
    ("+1 discipline (counted in the order test).", "Дисциплина +1 (учтена в тесте на приказ)."),
    ("Against cavalry in melee it counts as a target in light cover.",
     "Против кавалерии в ближнем бою — защита как у цели в лёгком укрытии."),
    # The seed's words beside the reading used; the About page names the other reading.
    ("Cavalry hit a square only on a 6 (the seed: «Кавалерия атакуют Каре только на 6 "
     "кубах»).",
     "«Кавалерия атакуют Каре только на 6 кубах»: кавалерия попадает по каре только на 6."),
    ("Cavalry must fall back its full move after fighting a square, won or lost, "
     "unless the square broke.",
     "Кавалерия отступает на полную дистанцию движения после боя с каре, независимо от "
     "исхода, кроме случая, когда каре разгромлено."),
    ("Infantry charged by cavalry may try to form square: it takes a test; on a failure it "
     "stands in loose order with a disorder marker.",
     "Пехота, которой объявлена атака кавалерии, может попытаться построить каре через тест; "
     "при провале она принимает свободное построение и получает маркер расстройства."),
)


def square_rules(lang: Lang) -> list[str]:
    return [pick(lang, en, ru) for en, ru in _RULES]
