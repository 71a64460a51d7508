"""The army sheet's reference texts: the seed's rules for commanders, knights, mercenaries,
peasants, each nation's notes and the optional sections, as catalogue messages (rules page
§7–8). Data, kept apart from the sheet's arithmetic in sheet.py."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.base import Lang
from app.domain.translations import N_, tr


@dataclass(frozen=True)
class Section:
    """A reference section printed on the sheet, already in the sheet's language."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()
    units: tuple[str, ...] = ()  # names of the units the section is about
    optional: bool = False

# --- reference texts (rules page §7–8; Russian from the seed) ---------------------------------


@dataclass(frozen=True)
class Reference:
    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    header: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()
    notes: tuple[str, ...] = ()
    optional: bool = False

    def in_lang(self, lang: Lang, units: tuple[str, ...] = (),
                rows: tuple[tuple[str, ...], ...] | None = None,
                notes: tuple[str, ...] | None = None) -> Section:
        return Section(
            id=self.id, title=tr(lang, self.title),
            paragraphs=tuple(tr(lang, p) for p in self.paragraphs),
            header=tuple(tr(lang, h) for h in self.header),
            rows=tuple(tuple(tr(lang, c) for c in row) for row in (rows or self.rows)),
            notes=tuple(tr(lang, n) for n in (self.notes if notes is None else notes)),
            units=units, optional=self.optional)


COMMANDER = Reference(
    "commander", N_("The commander"),
    paragraphs=(
        N_("His unit gets +1 to every die it rolls (1d6+1, 2d6+2 and so on); so does any unit "
           "within 12\" of him."),
        N_("He shares the fate of his own unit if it fails any test, and is always killed last, "
           "in melee or by missiles. He re-forms any unit he joins (if he leaves within three "
           "turns, it returns to its former state)."),
        N_("If he is killed or captured, every unit of the army tests morale as for excessive "
           "casualties, at −2."),
        N_("Mercenaries gain nothing from the commander."),
    ))

KNIGHTS = Reference(
    "knights", N_("Knights"),
    paragraphs=(
        N_("Whenever knights see an enemy within charge reach they charge, whatever their orders, "
           "unless a 6 is rolled on the discipline die. Whatever that die shows, when they see "
           "friends advancing on or attacking the enemy they charge too (or advance, if they "
           "cannot charge)."),
        N_("With more than one kind of enemy within charge reach they pick the target by "
           "priority:"),
    ),
    header=(N_("Priority"), N_("Target")),
    rows=tuple((str(n), target) for n, target in enumerate((
        N_("Other knights"),
        N_("Any other horse"),
        N_("Baggage, or missile troops shooting at them"),
        N_("Armored foot"),
        N_("Missile troops"),
        N_("Artillery or siege engines"),
        N_("Heavy foot"),
        N_("Light foot, peasants or militia"),
        N_("Pikemen"),
    ), start=1)))

RELIGIOUS_ORDER = Reference(
    "religious_order", N_("Religious Knightly Orders"),
    paragraphs=(N_("They never surrender: when a morale roll calls for it they fight on as usual. "
                   "They get +1 on all morale rolls for their elite training."),))

FLEMISH = Reference(
    "flemish", N_("Flemish militia"),
    paragraphs=(N_("The Flemish add 1 to the total of the dice when testing morale."),))

LONGBOW_STAKES = Reference(
    "longbow_stakes", N_("Longbowmen's stakes"),
    paragraphs=(N_("Longbowmen who stand still for two turns have set their stakes. Any horse "
                   "charging them from the front rolls a die for each figure of its front rank: "
                   "4–6 means the horse is impaled and the rider killed."),))

