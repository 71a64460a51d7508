"""The Chainmail catalogue as data: troop types (Table 25), weapons (Table 26), engines,
nations, unit flags and presets. Ids are public contract (see the rules page)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from app.domain.catalogue_entries import Named
from app.domain.translations import N_, NP_

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
    description: str  # a msgid, like the name


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
        Troop("peasant", N_("Peasant"), "foot", Fraction(1, 2), "light_foot"),
        Troop("militia", N_("Militia (levy)"), "foot", Fraction(3, 4), "heavy_foot"),
        Troop("light_foot", N_("Light Foot"), "foot", Fraction(1)),
        Troop("heavy_foot", N_("Heavy Foot"), "foot", Fraction(2)),
        Troop("armored_foot", N_("Armored Foot"), "foot", Fraction(5, 2)),
        Troop("light_horse", N_("Light Horse"), "horse", Fraction(3)),
        Troop("medium_horse", N_("Medium Horse"), "horse", Fraction(4)),
        Troop("heavy_horse", N_("Heavy Horse"), "horse", Fraction(5)),
    )
}

WEAPONS: dict[str, Weapon] = {
    w.id: w
    for w in (
        Weapon("none", N_("—"), Fraction(0), BOTH),
        Weapon("pike", N_("Pike"), Fraction(1), frozenset({"foot"})),
        Weapon("arquebus", N_("Arquebus"), Fraction(3, 2), BOTH),
        Weapon("crossbow", N_("Crossbow (any)"), Fraction(3, 2), BOTH),
        Weapon("bow", N_("Bow (incl. short bow)"), Fraction(3), BOTH),
        Weapon("longbow", N_("Longbow"), Fraction(4), BOTH),
        Weapon("composite_bow", N_("Composite bow"), Fraction(4), BOTH),
        Weapon("lance", N_("Lance"), Fraction(0), frozenset({"horse"})),
        Weapon("javelins", N_("Javelins"), Fraction(0), BOTH),
        Weapon("polearm", N_("Polearm"), Fraction(0), frozenset({"foot"})),
    )
}

ENGINES: dict[str, Engine] = {
    e.id: e
    for e in (
        Engine("light_catapult", N_("Light catapult"), Fraction(15)),
        Engine("light_cannon", N_("Light cannon"), Fraction(15)),
        Engine("heavy_catapult", N_("Heavy catapult"), Fraction(20)),
        Engine("heavy_cannon", N_("Heavy cannon"), Fraction(20)),
        Engine("bombard", N_("Bombard"), Fraction(30)),
    )
}

FLAGS: dict[str, Flag] = {
    f.id: f
    for f in (
        Flag("commander", N_("Commander"), N_("The army's commander stands with this unit.")),
        Flag("knights", N_("Knights"),
             N_("Feudal knights: charge unless a 6 is rolled; target priorities.")),
        Flag("religious_order", N_("Religious Knightly Orders"),
             N_("Never surrender; +1 to all morale rolls.")),
        Flag("elite", N_("Elite"), N_("Elite troops: morale one table value better.")),
        Flag("flemish", N_("Flemish"), N_("Flemish militia: +1 to morale totals.")),
        Flag("samurai", N_("Samurai"), N_("Japanese samurai (Table 19 rating 9).")),
        Flag("stakes", N_("Stakes"), N_("Longbowmen with stakes, set after standing two turns.")),
    )
}

NATIONS: dict[str, Nation] = {
    n.id: n
    for n in (
        Nation("generic", N_("Generic (no national rules)")),
        Nation("magyars", N_("Magyars")),
        Nation("mongols", N_("Mongols")),
        Nation("tatars", N_("Tatars")),
        Nation("poles", N_("Poles")),
        Nation("russians", N_("Russians")),
        Nation("saracens", N_("Saracens")),
        Nation("scots", N_("Scots")),
        Nation("spanish", N_("Spanish")),
        Nation("china", N_("Chinese")),
        Nation("korea", N_("Koreans")),
        Nation("japan", N_("Japanese")),
    )
}

STEPPE = ("mongols", "tatars")
# The units the seed's national notes name, in its words (Table 18's for the Far East).
NATIONAL_PRESETS: tuple[Preset, ...] = (
    Preset("steppe_horse_archers", N_("Horse archers (light horse with bows)"), "light_horse",
           "bow", 10, nations=STEPPE),
    Preset("steppe_medium_lancers", N_("Medium horse with lances"), "medium_horse", "lance", 5,
           nations=STEPPE),
    Preset("steppe_light_lancers", N_("Light horse with lances"), "light_horse", "lance", 5,
           nations=STEPPE),
    Preset("magyar_horse_archers", N_("Magyar horse archers"), "light_horse", "bow", 5,
           nations=("magyars",)),
    Preset("magyar_light_horse", N_("Magyar light horse"), "light_horse", "javelins", 10,
           nations=("magyars",)),
    Preset("magyar_medium_horse", N_("Magyar medium horse"), "medium_horse", "lance", 5,
           nations=("magyars",)),
    Preset("polish_lancers", N_("Polish lancers"), "medium_horse", "lance", 15, nations=("poles",)),
    Preset("polish_crossbow_horse", N_("Light horse with crossbows"), "light_horse", "crossbow", 2,
           nations=("poles",)),
    Preset("polish_light_horse", N_("Polish light horse"), "light_horse", "javelins", 5,
           nations=("poles",)),
    Preset("russian_heavy_foot", N_("Heavy foot with polearms"), "heavy_foot", "polearm", 20,
           nations=("russians",)),
    Preset("russian_crossbowmen", N_("Light foot with crossbows"), "light_foot", "crossbow", 4,
           nations=("russians",)),
    Preset("russian_medium_horse", N_("Russian medium horse"), "medium_horse", "lance", 6,
           nations=("russians",)),
    # The other foot, "10% пеших войск" being the crossbowmen and about half the army the heavy
    # foot: with it the four presets, taken once each, keep every Russian share.
    Preset("russian_light_foot", N_("Russian light foot"), "light_foot", "none", 10,
           nations=("russians",)),
    Preset("saracen_archers", N_("Saracen archers (short bows)"), "light_foot", "bow", 15,
           nations=("saracens",)),
    Preset("saracen_light_horse", N_("Saracen light horse"), "light_horse", "bow", 10,
           nations=("saracens",)),
    Preset("saracen_elite_horse", N_("Saracen elite (medium horse)"), "medium_horse", "lance", 5,
           ("elite",), nations=("saracens",)),
    Preset("scottish_schiltron", N_("Scottish schiltron (long spears)"), "heavy_foot", "pike", 30,
           nations=("scots",)),
    Preset("spanish_jinetes", N_("Jinetes (light horse with javelins)"), "light_horse", "javelins",
           10, nations=("spanish",)),
    Preset("spanish_knights", N_("Spanish knights (medium horse)"), "medium_horse", "lance", 8,
           ("knights",), nations=("spanish",)),
    # "около 50% их обычной кавалерии" are jinetes: the other half of the ordinary horse.
    Preset("spanish_horse", N_("Spanish horse (medium horse)"), "medium_horse", "lance", 10,
           nations=("spanish",)),
    Preset("japanese_samurai", N_("Samurai (armored foot)"), "armored_foot", "none", 10,
           ("samurai",), nations=("japan",)),
    Preset("japanese_samurai_bowmen", N_("Samurai bowmen (longbows)"), "armored_foot", "longbow",
           10, ("samurai",), nations=("japan",)),
    Preset("japanese_ashigaru_arquebusiers", N_("Ashigaru arquebusiers"), "light_foot", "arquebus",
           5, nations=("japan",)),
    Preset("japanese_medium_horse", N_("Japanese medium horse"), "medium_horse", "lance", 10,
           nations=("japan",)),
    Preset("chinese_chu_ko_nu", N_("Chu-ko-nu crossbowmen"), "light_foot", "crossbow", 20,
           nations=("china",)),
    Preset("far_east_archers", N_("Archers"), "light_foot", "bow", 20, nations=("china", "korea")),
    Preset("far_east_light_foot", N_("Light foot with polearms"), "light_foot", "polearm", 20,
           nations=("china", "korea", "japan")),
    # «Средняя конница», where the sheet's morale table and the game page say «Средняя Конница».
    Preset("far_east_medium_horse", NP_("preset", "Medium horse"), "medium_horse", "lance", 10,
           nations=("china", "korea"), context="preset"),
)

PRESETS: dict[str, Preset] = {
    p.id: p
    for p in (
        Preset("swiss_pikemen", N_("Swiss/Landsknecht pikemen"), "heavy_foot", "pike", 24),
        Preset("english_longbowmen", N_("English longbowmen"), "light_foot", "longbow", 20,
               ("stakes",)),
        Preset("knights", N_("Knights"), "heavy_horse", "lance", 10, ("knights",)),
        Preset("horse_archers", N_("Horse archers"), "light_horse", "composite_bow", 10),
        Preset("light_lancers", N_("Light lancers"), "light_horse", "lance", 10),
        Preset("medium_lancers", N_("Medium lancers"), "medium_horse", "lance", 10),
        Preset("crossbowmen", N_("Crossbowmen"), "light_foot", "crossbow", 20),
        Preset("heavy_foot_polearms", N_("Heavy foot with polearms"), "heavy_foot", "polearm", 20),
        Preset("militia", N_("Militia"), "militia", "polearm", 20),
        Preset("peasants", N_("Peasants"), "peasant", "none", 30),
        Preset("arquebusiers", N_("Arquebusiers"), "light_foot", "arquebus", 20),
        *NATIONAL_PRESETS,
    )
}

RULESET_ID = "chainmail"
RULESET_VERSION = "1.0"
NAME = NP_("ruleset", "Chainmail")  # «Кольчуга (Chainmail)»
