"""The catalogue as the rules page prints it (§1–3), written out by hand so that tests compare
the code against the page rather than against itself."""

from __future__ import annotations

from fractions import Fraction

# §1, Table 25: id -> (ru, en, class, points per figure)
TROOPS: dict[str, tuple[str, str, str, Fraction]] = {
    "peasant": ("Крестьянин", "Peasant", "foot", Fraction(1, 2)),
    "militia": ("Ополченец", "Militia (levy)", "foot", Fraction(3, 4)),
    "light_foot": ("Лёгкий пехотинец", "Light Foot", "foot", Fraction(1)),
    "heavy_foot": ("Тяжёлый пехотинец", "Heavy Foot", "foot", Fraction(2)),
    "armored_foot": ("Бронированный пехотинец", "Armored Foot", "foot", Fraction(5, 2)),
    "light_horse": ("Лёгкий всадник", "Light Horse", "horse", Fraction(3)),
    "medium_horse": ("Средний всадник", "Medium Horse", "horse", Fraction(4)),
    "heavy_horse": ("Тяжёлый всадник", "Heavy Horse", "horse", Fraction(5)),
}

# §2, Table 26: id -> (ru, en, points added per figure, troop classes allowed to carry it)
BOTH = frozenset({"foot", "horse"})
WEAPONS: dict[str, tuple[str, str, Fraction, frozenset[str]]] = {
    "none": ("—", "—", Fraction(0), BOTH),
    "pike": ("Пика", "Pike", Fraction(1), frozenset({"foot"})),
    "arquebus": ("Аркебуза", "Arquebus", Fraction(3, 2), BOTH),
    "crossbow": ("Арбалет (любой)", "Crossbow (any)", Fraction(3, 2), BOTH),
    "bow": ("Лук (в том числе короткий)", "Bow (incl. short bow)", Fraction(3), BOTH),
    "longbow": ("Длинный лук", "Longbow", Fraction(4), BOTH),
    "composite_bow": ("Композитный лук", "Composite bow", Fraction(4), BOTH),
    "lance": ("Кавалерийское копьё", "Lance", Fraction(0), frozenset({"horse"})),
    "javelins": ("Метательные дротики", "Javelins", Fraction(0), BOTH),
    "polearm": ("Древковое оружие", "Polearm", Fraction(0), frozenset({"foot"})),
}

# §3: id -> (ru, en, points each)
ENGINES: dict[str, tuple[str, str, Fraction]] = {
    "light_catapult": ("Лёгкая катапульта", "Light catapult", Fraction(15)),
    "light_cannon": ("Лёгкая пушка", "Light cannon", Fraction(15)),
    "heavy_catapult": ("Тяжёлая катапульта", "Heavy catapult", Fraction(20)),
    "heavy_cannon": ("Тяжёлая пушка", "Heavy cannon", Fraction(20)),
    "bombard": ("Бомбарда", "Bombard", Fraction(30)),
}

# §6 headings (Russian names where the page gives them) and the rule-less `generic`.
NATIONS: dict[str, str | None] = {
    "generic": None,
    "magyars": "Мадьяры",
    "mongols": "Монголы",
    "tatars": "Татары",
    "poles": "Поляки",
    "russians": "Русские",
    "saracens": "Сарацины",
    "scots": "Шотландцы",
    "spanish": "Испанцы",
    "china": None,
    "korea": None,
    "japan": None,
}

# §5 unit flags.
FLAGS: tuple[str, ...] = ("commander", "knights", "religious_order", "elite", "flemish",
                          "samurai", "stakes")


def figure_cost(troop: str, weapon: str, mercenary: bool) -> Fraction:
    """§4: troop points + weapon points, halved for a mercenary."""
    cost = TROOPS[troop][3] + WEAPONS[weapon][2]
    return cost / 2 if mercenary else cost