# The seed's «Подкуп …» row, also the game companion's words for it (one text, not two).
BRIBED = N_("Bribed: once within one march of the enemy line they turn and may attack you.")
MERCENARIES = Reference(
    "table16_mercenaries", N_("Table 16: Mercenary discipline"),
    paragraphs=(N_("Before every turn roll a die for each mercenary unit: 1 — they stand idle all "
                   "turn (defending themselves if attacked); 2–5 — they obey orders; 6 — roll a "
                   "second die on the table."),),
    header=(N_("Second die (1d6)"), N_("Effect")),
    rows=(
        ("1", N_("Pay us more! They stand idle.")),
        ("2", N_("They march off home (\"we have business at home\").")),
        ("3", BRIBED),
        ("4–6", N_("They obey without question for the next 3 turns.")),
    ),
    notes=(N_("No roll is needed while the unit is in melee, until the fight ends."),))

PEASANTS = Reference(
    "table17_peasants", N_("Table 17: Peasant discipline"),
    paragraphs=(N_("Before a peasant unit does anything it rolls 2d6 to obey: moving needs 7 or "
                   "more; to attack or defend against an enemy unit it needs the score below. "
                   "Peasants fight as light foot."),),
    header=(N_("Enemy unit"), N_("Attack"),
            N_("Defence")),
    rows=(
        (N_("Peasants"), "4", "5"),
        (N_("Light foot, militia"), "6", "6"),
        (N_("Heavy foot"), "8", "7"),
        (N_("Armored foot, pikemen"), "9", "8"),
        (N_("Light horse"), "10", "9"),
        (N_("Medium horse"), "11", "10"),
        (N_("Heavy horse"), "12", "11"),
    ),
    notes=(N_("Failed attack: they stand where they are. Failed defence: they cannot strike back "
              "and count as routed after a lost melee."),))

NATION_NOTES: dict[str, Reference] = {
    "magyars": Reference("nation_magyars", N_("Magyars"), paragraphs=(N_(
        "Magyar horse are very mobile: light horse with bows may make the split move and fire "
        "manoeuvre."),)),
    "mongols": Reference("nation_mongols", N_("Mongols"), paragraphs=(N_(
        "Forced to fall back, Mongols need not re-form: they move normally next turn. If they are "
        "routed, the usual rules apply."),)),
    "tatars": Reference("nation_tatars", N_("Tatars"), paragraphs=(
        N_("Tatars are played as Mongols: forced to fall back, they need not re-form and move "
           "normally next turn. If they are routed, the usual rules apply."),
        N_("After Timur (Tamerlane) Tatar troops are unlikely to be as disciplined as Mongols."),
    )),
    "poles": Reference("nation_poles", N_("Poles"), paragraphs=(N_(
        "Treat all Polish troops as elite: rate their morale one table value higher."),)),
    "saracens": Reference("nation_saracens", N_("Saracens"), paragraphs=(
        N_("Saracen medium horse are their elite."),
        N_("All Saracen foot are light, and a high percentage of them carry short bows (range "
           "15\")."),
        N_("They take no prisoners when fighting units of the religious knightly orders "
           "(Templars, Hospitallers)."),
    )),
    "scots": Reference("nation_scots", N_("Scots: the schiltron"),
                       paragraphs=(
        N_("Scottish foot carry long spears (almost pikes) and may form schiltrons, large round "
           "formations that fight as Swiss or Landsknecht pike formations, except that a "
           "schiltron cannot move. Forming one takes as long as forming a column."),
        N_("Horse with lances attack a schiltron at even odds: attacker and defender each roll "
           "one die, killing by 6s."),
    )),
    "spanish": Reference("nation_spanish", N_("Spanish"), paragraphs=(N_(
        "Spanish light horse with javelins may make the split move and fire manoeuvre."),)),
}

