"""Rosters written by hand from the words of the rules page (§5 and §6), one that breaks each
rule and one that keeps it. Shared by the rules tests and the price API tests.

Every army below has its commander and keeps its units to one troop type, so a roster that
breaks one national rule breaks nothing of §5 as well (unless the case is about §5).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

Doc = dict[str, Any]

# Every rule code of §5 and §6, with the severity its table gives (for a historical roster).
ORGANISATION_CODES: dict[str, str] = {
    "roster.over_limit": "error",
    "unit.empty": "error",
    "unit.mixed_types": "error",
    "unit.weapon_not_allowed": "error",
    "unit.knights_not_horse": "error",
    "army.commanders": "error",
    "army.no_commander": "warning",
    "unit.commander_mercenary": "warning",
    "army.empty": "warning",
}
UNIT_CODES = {"unit.empty", "unit.mixed_types", "unit.weapon_not_allowed",
              "unit.knights_not_horse", "unit.commander_mercenary"}
NATIONAL_CODES: dict[str, str] = {
    "magyars.horse_types": "error",
    "magyars.light_horse": "error",
    "magyars.horse_archers": "error",
    "magyars.foot_share": "error",
    "magyars.foot_types": "error",
    "mongols.no_foot": "error",
    "mongols.horse_types": "error",
    "mongols.medium_lancers": "error",
    "mongols.light_lancers": "error",
    "mongols.horse_archers": "error",
    "tatars.no_foot": "error",
    "tatars.horse_types": "error",
    "tatars.medium_lancers": "error",
    "tatars.light_lancers": "error",
    "tatars.horse_archers": "error",
    "poles.horse_types": "error",
    "poles.medium_lancers": "error",
    "poles.light_crossbows": "error",
    "poles.other_horse": "error",
    "poles.foot_types": "warning",
    "russians.horse_share": "error",
    "russians.horse_types": "error",
    "russians.medium_horse": "error",
    "russians.heavy_foot": "error",
    "russians.polearms": "warning",
    "russians.crossbows": "error",
    "saracens.foot_types": "error",
    "saracens.archers": "warning",
    "saracens.horse_types": "error",
    "saracens.light_horse": "warning",
    "scots.foot_pikes": "error",
    "spanish.knights_medium": "warning",
    "spanish.light_javelins": "error",
}
for _nation in ("china", "korea", "japan"):
    NATIONAL_CODES |= {f"{_nation}.forbidden": "error", f"{_nation}.some": "warning",
                       f"{_nation}.possible": "info", f"{_nation}.unlisted": "warning"}
ALL_CODES: dict[str, str] = ORGANISATION_CODES | NATIONAL_CODES


def line(troop: str, figures: int, weapon: str = "none") -> Doc:
    return {"troop": troop, "figures": figures, "weapon": weapon}


def unit(*lines: Doc, flags: tuple[str, ...] = (), mercenary: bool = False,
         name: str = "") -> Doc:
    return {"name": name, "mercenary": mercenary, "flags": list(flags), "lines": list(lines)}


def army(nation: str, *units: Doc, commander: bool = True, **extra: Any) -> Doc:
    """A roster document; the commander joins the first unit unless told otherwise."""
    # Copied one by one: the same unit passed twice must become two units, not one shared.
    units_copy = [copy.deepcopy(u) for u in units]
    if commander and units_copy and "commander" not in units_copy[0]["flags"]:
        units_copy[0]["flags"].append("commander")
    return {"name": f"Test army ({nation})", "ruleset": "chainmail", "nation": nation,
            "units": units_copy, **extra}


def plus(doc: Doc, *units: Doc) -> Doc:
    """The same roster with more units."""
    bigger = copy.deepcopy(doc)
    bigger["units"] += [copy.deepcopy(u) for u in units]
    return bigger


@dataclass(frozen=True)
class Case:
    code: str
    roster: Doc
    id: str
    unit: int | None = None  # the unit an issue is about (unit codes only)
    note: str = field(default="", compare=False)

    @property
    def severity(self) -> str:
        return ALL_CODES[self.code]


# ---- Lawful armies: each keeps every rule of its nation. ----

LAWFUL: dict[str, Doc] = {
    # Cavalry 3/4 light, 1/4 medium; a quarter of the light horse with bows; foot ≤ 10 %, light.
    "magyars": army("magyars",
                    unit(line("light_horse", 11, "javelins")),
                    unit(line("light_horse", 4, "bow")),
                    unit(line("medium_horse", 5, "lance")),
                    unit(line("light_foot", 2, "bow"))),
    # All horse: a quarter medium with lances, a quarter light with lances, the rest archers.
    "mongols": army("mongols",
                    unit(line("medium_horse", 5, "lance")),
                    unit(line("light_horse", 5, "lance")),
                    unit(line("light_horse", 10, "composite_bow"))),
    "tatars": army("tatars",
                   unit(line("medium_horse", 5, "lance")),
                   unit(line("light_horse", 5, "lance")),
                   unit(line("light_horse", 7, "bow")),
                   unit(line("light_horse", 3, "javelins"))),
    # 3/4 of the horse medium lancers; of the light horse about 10 % crossbows; heavy/light foot.
    "poles": army("poles",
                  unit(line("medium_horse", 30, "lance")),
                  unit(line("light_horse", 9, "javelins")),
                  unit(line("light_horse", 1, "crossbow")),
                  unit(line("heavy_foot", 10, "polearm")),
                  unit(line("light_foot", 10, "bow"))),
    # ~20 % horse (≥ 3/4 medium), ~50 % heavy foot (most with polearms), 10 % of the foot
    # light crossbowmen.
    "russians": army("russians",
                     unit(line("medium_horse", 15, "lance")),
                     unit(line("light_horse", 5, "bow")),
                     unit(line("heavy_foot", 30, "polearm"), line("heavy_foot", 20)),
                     unit(line("light_foot", 8, "crossbow")),
                     unit(line("light_foot", 22, "javelins"))),
    # All foot light, most with short bows; horse mostly light, elite medium.
    "saracens": army("saracens",
                     unit(line("light_foot", 15, "bow")),
                     unit(line("light_foot", 5, "javelins")),
                     unit(line("light_horse", 15, "bow")),
                     unit(line("medium_horse", 5, "lance"), flags=("elite",))),
    # Scottish foot all with long spears (bought as pikes); horse is free of the rule.
    "scots": army("scots",
                  unit(line("heavy_foot", 30, "pike")),
                  unit(line("light_foot", 10, "pike")),
                  unit(line("medium_horse", 6, "lance"))),
    # Knights mostly medium horse; about half the other horse light with javelins.
    "spanish": army("spanish",
                    unit(line("medium_horse", 8, "lance"), line("heavy_horse", 4, "lance"),
                         flags=("knights",)),
                    unit(line("light_horse", 10, "javelins")),
                    unit(line("medium_horse", 10, "lance")),
                    unit(line("heavy_foot", 20, "polearm"))),
    # Table 18 "Yes" troops only.
    "china": army("china",
                  unit(line("light_foot", 20, "polearm")),
                  unit(line("light_foot", 10, "bow")),
                  unit(line("light_foot", 10, "crossbow")),
                  unit(line("medium_horse", 10, "lance")),
                  unit(line("light_horse", 10, "composite_bow"))),
    "korea": army("korea",
                  unit(line("light_foot", 20, "polearm")),
                  unit(line("light_foot", 20, "bow")),
                  unit(line("medium_horse", 15, "lance")),
                  unit(line("light_horse", 5, "bow")),       # "some": 5 of 65
                  unit(line("light_foot", 5, "crossbow"))),  # "some": 5 of 65
    "japan": army("japan",
                  unit(line("armored_foot", 10), flags=("samurai",)),
                  unit(line("light_foot", 20, "polearm")),
                  unit(line("light_foot", 10, "longbow")),
                  unit(line("medium_horse", 10, "lance")),
                  unit(line("light_foot", 3, "arquebus"))),  # "some": 3 of 53
}

# Longbowmen, the first worked example: 20 × (1 + 4) = 100 points.
LONGBOWMEN = unit(line("light_foot", 20, "longbow"), flags=("stakes",))

# ---- Rosters that break one rule ----

BREAKS: list[Case] = [
    # §5 organisation
    Case("roster.over_limit", army("generic", LONGBOWMEN, points_limit=99), "100 of 99 points"),
    Case("unit.empty", army("generic", LONGBOWMEN, unit(name="Nobody")), "unit without lines",
         unit=1),
    Case("unit.mixed_types",
         army("generic", LONGBOWMEN,
              unit(line("light_foot", 10, "bow"), line("heavy_foot", 10, "polearm"))),
         "light and heavy foot", unit=1),
    Case("unit.mixed_types",
         army("generic", unit(line("light_horse", 5), line("heavy_horse", 5, "lance"))),
         "light and heavy horse", unit=0),
    Case("unit.mixed_types",
         army("generic", LONGBOWMEN, LONGBOWMEN,
              unit(line("light_horse", 5), line("medium_horse", 5), line("heavy_horse", 5))),
         "all three horse types", unit=2),
    Case("unit.mixed_types",
         army("generic", unit(line("peasant", 10), line("militia", 10))),
         "peasants with militia", unit=0),
    Case("unit.weapon_not_allowed",
         army("generic", LONGBOWMEN, unit(line("light_horse", 5, "pike"))),
         "horse with pikes", unit=1),
    Case("unit.weapon_not_allowed",
         army("generic", unit(line("heavy_foot", 5, "lance"))), "foot with lances", unit=0),
    Case("unit.weapon_not_allowed",
         army("generic", unit(line("medium_horse", 5, "polearm"))), "horse with polearms",
         unit=0),
    Case("unit.knights_not_horse",
         army("generic", unit(line("heavy_foot", 10, "polearm"), flags=("knights",))),
         "knights on foot", unit=0),
    Case("army.commanders",
         army("generic", unit(line("heavy_horse", 10, "lance"), flags=("commander",)),
              unit(line("medium_horse", 10, "lance"), flags=("commander",))),
         "two commanders"),
    Case("army.no_commander", army("generic", LONGBOWMEN, commander=False), "no commander"),
    Case("army.empty", army("generic", commander=False), "no units"),
    Case("army.empty", army("generic", commander=False,
                            engines=[{"kind": "bombard", "count": 2, "mercenary": False}]),
         "engines are not figures"),
    Case("unit.commander_mercenary",
         army("generic", LONGBOWMEN,
              unit(line("heavy_foot", 10, "pike"), flags=("commander",), mercenary=True),
              commander=False),
         "commander among mercenaries", unit=1),
    # Magyars
    Case("magyars.horse_types", plus(LAWFUL["magyars"], unit(line("heavy_horse", 1, "lance"))),
         "one heavy horseman"),
    Case("magyars.light_horse",
         army("magyars", unit(line("light_horse", 7, "javelins")),
              unit(line("light_horse", 3, "bow")), unit(line("medium_horse", 10, "lance"))),
         "half the horse light"),
    Case("magyars.horse_archers",
         army("magyars", unit(line("light_horse", 15, "javelins")),
              unit(line("medium_horse", 5, "lance"))),
         "no horse archers"),
    Case("magyars.foot_share", plus(LAWFUL["magyars"], unit(line("light_foot", 3, "bow"))),
         "5 foot of 25 figures"),
    Case("magyars.foot_types",
         army("magyars", unit(line("light_horse", 11, "javelins")),
              unit(line("light_horse", 4, "bow")), unit(line("medium_horse", 5, "lance")),
              unit(line("heavy_foot", 2, "polearm"))),
         "heavy foot"),
    Case("magyars.foot_types",
         army("magyars", unit(line("light_horse", 11, "javelins")),
              unit(line("light_horse", 4, "bow")), unit(line("medium_horse", 5, "lance")),
              unit(line("militia", 2, "polearm"))),
         "militia are heavy foot"),
    # Mongols
    Case("mongols.no_foot", plus(LAWFUL["mongols"], unit(line("light_foot", 1, "bow"))),
         "one footman"),
    Case("mongols.horse_types", plus(LAWFUL["mongols"], unit(line("heavy_horse", 1, "lance"))),
         "one heavy horseman"),
    Case("mongols.medium_lancers",
         army("mongols", unit(line("medium_horse", 1, "lance"), line("medium_horse", 4)),
              unit(line("light_horse", 5, "lance")), unit(line("light_horse", 10, "bow"))),
         "1 medium lancer of 20"),
    Case("mongols.light_lancers",
         army("mongols", unit(line("medium_horse", 5, "lance")),
              unit(line("light_horse", 5, "javelins")), unit(line("light_horse", 10, "bow"))),
         "light horse with javelins, not lances"),
    Case("mongols.horse_archers",
         army("mongols", unit(line("medium_horse", 5, "lance")),
              unit(line("light_horse", 5, "lance")), unit(line("light_horse", 6, "bow")),
              unit(line("light_horse", 4, "javelins"))),
         "6 archers of 20 (the issue's example)"),
    Case("mongols.horse_archers",
         army("mongols", unit(line("medium_horse", 3, "lance")),
              unit(line("light_horse", 3, "lance")), unit(line("light_horse", 14, "bow"))),
         "14 archers of 20"),
    # Tatars: as Mongols, archers 30–60 %
    Case("tatars.no_foot", plus(LAWFUL["tatars"], unit(line("light_foot", 1, "bow"))),
         "one footman"),
    Case("tatars.horse_types", plus(LAWFUL["tatars"], unit(line("heavy_horse", 1, "lance"))),
         "one heavy horseman"),
    Case("tatars.medium_lancers",
         army("tatars", unit(line("medium_horse", 1, "lance"), line("medium_horse", 4)),
              unit(line("light_horse", 5, "lance")), unit(line("light_horse", 10, "bow"))),
         "1 medium lancer of 20"),
    Case("tatars.light_lancers",
         army("tatars", unit(line("medium_horse", 5, "lance")),
              unit(line("light_horse", 5, "javelins")), unit(line("light_horse", 10, "bow"))),
         "light horse with javelins, not lances"),
    Case("tatars.horse_archers",
         army("tatars", unit(line("medium_horse", 5, "lance")),
              unit(line("light_horse", 5, "lance")), unit(line("light_horse", 5, "bow")),
              unit(line("light_horse", 5, "javelins"))),
         "5 archers of 20"),
    # Poles
    Case("poles.horse_types", plus(LAWFUL["poles"], unit(line("heavy_horse", 1, "lance"))),
         "one heavy horseman"),
    Case("poles.medium_lancers",
         army("poles", unit(line("medium_horse", 10, "lance")),
              unit(line("light_horse", 9, "javelins")), unit(line("light_horse", 1, "crossbow"))),
         "half the horse medium lancers"),
    Case("poles.light_crossbows",
         army("poles", unit(line("medium_horse", 60, "lance")),
              unit(line("light_horse", 20, "javelins"))),
         "no crossbows among 20 light horse"),
    Case("poles.light_crossbows",
         army("poles", unit(line("medium_horse", 30, "lance")),
              unit(line("light_horse", 7, "javelins")), unit(line("light_horse", 3, "crossbow"))),
         "3 crossbows among 10 light horse"),
    Case("poles.other_horse", plus(LAWFUL["poles"], unit(line("medium_horse", 1, "javelins"))),
         "one medium horseman without a lance"),
    Case("poles.foot_types", plus(LAWFUL["poles"], unit(line("armored_foot", 5, "polearm"))),
         "armored foot"),
    # Russians
    Case("russians.horse_share",
         army("russians", unit(line("medium_horse", 30, "lance")),
              unit(line("light_horse", 10, "bow")),
              unit(line("heavy_foot", 30, "polearm"), line("heavy_foot", 20)),
              unit(line("light_foot", 6, "crossbow")), unit(line("light_foot", 4, "javelins"))),
         "40 horse of 100"),
    Case("russians.horse_types", plus(LAWFUL["russians"], unit(line("heavy_horse", 1, "lance"))),
         "one heavy horseman"),
    Case("russians.medium_horse",
         army("russians", unit(line("medium_horse", 10, "lance")),
              unit(line("light_horse", 10, "bow")),
              unit(line("heavy_foot", 30, "polearm"), line("heavy_foot", 20)),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 22, "javelins"))),
         "half the horse medium"),
    Case("russians.heavy_foot",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 20, "polearm"), line("heavy_foot", 10)),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 42, "javelins"))),
         "30 heavy foot of 100"),
    Case("russians.polearms",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 10, "polearm"), line("heavy_foot", 40, "javelins")),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 22, "javelins"))),
         "10 of 50 heavy foot with polearms"),
    Case("russians.crossbows",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 30, "polearm"), line("heavy_foot", 20)),
              unit(line("light_foot", 30, "javelins"))),
         "no crossbows"),
    # Militia are heavy foot in every national rule: 50 heavy foot and 20 militia of 100 are
    # 70 %, over "about half"; 30 polearms among them are not the majority.
    Case("russians.heavy_foot",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 30, "polearm"), line("heavy_foot", 20)),
              unit(line("militia", 20)),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 2, "javelins"))),
         "militia count as heavy foot"),
    Case("russians.polearms",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 20, "polearm")), unit(line("militia", 30)),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 22, "javelins"))),
         "militia without polearms are heavy foot without them"),
    # Peasants are light foot: 15 peasants without bows make 5 archers of 25 light foot.
    Case("saracens.archers",
         army("saracens", unit(line("light_foot", 10, "bow")), unit(line("peasant", 15)),
              unit(line("light_horse", 15, "bow")), unit(line("medium_horse", 5, "lance"))),
         "peasants count as light foot"),
    # Saracens
    Case("saracens.foot_types", plus(LAWFUL["saracens"], unit(line("heavy_foot", 5, "polearm"))),
         "heavy foot"),
    Case("saracens.foot_types", plus(LAWFUL["saracens"], unit(line("militia", 5, "polearm"))),
         "militia are heavy foot"),
    Case("saracens.archers",
         army("saracens", unit(line("light_foot", 5, "bow")),
              unit(line("light_foot", 15, "javelins")), unit(line("light_horse", 15, "bow")),
              unit(line("medium_horse", 5, "lance"))),
         "5 of 20 light foot with bows"),
    Case("saracens.archers",
         army("saracens", unit(line("light_foot", 15, "composite_bow")),
              unit(line("light_foot", 5, "javelins")), unit(line("light_horse", 15, "bow")),
              unit(line("medium_horse", 5, "lance"))),
         "composite bows are not the short bows the rule counts"),
    Case("saracens.horse_types", plus(LAWFUL["saracens"], unit(line("heavy_horse", 2, "lance"))),
         "heavy horse"),
    Case("saracens.light_horse",
         army("saracens", unit(line("light_foot", 15, "bow")),
              unit(line("light_foot", 5, "javelins")), unit(line("light_horse", 5, "bow")),
              unit(line("medium_horse", 15, "lance"))),
         "horse mostly medium"),
    # Scots
    Case("scots.foot_pikes", plus(LAWFUL["scots"], unit(line("light_foot", 10, "bow"))),
         "archers on foot"),
    Case("scots.foot_pikes", plus(LAWFUL["scots"], unit(line("militia", 10, "polearm"))),
         "militia with polearms"),
    # Spanish
    Case("spanish.knights_medium",
         army("spanish",
              unit(line("medium_horse", 2, "lance"), line("heavy_horse", 10, "lance"),
                   flags=("knights",)),
              unit(line("light_horse", 10, "javelins")), unit(line("medium_horse", 10, "lance"))),
         "knights mostly heavy horse"),
    Case("spanish.light_javelins",
         army("spanish",
              unit(line("medium_horse", 8, "lance"), flags=("knights",)),
              unit(line("light_horse", 2, "javelins")), unit(line("medium_horse", 18, "lance"))),
         "2 of 20 ordinary horse light with javelins"),
    # China (Table 18)
    Case("china.forbidden", plus(LAWFUL["china"], unit(line("armored_foot", 5))),
         "armored foot"),
    Case("china.forbidden", plus(LAWFUL["china"], unit(line("light_foot", 5, "longbow"))),
         "longbowmen"),
    Case("china.some", plus(LAWFUL["china"], unit(line("heavy_foot", 10, "polearm"))),
         "10 heavy foot of 70"),
    Case("china.possible", plus(LAWFUL["china"], unit(line("light_foot", 2, "arquebus"))),
         "arquebusiers"),
    Case("china.unlisted", plus(LAWFUL["china"], unit(line("heavy_horse", 1, "lance"))),
         "heavy horse"),
    # Korea
    Case("korea.forbidden", plus(LAWFUL["korea"], unit(line("light_foot", 5, "longbow"))),
         "longbowmen"),
    Case("korea.some", plus(LAWFUL["korea"], unit(line("light_horse", 15, "bow"))),
         "20 light horse of 80"),
    Case("korea.possible", plus(LAWFUL["korea"], unit(line("heavy_foot", 5, "polearm"))),
         "heavy foot"),
    Case("korea.unlisted", plus(LAWFUL["korea"], unit(line("heavy_horse", 1, "lance"))),
         "heavy horse"),
    # Japan
    Case("japan.forbidden", plus(LAWFUL["japan"], unit(line("light_horse", 5, "bow"))),
         "light horse"),
    Case("japan.forbidden", plus(LAWFUL["japan"], unit(line("light_foot", 5, "bow"))),
         "archers with bows"),
    Case("japan.forbidden", plus(LAWFUL["japan"], unit(line("light_foot", 5, "crossbow"))),
         "crossbowmen"),
    Case("japan.some", plus(LAWFUL["japan"], unit(line("light_foot", 17, "arquebus"))),
         "20 arquebusiers of 70"),
    Case("japan.possible", plus(LAWFUL["japan"], unit(line("heavy_foot", 5, "polearm"))),
         "heavy foot"),
    Case("japan.unlisted", plus(LAWFUL["japan"], unit(line("heavy_horse", 1, "lance"))),
         "heavy horse"),
]

# ---- Rosters that keep one rule (besides the lawful armies, which keep all of theirs) ----

KEEPS: list[Case] = [
    Case("roster.over_limit", army("generic", LONGBOWMEN, points_limit=100),
         "100 of 100 points"),
    Case("roster.over_limit", army("generic", LONGBOWMEN), "no limit set"),
    Case("unit.empty", army("generic", LONGBOWMEN, unit(line("peasant", 1))), "every unit"),
    Case("unit.mixed_types",
         army("generic", unit(line("light_horse", 5, "bow"), line("medium_horse", 5, "lance"))),
         "light with medium horse"),
    Case("unit.mixed_types",
         army("generic", unit(line("medium_horse", 5, "lance"), line("heavy_horse", 5, "lance"))),
         "medium with heavy horse"),
    Case("unit.mixed_types",
         army("generic", unit(line("heavy_foot", 5, "pike"), line("heavy_foot", 5, "polearm"))),
         "one type, two weapons"),
    Case("unit.weapon_not_allowed",
         army("generic", unit(line("heavy_foot", 5, "pike")), unit(line("militia", 5, "polearm")),
              unit(line("heavy_horse", 5, "lance")), unit(line("light_horse", 5, "javelins")),
              unit(line("light_foot", 5, "javelins")), unit(line("light_horse", 5, "arquebus")),
              unit(line("medium_horse", 5, "crossbow")), unit(line("light_horse", 5, "longbow"))),
         "every weapon where it belongs"),
    Case("unit.knights_not_horse",
         army("generic", unit(line("heavy_horse", 10, "lance"), flags=("knights",))),
         "mounted knights"),
    Case("army.commanders", army("generic", LONGBOWMEN, LONGBOWMEN), "one commander"),
    Case("army.no_commander", army("generic", LONGBOWMEN), "one commander"),
    Case("unit.commander_mercenary",
         army("generic", LONGBOWMEN, unit(line("heavy_foot", 10, "pike"), mercenary=True)),
         "mercenaries without the commander"),
    Case("magyars.foot_share",
         plus(LAWFUL["magyars"], unit(line("light_foot", 3, "bow"))) | {"fortifications": True},
         "waived by fortifications"),
    Case("mongols.horse_archers",
         army("mongols", unit(line("medium_horse", 5, "lance")),
              unit(line("light_horse", 5, "lance")), unit(line("light_horse", 8, "bow")),
              unit(line("light_horse", 2, "javelins"))),
         "8 archers of 20"),
    Case("tatars.horse_archers",
         army("tatars", unit(line("medium_horse", 5, "lance")),
              unit(line("light_horse", 5, "lance")), unit(line("light_horse", 6, "bow")),
              unit(line("light_horse", 4, "javelins"))),
         "6 archers of 20, fewer than Mongols need"),
    Case("mongols.no_foot", army("mongols"), "an empty roster"),
    Case("army.empty", army("generic", unit(line("peasant", 1))), "one figure"),
    Case("poles.other_horse", plus(LAWFUL["poles"], unit(line("light_horse", 2, "bow"))),
         "light horse of any arms"),
    Case("poles.foot_types",
         plus(LAWFUL["poles"], unit(line("militia", 5, "polearm")), unit(line("peasant", 5))),
         "militia and peasants are heavy and light foot"),
    Case("magyars.foot_types",
         army("magyars", unit(line("light_horse", 11, "javelins")),
              unit(line("light_horse", 4, "bow")), unit(line("medium_horse", 5, "lance")),
              unit(line("peasant", 2))),
         "peasants are light foot"),
    Case("saracens.foot_types", plus(LAWFUL["saracens"], unit(line("peasant", 5, "bow"))),
         "peasants are light foot"),
    Case("saracens.archers",
         army("saracens", unit(line("light_foot", 5, "bow")), unit(line("peasant", 10, "bow")),
              unit(line("light_foot", 5, "javelins")), unit(line("light_horse", 15, "bow")),
              unit(line("medium_horse", 5, "lance"))),
         "peasants with bows are light foot with bows"),
    Case("russians.heavy_foot",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 30, "polearm")), unit(line("militia", 20, "polearm")),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 22, "javelins"))),
         "militia fill the heavy foot"),
    Case("russians.polearms",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 20)), unit(line("militia", 30, "polearm")),
              unit(line("light_foot", 8, "crossbow")), unit(line("light_foot", 22, "javelins"))),
         "militia with polearms fill the polearms"),
    Case("russians.crossbows",
         army("russians", unit(line("medium_horse", 15, "lance")),
              unit(line("light_horse", 5, "bow")),
              unit(line("heavy_foot", 30, "polearm"), line("heavy_foot", 20)),
              unit(line("peasant", 8, "crossbow")), unit(line("light_foot", 22, "javelins"))),
         "peasants with crossbows are light foot with crossbows"),
    Case("russians.medium_horse",
         army("russians", unit(line("heavy_foot", 10, "polearm")),
              unit(line("light_foot", 9, "javelins")), unit(line("light_foot", 1, "crossbow"))),
         "no horse at all: base 0"),
    Case("spanish.knights_medium",
         army("spanish", unit(line("light_horse", 10, "javelins")),
              unit(line("medium_horse", 10, "lance"))),
         "no knights: base 0"),
    Case("spanish.light_javelins",
         army("spanish",
              unit(line("light_horse", 30, "javelins"), line("medium_horse", 10, "lance"),
                   flags=("knights",)),
              unit(line("light_horse", 10, "javelins")), unit(line("medium_horse", 10, "lance"))),
         "knights do not count in the ordinary horse"),
    Case("scots.foot_pikes",
         army("scots", unit(line("heavy_foot", 30, "pike")),
              unit(line("light_horse", 10, "bow"))),
         "horse need no pikes"),
    Case("saracens.archers",
         army("saracens", unit(line("light_horse", 15, "bow")),
              unit(line("medium_horse", 5, "lance"))),
         "no foot at all: base 0"),
    Case("china.some", plus(LAWFUL["china"], unit(line("heavy_foot", 5, "polearm"))),
         "5 heavy foot of 65"),
    Case("japan.forbidden", plus(LAWFUL["japan"], unit(line("armored_foot", 10),
                                                      flags=("samurai",))),
         "samurai are armored foot Japan may field"),
]

for _nation, _doc in LAWFUL.items():
    codes = [c for c in NATIONAL_CODES if c.startswith(f"{_nation}.")]
    KEEPS += [Case(code, _doc, f"lawful {_nation}") for code in codes]
KEEPS += [Case(code, LAWFUL["russians"], "lawful russians") for code in ORGANISATION_CODES
          if code != "roster.over_limit"]


def case_id(case: Case) -> str:
    return f"{case.code}: {case.id}"
