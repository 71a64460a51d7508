"""Table 27, fantasy figure sizes (Таблица 27: Размеры фэнтезийных фигур), and the builder's
own extension of it to any human scale.

The seed gives two columns, for 30 mm and 40 mm humans. They are not in one proportion (hobbits
10 and 20 mm, giants 54 and 70 mm), so Muster's extension reproduces both: at or below 30 mm
every size scales with the 30 mm column (size × scale / 30), at or above 40 mm with the 40 mm
column (size × scale / 40), and in between it moves in a straight line from one column to the
other. Sizes are rounded to the whole millimetre, halves up (exact fractions until then).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.domain.catalogue_entries import Named
from app.domain.translations import N_

SEED_SCALES = (30, 40)
MIN_SCALE, MAX_SCALE = 5, 120


@dataclass(frozen=True)
class Kind(Named):
    at_30: int
    at_40: int


KINDS: tuple[Kind, ...] = (
    Kind("hobbits", N_("Hobbits, sprites"), 10, 20),
    Kind("dwarves", N_("Dwarves, gnomes, goblins, kobolds"), 20, 25),
    Kind("elves", N_("Elves, fairies, orcs"), 25, 30),
    Kind("trolls", N_("Balrogs, ogres, trolls"), 40, 54),
    Kind("giants", N_("Djinn, dragons, efreet, elementals, ents, giants, rocs"), 54, 70),
)

HUMAN_SIZED = N_(
    "Human-sized figures include ghouls, heroes (anti-heroes and “Conan”-like super-heroes "
    "too), werewolves, wights, wizards, wraiths (Nazgûl among them) and so on.")


def exact_size(kind: Kind, scale: int) -> Fraction:
    """The size, in mm, of `kind` beside humans of `scale` mm, before rounding."""
    if scale <= 30:
        return Fraction(kind.at_30 * scale, 30)
    if scale >= 40:
        return Fraction(kind.at_40 * scale, 40)
    return kind.at_30 + Fraction(kind.at_40 - kind.at_30) * (scale - 30) / 10


def rounded(size: Fraction) -> int:
    """To the whole millimetre, halves up."""
    return int(size + Fraction(1, 2)) if size >= 0 else -rounded(-size)


def sizes(scale: int) -> list[dict[str, object]]:
    """Each kind's size at `scale`: rounded, and exactly as `{numerator, denominator}`."""
    if not MIN_SCALE <= scale <= MAX_SCALE:
        raise ValueError(f"scale must be from {MIN_SCALE} to {MAX_SCALE} mm")
    out: list[dict[str, object]] = []
    for kind in KINDS:
        exact = exact_size(kind, scale)
        out.append({"kind": kind.id, "name_en": kind.name("en"), "name_ru": kind.name("ru"),
                    "mm": rounded(exact), "exact": {"numerator": exact.numerator,
                                                    "denominator": exact.denominator},
                    "from_the_table": scale in SEED_SCALES})
    return out