# Table 18's footnotes, each tied to the nation and the category it is printed for.
FAR_EAST_FOOTNOTES: tuple[tuple[str, str, str], ...] = (
    ("china", "crossbowmen", N_("* Chu-ko-nu: a very light repeating crossbow. It shoots as a "
                                "bow, range 12\", −1 to hit (or −1 on casualties). Despite "
                                "poisoned bolts its penetration is low.")),
    ("japan", "longbowmen", N_("** The samurai's very long bamboo bow may be shot from the "
                               "saddle, but only while standing still.")),
    ("japan", "medium_horse", N_("*** Japanese medium horse attack as light horse, defend as "
                                 "heavy horse and have the discipline of knights.")),
)
TABLE18 = Reference("table18_notes", N_("Table 18: East Asian countries (notes)"))

# Table 19: melee morale ratings; None where the table has a dash.
TABLE19_ROWS: tuple[tuple[str, str], ...] = (
    ("infantry", N_("Infantry")),
    ("elite_infantry", N_("Elite infantry")),
    ("cavalry", N_("Cavalry")),
    ("elite_cavalry", N_("Elite cavalry")),
    ("samurai", N_("Samurai")),
)
TABLE19: dict[str, dict[str, int | None]] = {
    "china": {"infantry": 4, "elite_infantry": 5, "cavalry": 5, "elite_cavalry": 6,
              "samurai": None},
    "korea": {"infantry": 5, "elite_infantry": None, "cavalry": 6, "elite_cavalry": None,
              "samurai": None},
    "japan": {"infantry": 6, "elite_infantry": None, "cavalry": 7, "elite_cavalry": None,
              "samurai": 9},
}
TABLE19_REF = Reference(
    "table19_morale", N_("Table 19: melee morale rating"),
    paragraphs=(N_("Each unit's rating is printed beside it."),))

BAGGAGE = Reference(
    "baggage", N_("Baggage"), optional=True, paragraphs=(
        N_("Each side has a baggage camp just behind its base line or entry point. Both sides "
           "secretly mark on the map a 6\" zone holding the camp."),
        N_("When an enemy unit comes within one normal move of that zone, its owner must say that "
           "it sees the baggage. Next turn the unit leaves the table to loot the camp, unless the "
           "owners stop it (attack it or block its way)."),
        N_("When an enemy unit takes the baggage, every friendly unit within a normal move of the "
           "camp also leaves the table to defend it. These units stay out of the game to the end, "
           "unless the fight is played out separately; then survivors may return."),
    ))

NO_CHANGE = N_("no change")
DRIZZLE = N_("drizzle")
TO_CLOUDY = N_("turns cloudy")
DOWNPOUR = N_("downpour")
WEATHER = Reference(
    "weather", N_("Table 20: Weather"), optional=True,
    paragraphs=(N_("If the weather is not set, roll a die for it. Check for a change every even "
                   "turn: roll a die in the current weather's column."),
                ),
    header=(N_("Roll (1d6)"), N_("Clear (1–3)"),
            N_("Cloudy (4–5)"), N_("Rain (6)")),
    rows=(
        ("1", N_("heat wave*"), NO_CHANGE, DRIZZLE),
        ("2", NO_CHANGE, NO_CHANGE, DRIZZLE),
        ("3", NO_CHANGE, N_("turns clear"), TO_CLOUDY),
        ("4", NO_CHANGE, NO_CHANGE, TO_CLOUDY),
        ("5", NO_CHANGE, NO_CHANGE, DOWNPOUR),
        ("6", TO_CLOUDY, N_("rain begins"),
         N_("downpour**")),
    ),
    notes=(
        N_("* Fatigue doubled; grass or forest fires likely in a drought (summer only)."),
        N_("** Three turns of unbroken downpour make mud: movement halved."),
        N_("The weather moves to the column the result names."),
    ))

OPTIONAL: dict[str, Reference] = {ref.id: ref for ref in (BAGGAGE, WEATHER)}
FLAG_SECTIONS: tuple[tuple[str, Reference], ...] = (
    ("commander", COMMANDER), ("knights", KNIGHTS), ("religious_order", RELIGIOUS_ORDER),
    ("flemish", FLEMISH), ("stakes", LONGBOW_STAKES),
)
