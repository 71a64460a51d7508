"""The Chainmail catalogue as data: troop types (Table 25), weapons (Table 26), engines,
nations, unit flags and presets. Ids are public contract (see the rules page)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from app.domain.base import Named

TroopClass = Literal["foot", "horse"]


@dataclass(frozen=True)
class Troop(Named):
    troop_class: TroopClass
    points: Fraction
    fights_as: str | None = None


@dataclass(frozen=True)
class Weapon(Named):
    points: Fraction
    allowed_on: frozenset[str]  # troop classes


@dataclass(frozen=True)
class Engine(Named):
    points: Fraction


@dataclass(frozen=True)
class Flag(Named):
    description_en: str
    description_ru: str


@dataclass(frozen=True)
class Nation(Named):
    pass


@dataclass(frozen=True)
class Preset(Named):
    """A ready-made unit the editor offers: one line plus flags; `nations`: the armies whose
    national notes name it (none: any army)."""

    troop: str
    weapon: str
    figures: int
    flags: tuple[str, ...] = ()
    nations: tuple[str, ...] = ()


BOTH: frozenset[str] = frozenset({"foot", "horse"})

TROOPS: dict[str, Troop] = {
    t.id: t
    for t in (
        Troop("peasant", "Крестьянин", "Peasant", "foot", Fraction(1, 2), "light_foot"),
        Troop("militia", "Ополченец", "Militia (levy)", "foot", Fraction(3, 4), "heavy_foot"),
        Troop("light_foot", "Лёгкий пехотинец", "Light Foot", "foot", Fraction(1)),
        Troop("heavy_foot", "Тяжёлый пехотинец", "Heavy Foot", "foot", Fraction(2)),
        Troop("armored_foot", "Бронированный пехотинец", "Armored Foot", "foot", Fraction(5, 2)),
        Troop("light_horse", "Лёгкий всадник", "Light Horse", "horse", Fraction(3)),
        Troop("medium_horse", "Средний всадник", "Medium Horse", "horse", Fraction(4)),
        Troop("heavy_horse", "Тяжёлый всадник", "Heavy Horse", "horse", Fraction(5)),
    )
}

WEAPONS: dict[str, Weapon] = {
    w.id: w
    for w in (
        Weapon("none", "—", "—", Fraction(0), BOTH),
        Weapon("pike", "Пика", "Pike", Fraction(1), frozenset({"foot"})),
        Weapon("arquebus", "Аркебуза", "Arquebus", Fraction(3, 2), BOTH),
        Weapon("crossbow", "Арбалет (любой)", "Crossbow (any)", Fraction(3, 2), BOTH),
        Weapon("bow", "Лук", "Bow (incl. short bow)", Fraction(3), BOTH),
        Weapon("longbow", "Длинный лук", "Longbow", Fraction(4), BOTH),
        Weapon("composite_bow", "Композитный лук", "Composite bow", Fraction(4), BOTH),
        Weapon("lance", "Кавалерийское копьё", "Lance", Fraction(0), frozenset({"horse"})),
        Weapon("javelins", "Метательные дротики", "Javelins", Fraction(0), BOTH),
        Weapon("polearm", "Древковое оружие", "Polearm", Fraction(0), frozenset({"foot"})),
    )
}

ENGINES: dict[str, Engine] = {
    e.id: e
    for e in (
        Engine("light_catapult", "Лёгкая катапульта", "Light catapult", Fraction(15)),
        Engine("light_cannon", "Лёгкая пушка", "Light cannon", Fraction(15)),
        Engine("heavy_catapult", "Тяжёлая катапульта", "Heavy catapult", Fraction(20)),
        Engine("heavy_cannon", "Тяжёлая пушка", "Heavy cannon", Fraction(20)),
        Engine("bombard", "Бомбарда", "Bombard", Fraction(30)),
    )
}

FLAGS: dict[str, Flag] = {
    f.id: f
    for f in (
        Flag("commander", "Главнокомандующий", "Commander",
             "The army's commander stands with this unit.",
             "С этим отрядом находится главнокомандующий."),
        Flag("knights", "Рыцари", "Knights",
             "Feudal knights: charge unless a 6 is rolled; target priorities.",
             "Рыцари-феодалы: атакуют, если не выброшена 6; приоритеты целей."),
        Flag("religious_order", "Религиозный орден", "Religious order",
             "Never surrender; +1 to all morale rolls.",
             "Никогда не сдаются; +1 ко всем броскам Морали."),
        Flag("elite", "Элита", "Elite",
             "Elite troops: morale one table value better.",
             "Элитные войска: мораль на одно значение таблицы выше."),
        Flag("flemish", "Фламандцы", "Flemish",
             "Flemish militia: +1 to morale totals.",
             "Фламандское ополчение: +1 к итогам Морали."),
        Flag("samurai", "Самураи", "Samurai",
             "Japanese samurai (Table 19 rating 9).",
             "Японские самураи (рейтинг 9 по Таблице 19)."),
        Flag("stakes", "Колья", "Stakes",
             "Longbowmen with stakes, set after standing two turns.",
             "Лучники с кольями, установленными после двух ходов на месте."),
    )
}

NATIONS: dict[str, Nation] = {
    n.id: n
    for n in (
        Nation("generic", "Без национальных правил", "Generic (no national rules)"),
        Nation("magyars", "Мадьяры", "Magyars"),
        Nation("mongols", "Монголы", "Mongols"),
        Nation("tatars", "Татары", "Tatars"),
        Nation("poles", "Поляки", "Poles"),
        Nation("russians", "Русские", "Russians"),
        Nation("saracens", "Сарацины", "Saracens"),
        Nation("scots", "Шотландцы", "Scots"),
        Nation("spanish", "Испанцы", "Spanish"),
        Nation("china", "Китайцы", "Chinese"),
        Nation("korea", "Корейцы", "Koreans"),
        Nation("japan", "Японцы", "Japanese"),
    )
}

STEPPE = ("mongols", "tatars")
# The units the seed's national notes name, in its words (Table 18's for the Far East).
NATIONAL_PRESETS: tuple[Preset, ...] = (
    Preset("steppe_horse_archers", "Конные лучники (лёгкая конница с луками)",
           "Horse archers (light horse with bows)", "light_horse", "bow", 10, nations=STEPPE),
    Preset("steppe_medium_lancers", "Средняя конница с копьями", "Medium horse with lances",
           "medium_horse", "lance", 5, nations=STEPPE),
    Preset("steppe_light_lancers", "Лёгкая конница с копьями", "Light horse with lances",
           "light_horse", "lance", 5, nations=STEPPE),
    Preset("magyar_horse_archers", "Мадьярские конные лучники", "Magyar horse archers",
           "light_horse", "bow", 5, nations=("magyars",)),
    Preset("magyar_light_horse", "Мадьярская лёгкая конница", "Magyar light horse",
           "light_horse", "javelins", 10, nations=("magyars",)),
    Preset("magyar_medium_horse", "Мадьярская средняя конница", "Magyar medium horse",
           "medium_horse", "lance", 5, nations=("magyars",)),
    Preset("polish_lancers", "Польская средняя конница с копьями", "Polish lancers",
           "medium_horse", "lance", 15, nations=("poles",)),
    Preset("polish_crossbow_horse", "Лёгкая конница с арбалетами", "Light horse with crossbows",
           "light_horse", "crossbow", 2, nations=("poles",)),
    Preset("polish_light_horse", "Польская лёгкая конница", "Polish light horse",
           "light_horse", "javelins", 5, nations=("poles",)),
    Preset("russian_heavy_foot", "Тяжёлая пехота с древковым оружием",
           "Heavy foot with polearms", "heavy_foot", "polearm", 20, nations=("russians",)),
    Preset("russian_crossbowmen", "Лёгкая пехота с арбалетами", "Light foot with crossbows",
           "light_foot", "crossbow", 4, nations=("russians",)),
    Preset("russian_medium_horse", "Русская средняя конница", "Russian medium horse",
           "medium_horse", "lance", 6, nations=("russians",)),
    Preset("saracen_archers", "Сарацинские лучники (короткие луки)",
           "Saracen archers (short bows)", "light_foot", "bow", 15, nations=("saracens",)),
    Preset("saracen_light_horse", "Сарацинская лёгкая конница", "Saracen light horse",
           "light_horse", "bow", 10, nations=("saracens",)),
    Preset("saracen_elite_horse", "Сарацинская элита (средняя конница)",
           "Saracen elite (medium horse)", "medium_horse", "lance", 5, ("elite",),
           nations=("saracens",)),
    Preset("scottish_schiltron", "Шотландский шилтрон (длинные копья)",
           "Scottish schiltron (long spears)", "heavy_foot", "pike", 30, nations=("scots",)),
    Preset("spanish_jinetes", "Лёгкая конница с метательными дротиками (хинеты)",
           "Jinetes (light horse with javelins)", "light_horse", "javelins", 10,
           nations=("spanish",)),
    Preset("spanish_knights", "Испанские рыцари (средняя конница)",
           "Spanish knights (medium horse)", "medium_horse", "lance", 8, ("knights",),
           nations=("spanish",)),
    Preset("japanese_samurai", "Самураи (бронированная пехота)", "Samurai (armored foot)",
           "armored_foot", "none", 10, ("samurai",), nations=("japan",)),
    Preset("japanese_samurai_bowmen", "Самураи с длинными луками", "Samurai bowmen (longbows)",
           "armored_foot", "longbow", 10, ("samurai",), nations=("japan",)),
    Preset("japanese_ashigaru_arquebusiers", "Асигару с аркебузами",
           "Ashigaru arquebusiers", "light_foot", "arquebus", 5, nations=("japan",)),
    Preset("japanese_medium_horse", "Японская средняя конница", "Japanese medium horse",
           "medium_horse", "lance", 10, nations=("japan",)),
    Preset("chinese_chu_ko_nu", "Арбалетчики с чо-ко-ну", "Chu-ko-nu crossbowmen",
           "light_foot", "crossbow", 20, nations=("china",)),
    Preset("far_east_archers", "Лучники", "Archers", "light_foot", "bow", 20,
           nations=("china", "korea")),
    Preset("far_east_light_foot", "Лёгкая пехота с древковым оружием",
           "Light foot with polearms", "light_foot", "polearm", 20,
           nations=("china", "korea", "japan")),
    Preset("far_east_medium_horse", "Средняя конница", "Medium horse", "medium_horse", "lance",
           10, nations=("china", "korea")),
)

PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        Preset("swiss_pikemen", "Швейцарцы/Ландскнехты (пикинёры)", "Swiss/Landsknecht pikemen",
               "heavy_foot", "pike", 24),
        Preset("english_longbowmen", "Английские лучники", "English longbowmen",
               "light_foot", "longbow", 20, ("stakes",)),
        Preset("knights", "Рыцари", "Knights", "heavy_horse", "lance", 10, ("knights",)),
        Preset("horse_archers", "Конные лучники", "Horse archers",
               "light_horse", "composite_bow", 10),
        Preset("light_lancers", "Лёгкая конница с копьями", "Light lancers",
               "light_horse", "lance", 10),
        Preset("medium_lancers", "Средняя конница с копьями", "Medium lancers",
               "medium_horse", "lance", 10),
        Preset("crossbowmen", "Арбалетчики", "Crossbowmen", "light_foot", "crossbow", 20),
        Preset("heavy_foot_polearms", "Тяжёлая пехота с древковым оружием",
               "Heavy foot with polearms", "heavy_foot", "polearm", 20),
        Preset("militia", "Ополчение", "Militia", "militia", "polearm", 20),
        Preset("peasants", "Крестьяне", "Peasants", "peasant", "none", 30),
        Preset("arquebusiers", "Аркебузиры", "Arquebusiers", "light_foot", "arquebus", 20),
        *NATIONAL_PRESETS,
    )
}

RULESET_ID = "chainmail"
RULESET_VERSION = "1.0"
NAME_RU = "Кольчуга (Chainmail)"
NAME_EN = "Chainmail"
