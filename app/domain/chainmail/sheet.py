"""The army sheet a player takes to the table: what the roster fields, what it costs, and only
the reference rules this roster uses (rules page §7), in English or in the seed's own Russian.

Pure data in, pure data out: the print page, the PDF and the text exports all read an
`ArmySheet`, so what is printed is decided here once.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.domain.base import Issue, Lang, Severity, pick, points_text
from app.domain.chainmail.catalogue import (
    ENGINES,
    FLAGS,
    NAME_EN,
    NAME_RU,
    NATIONS,
    TROOPS,
    WEAPONS,
)
from app.domain.chainmail.far_east import CATEGORIES
from app.domain.chainmail.pricing import PricedRoster, price
from app.domain.chainmail.roster import ChainmailRoster, Unit
from app.domain.chainmail.tally import tally
from app.domain.chainmail.validation import validate
from app.domain.words import legality_text


@dataclass(frozen=True)
class Words:
    """One text in both languages; the sheet picks one."""

    en: str
    ru: str

    def get(self, lang: Lang) -> str:
        return pick(lang, self.en, self.ru)


def same(text: str) -> Words:
    """Numbers and dice rolls read the same in both languages."""
    return Words(text, text)


# --- plural words (Babel knows the Russian one/few/many forms) ------------------------------

# --- the sheet's data --------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetLine:
    figures: int
    troop: str
    troop_name: str
    weapon: str
    weapon_name: str  # empty when the line carries no weapon
    cost_per_figure: str
    cost: str

    @property
    def text(self) -> str:
        """'20 × Light Foot, Longbow'."""
        troops = f"{self.figures} × {self.troop_name}"
        return f"{troops}, {self.weapon_name}" if self.weapon_name else troops


@dataclass(frozen=True)
class Rating:
    """A Table 19 melee morale rating for one unit of China, Korea or Japan."""

    label: str
    value: int


@dataclass(frozen=True)
class SheetUnit:
    number: int
    name: str
    lines: tuple[SheetLine, ...]
    figures: int
    cost: str
    mercenary: bool
    flags: tuple[str, ...]
    flag_names: tuple[str, ...]
    note: str
    rating: Rating | None

    @property
    def casualty_boxes(self) -> int:
        """One tick box per figure, to strike off losses during the game."""
        return self.figures


@dataclass(frozen=True)
class SheetEngine:
    kind: str
    name: str
    count: int
    mercenary: bool
    cost: str


@dataclass(frozen=True)
class Thresholds:
    """When the army must test morale for losses (1:1 rules: "если уничтожено 33.3% всей
    армии").

    Losses are whole figures, so the test falls due at the first whole number of losses that
    reaches a third of the army: ceil(figures / 3). Rounding down would call for the test
    before a full third is gone (10 figures: 3 lost is 30 %, 4 lost is 40 %).
    """

    figures: int
    one_third_lost: int
    standing_at_test: int


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


@dataclass(frozen=True)
class ArmySheet:
    lang: Lang
    name: str
    ruleset_name: str
    nation: str
    nation_name: str
    historical: bool
    fortifications: bool
    note: str
    total: str
    points_limit: int | None
    remaining: str | None
    over_limit: bool
    figures: int
    foot: int
    horse: int
    engine_count: int
    units: tuple[SheetUnit, ...]
    engines: tuple[SheetEngine, ...]
    thresholds: Thresholds
    valid: bool
    legality: str
    issues: tuple[str, ...]
    sections: tuple[Section, ...]
    optional_offered: tuple[tuple[str, str], ...] = field(default=())  # (id, title) to tick

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)

    @property
    def section_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.sections)


# --- reference texts (rules page §7–8; Russian from the seed) ---------------------------------


@dataclass(frozen=True)
class Reference:
    id: str
    title: Words
    paragraphs: tuple[Words, ...] = ()
    header: tuple[Words, ...] = ()
    rows: tuple[tuple[Words, ...], ...] = ()
    notes: tuple[Words, ...] = ()
    optional: bool = False

    def in_lang(self, lang: Lang, units: tuple[str, ...] = (),
                rows: tuple[tuple[Words, ...], ...] | None = None,
                notes: tuple[Words, ...] | None = None) -> Section:
        return Section(
            id=self.id, title=self.title.get(lang),
            paragraphs=tuple(p.get(lang) for p in self.paragraphs),
            header=tuple(h.get(lang) for h in self.header),
            rows=tuple(tuple(c.get(lang) for c in row) for row in (rows or self.rows)),
            notes=tuple(n.get(lang) for n in (self.notes if notes is None else notes)),
            units=units, optional=self.optional)


COMMANDER = Reference(
    "commander", Words("The commander", "Главнокомандующий"),
    paragraphs=(
        Words("His unit gets +1 to every die it rolls (1d6+1, 2d6+2 and so on); so does any "
              "unit within 12\" of him.",
              "Отряд главнокомандующего получает бонус +1 к каждому брошенному кубику (1d6+1, "
              "2d6+2 и так далее). Любой отряд в пределах 12’’ от главнокомандующего также "
              "получит бонус 1 к каждому бросаемому кубику."),
        Words("He shares the fate of his own unit if it fails any test, and is always killed "
              "last, in melee or by missiles. He re-forms any unit he joins (if he leaves within "
              "three turns, it returns to its former state).",
              "Главнокомандующий разделяет судьбу своего личного отряда, если тот провалит "
              "какую-либо проверку. Главнокомандующий в отряде всегда убивается в последнюю "
              "очередь. Он автоматически перестраивает любой отряд, к которому присоединяется, "
              "но, если он покинет отряд, прежде чем пройдёт три хода, отряд вернётся к своему "
              "прежнему состоянию."),
        Words("If he is killed or captured, every unit of the army tests morale as for "
              "excessive casualties, at −2.",
              "Если командующий армией будет убит или захвачен, все отряды его армии должны "
              "сделать проверку морали как при Чрезмерных Потерях со штрафом -2 к результату "
              "броска."),
        Words("Mercenaries gain nothing from the commander.",
              "Наёмники не получают эффектов от влияния главнокомандующего."),
    ))

KNIGHTS = Reference(
    "knights", Words("Knights", "Рыцари"),
    paragraphs=(
        Words("Whenever knights see an enemy within charge reach they charge, whatever their "
              "orders, unless a 6 is rolled on the discipline die. Whatever that die shows, "
              "when they see friends advancing on or attacking the enemy they charge too (or "
              "advance, if they cannot charge).",
              "Всякий раз, когда Рыцари видят противника на подходящей дистанции для атаки, "
              "они будут атаковать независимо от любых приказов, если только на «кубике "
              "дисциплины» не выброшена 6. Независимо от результата такого броска, если Рыцари "
              "видят, как союзные войска движутся к врагу или атакуют его, они так же будут "
              "атаковать или двигаться к врагу, если не могут атаковать."),
        Words("With more than one kind of enemy within charge reach they pick the target by "
              "priority:",
              "Если в поле зрения на дистанции атаки находится более одного типа вражеских "
              "отрядов, Рыцари выбирают цель согласно следующим приоритетам:"),
    ),
    header=(Words("Priority", "Приоритет"), Words("Target", "Цель")),
    rows=tuple((same(str(n)), target) for n, target in enumerate((
        Words("Other knights", "Другие Рыцари"),
        Words("Any other horse", "Любые другие всадники"),
        Words("Baggage, or missile troops shooting at them",
              "Багаж или стрелковые войска, которые обстреливают их"),
        Words("Armored foot", "Бронированная Пехота"),
        Words("Missile troops", "Стрелковые Отряды"),
        Words("Artillery or siege engines", "Артиллерия или осадное снаряжение"),
        Words("Heavy foot", "Тяжёлая Пехота"),
        Words("Light foot, peasants or militia", "Лёгкая Пехота, Крестьяне или Ополчение"),
        Words("Pikemen", "Пикинёры"),
    ), start=1)))

RELIGIOUS_ORDER = Reference(
    "religious_order", Words("Religious knightly orders", "Религиозные рыцарские ордена"),
    paragraphs=(Words(
        "They never surrender: when a morale roll calls for it they fight on as usual. They get "
        "+1 on all morale rolls for their elite training.",
        "Войска этого типа никогда не сдаются, и, когда бросок Морали потребует этого, они "
        "продолжат сражение в обычном режиме. Они получают +1 на все броски Морали из-за их "
        "элитной подготовки."),))

FLEMISH = Reference(
    "flemish", Words("Flemish militia", "Фламандцы"),
    paragraphs=(Words(
        "The Flemish add 1 to the total of the dice when testing morale.",
        "Фламандцы добавляют 1 к суммарному результату броска кубиков при проверке морали."),))

LONGBOW_STAKES = Reference(
    "longbow_stakes", Words("Longbowmen's stakes", "Английские Лучники: колья"),
    paragraphs=(Words(
        "Longbowmen who stand still for two turns have set their stakes. Any horse charging "
        "them from the front rolls a die for each figure of its front rank: 4–6 means the "
        "horse is impaled and the rider killed.",
        "Считается, что Английские Лучники с длинными луками, которые стоят на месте два хода, "
        "устанавливают свои колья. Любая кавалерия, нападающая на них с фронта, должна бросить "
        "кубик за каждую фигуру в своём первом ряду. 4-6 означает, что лошадь пронзена "
        "насквозь, а всадник убит."),))

MERCENARIES = Reference(
    "table16_mercenaries", Words("Table 16: Mercenary discipline",
                                 "Таблица 16: Дисциплина Наёмников"),
    paragraphs=(Words(
        "Before every turn roll a die for each mercenary unit: 1 — they stand idle all turn "
        "(defending themselves if attacked); 2–5 — they obey orders; 6 — roll a second die on "
        "the table.",
        "Перед каждым ходом нужно бросать кубик, чтобы узнать, что такой отряд будет делать. "
        "Если на кубике выпала 1, они просто бездействуют весь Ход (за исключением самозащиты "
        "в случае вражеской атаки). Если выпало 2-5, они будут подчиняться приказам. Если "
        "выпала 6, должен броситься второй кубик по таблице ниже."),),
    header=(Words("Second die (1d6)", "Бросок Кубика (1d6)"), Words("Effect", "Эффект")),
    rows=(
        (same("1"), Words("Pay us more! They stand idle.",
                          "Плати больше! Стоят на месте и бездействуют.")),
        (same("2"), Words("They march off home (\"we have business at home\").",
                          "Марш отступления («Дома нас ждут дела» говорят они)")),
        (same("3"), Words("Bribed: once within one march of the enemy line they turn and may "
                          "attack you.",
                          "Подкуп на расстоянии одного Марша (Как только они достигнут вражеской "
                          "линии, они повернутся и могут атаковать Вас)")),
        (same("4–6"), Words("They obey without question for the next 3 turns.",
                            "Беспрекословное выполнение приказов в течении следующих 3 Ходов")),
    ),
    notes=(Words("No roll is needed while the unit is in melee, until the fight ends.",
                 "Если отряд вступил в Рукопашный Бой, нет необходимости делать эту проверку до "
                 "конца схватки."),))

PEASANTS = Reference(
    "table17_peasants", Words("Table 17: Peasant discipline", "Таблица 17: Дисциплина Крестьян"),
    paragraphs=(Words(
        "Before a peasant unit does anything it rolls 2d6 to obey: moving needs 7 or more; to "
        "attack or defend against an enemy unit it needs the score below. Peasants fight as "
        "light foot.",
        "Прежде чем отряд крестьян что-либо предпримет, он должен бросить два кубика (2d6) для "
        "выполнения приказа. Для Движения нужен результат 7 или больше. Для атаки вражеских "
        "отрядов и защиты от них смотрите значения в таблице ниже. В ближнем бою они будут "
        "сражаться как Лёгкая Пехота."),),
    header=(Words("Enemy unit", "Вражеский Отряд"), Words("Attack", "Атака"),
            Words("Defence", "Защита")),
    rows=(
        (Words("Peasants", "Крестьяне"), same("4"), same("5")),
        (Words("Light foot, militia", "Лёгкая Пехота, Ополчение"), same("6"), same("6")),
        (Words("Heavy foot", "Тяжёлая Пехота"), same("8"), same("7")),
        (Words("Armored foot, pikemen", "Бронированная Пехота, Пикинёры"), same("9"), same("8")),
        (Words("Light horse", "Лёгкая Конница"), same("10"), same("9")),
        (Words("Medium horse", "Средняя Конница"), same("11"), same("10")),
        (Words("Heavy horse", "Тяжёлая Конница"), same("12"), same("11")),
    ),
    notes=(Words("Failed attack: they stand where they are. Failed defence: they cannot strike "
                 "back and count as routed after a lost melee.",
                 "Крестьяне, которые провалили попытку атаки, должны остаться стоять на месте. "
                 "Если они провалили попытку защиты, они не могут контратаковать противника и "
                 "считаются как подавшиеся в Бегство из-за неудачного Рукопашного Боя."),))

_SPLIT_MOVE = Words("split move and fire", "Раздельного Движения со Стрельбой")

NATION_NOTES: dict[str, Reference] = {
    "magyars": Reference("nation_magyars", Words("Magyars", "Мадьяры"), paragraphs=(Words(
        f"Magyar horse are very mobile: light horse with bows may make the {_SPLIT_MOVE.en} "
        "manoeuvre.",
        "Кавалерия Мадьяр очень подвижна. Около четверти Лёгкой Конницы имеют луки и могут "
        f"выполнять манёвр {_SPLIT_MOVE.ru}."),)),
    "mongols": Reference("nation_mongols", Words("Mongols", "Монголы"), paragraphs=(Words(
        "Forced to fall back, Mongols need not re-form: they move normally next turn. If they "
        "are routed, the usual rules apply.",
        "Если Монголы вынуждены Отступать, им не нужно перестраиваться, чтобы нормально "
        "продолжить движение в следующем ходу, но, если они вынуждены пуститься в Бегство, они "
        "должны действовать согласно обычным правилам."),)),
    "tatars": Reference("nation_tatars", Words("Tatars", "Татары"), paragraphs=(
        Words("Tatars are played as Mongols: forced to fall back, they need not re-form and "
              "move normally next turn. If they are routed, the usual rules apply.",
              "Татарские войска используют так, как если бы они состояли из Монголов: если они "
              "вынуждены Отступать, им не нужно перестраиваться, чтобы нормально продолжить "
              "движение в следующем ходу, но, если они вынуждены пуститься в Бегство, они "
              "должны действовать согласно обычным правилам."),
        Words("After Timur (Tamerlane) Tatar troops are unlikely to be as disciplined as "
              "Mongols.",
              "После Тимура (Он же Тамерлан) вероятность того, что Татарские войска будут "
              "столь же дисциплинированы, как Монголы, довольно мала."),
    )),
    "poles": Reference("nation_poles", Words("Poles", "Поляки"), paragraphs=(Words(
        "Treat all Polish troops as elite: rate their morale one table value higher.",
        "Относитесь ко всем Польским войскам как к элитным или рассчитывайте их мораль на одно "
        "табличное значение выше."),)),
    "saracens": Reference("nation_saracens", Words("Saracens", "Сарацины"), paragraphs=(
        Words("Saracen medium horse are their elite.",
              "Сарацинская Конница преимущественно Лёгкая, но их Элита - Средняя."),
        Words("All Saracen foot are light, and a high percentage of them carry short bows "
              "(range 15\").",
              "Вся Сарацинская Пехота - Лёгкая, и высокий процент от неё вооружён короткими "
              "луками (радиус 15 дюймов)."),
        Words("They take no prisoners when fighting units of the religious knightly orders "
              "(Templars, Hospitallers).",
              "Они не берут пленных в сражении с отрядами \"религиозных\" рыцарских орденов "
              "(Например, с Тамплиерами и Госпитальерами.)"),
    )),
    "scots": Reference("nation_scots", Words("Scots: the schiltron", "Шотландцы: шилтрон"),
                       paragraphs=(
        Words("Scottish foot carry long spears (almost pikes) and may form schiltrons, large "
              "round formations that fight as Swiss or Landsknecht pike formations, except that "
              "a schiltron cannot move. Forming one takes as long as forming a column.",
              "Шотландская Пехота вооружена исключительно длинными копьями (почти пиками) и она "
              "может образовывать большие круговые формации, шилтроны, которые в большинстве "
              "случаев рассматриваются как формации пикинёров-Швейцарцев или "
              "пикинёров-Ландскнехтов. Основное отличие Шотландской формации в том, что она не "
              "может передвигаться. Формирование шилтрона требует столько же времени, сколько "
              "и колонна."),
        Words("Horse with lances attack a schiltron at even odds: attacker and defender each "
              "roll one die, killing by 6s.",
              "Конница, вооружённая кавалерийскими копьями, атакует противника с одинаковыми "
              "шансами на успех. То есть атакующий и защитник бросают по одному кубику, убивая "
              "по 6 человек."),
    )),
    "spanish": Reference("nation_spanish", Words("Spanish", "Испанцы"), paragraphs=(Words(
        f"Spanish light horse with javelins may make the {_SPLIT_MOVE.en} manoeuvre.",
        "Лёгкая Конница, вооружённая метательными дротиками, способна на манёвр "
        f"{_SPLIT_MOVE.ru}."),)),
}

# Table 18's footnotes, each tied to the nation and the category it is printed for.
FAR_EAST_FOOTNOTES: tuple[tuple[str, str, Words], ...] = (
    ("china", "crossbowmen", Words(
        "* Chu-ko-nu: a very light repeating crossbow. It shoots as a bow, range 12\", −1 to "
        "hit (or −1 on casualties). Despite poisoned bolts its penetration is low.",
        "* Очень лёгкий, многозарядный арбалет Чо-ко-ну. Стреляет как лук, Дальнобойность "
        "12’’, вероятность попадания -1 (или -1 к расчёту ущерба). Несмотря на отравленные "
        "болты, их проникающая способность довольно низкая.")),
    ("japan", "longbowmen", Words(
        "** The samurai's very long bamboo bow may be shot from the saddle, but only while "
        "standing still.",
        "** Самурай вооружён очень длинным бамбуковым луком, которым можно атаковать с седла "
        "лошади, но только если он стоит на месте.")),
    ("japan", "medium_horse", Words(
        "*** Japanese medium horse attack as light horse, defend as heavy horse and have the "
        "discipline of knights.",
        "*** Атаки рассчитываются как для Лёгкой Конницы, Защита как у Тяжёлой Конницы, а "
        "дисциплина как у Рыцарей.")),
)
TABLE18 = Reference("table18_notes", Words("Table 18: notes", "Таблица 18: примечания"))

# Table 19: melee morale ratings; None where the table has a dash.
TABLE19_ROWS: tuple[tuple[str, Words], ...] = (
    ("infantry", Words("Infantry", "Пехота")),
    ("elite_infantry", Words("Elite infantry", "Элитная Пехота")),
    ("cavalry", Words("Cavalry", "Конница")),
    ("elite_cavalry", Words("Elite cavalry", "Элитная Конница")),
    ("samurai", Words("Samurai", "Самураи")),
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
    "table19_morale", Words("Table 19: melee morale rating", "Таблица 19: Рукопашный моральный "
                            "рейтинг ККЯ"),
    paragraphs=(Words("Each unit's rating is printed beside it.",
                      "Рейтинг каждого отряда указан рядом с ним."),))

BAGGAGE = Reference(
    "baggage", Words("Baggage", "Багаж"), optional=True, paragraphs=(
        Words("Each side has a baggage camp just behind its base line or entry point. Both "
              "sides secretly mark on the map a 6\" zone holding the camp.",
              "Предположим, что у каждой стороны конфликта есть лагерь для багажа "
              "непосредственно за их линией базы или за точкой входа на игровой стол. Обе "
              "стороны тайно указывают на карте 6-дюймовую зону, в которой находится лагерь с "
              "багажом."),
        Words("When an enemy unit comes within one normal move of that zone, its owner must "
              "say that it sees the baggage. Next turn the unit leaves the table to loot the "
              "camp, unless the owners stop it (attack it or block its way).",
              "Когда вражеский отряд оказывается вблизи этой зоны на расстоянии одного "
              "обычного для этой местности Движения, игрок обязан сообщить своему противнику, "
              "что отряд видит Багаж. В следующий ход данный отряд убирается с игрового стола, "
              "чтобы ограбить лагерь, однако, хозяева Багажа могут попытаться остановить его "
              "(атаковать или заблокировать путь)."),
        Words("When an enemy unit takes the baggage, every friendly unit within a normal move "
              "of the camp also leaves the table to defend it. These units stay out of the game "
              "to the end, unless the fight is played out separately; then survivors may "
              "return.",
              "Когда вражеский отряд захватывает багаж, все дружественные отряды в пределах "
              "обычного движения до лагеря, так же убираются с игрового поля, чтобы защитить "
              "лагерь от грабежа. Такие отряды (дружественные и вражеские) остаются вне игры до "
              "самого конца, если только с ними не обыгрывается отдельное действие. В последнем "
              "случае выжившие могут вернуться обратно на поле боя."),
    ))

_NO_CHANGE = Words("no change", "Нет изменений")
_DRIZZLE = Words("drizzle", "Изморось")
_TO_CLOUDY = Words("turns cloudy", "Становится Облачно")
_DOWNPOUR = Words("downpour", "Ливень")
WEATHER = Reference(
    "weather", Words("Table 20: Weather", "Таблица 20: Погода"), optional=True,
    paragraphs=(Words("If the weather is not set, roll a die for it. Check for a change every "
                      "even turn: roll a die in the current weather's column.",
                      "Если тип погоды ещё не установлен, бросьте кубик, чтобы определить погоду "
                      "или её свойства; Проверка изменений погоды происходит каждый чётный ход."),
                ),
    header=(Words("Roll (1d6)", "Результат броска (1d6)"), Words("Clear (1–3)", "Ясно (1-3)"),
            Words("Cloudy (4–5)", "Облачно (4-5)"), Words("Rain (6)", "Дождливо (6)")),
    rows=(
        (same("1"), Words("heat wave*", "Аномальная жара*"), _NO_CHANGE, _DRIZZLE),
        (same("2"), _NO_CHANGE, _NO_CHANGE, _DRIZZLE),
        (same("3"), _NO_CHANGE, Words("turns clear", "Становится Ясно"), _TO_CLOUDY),
        (same("4"), _NO_CHANGE, _NO_CHANGE, _TO_CLOUDY),
        (same("5"), _NO_CHANGE, _NO_CHANGE, _DOWNPOUR),
        (same("6"), _TO_CLOUDY, Words("rain begins", "Начинается Дождь"),
         Words("downpour**", "Ливень**")),
    ),
    notes=(
        Words("* Fatigue doubled; grass or forest fires likely in a drought (summer only).",
              "* Усталость удваивается, большая вероятность начала пожара в сухой траве или в "
              "лесу при засухе. (Актуально только в летний сезон.)"),
        Words("** Three turns of unbroken downpour make mud: movement halved.",
              "** Три хода нескончаемого ливня образуют грязь, уменьшая скорость движения в два "
              "раза."),
        Words("The weather moves to the column the result names.",
              "Погода перемещается в столбец, обозначенный указателем."),
    ))

OPTIONAL: dict[str, Reference] = {ref.id: ref for ref in (BAGGAGE, WEATHER)}
FLAG_SECTIONS: tuple[tuple[str, Reference], ...] = (
    ("commander", COMMANDER), ("knights", KNIGHTS), ("religious_order", RELIGIOUS_ORDER),
    ("flemish", FLEMISH), ("stakes", LONGBOW_STAKES),
)


class UnknownSection(ValueError):
    """An optional section id the sheet does not offer."""


# --- building the sheet ------------------------------------------------------------------------


def unit_name(index: int, unit: Unit, lang: Lang) -> str:
    return unit.name or pick(lang, f"Unit {index + 1}", f"Отряд {index + 1}")


def table19_rating(nation: str, unit: Unit, lang: Lang) -> Rating | None:
    """The unit's Table 19 rating: infantry or cavalry, elite where the table has an elite
    rating, 9 for samurai (flagged, or Japanese armored foot, which Table 18 calls samurai).

    A unit mixing foot and horse, or with no figures, has no one rating: it gets none.
    """
    column = TABLE19.get(nation)
    classes = {TROOPS[line.troop].troop_class for line in unit.lines}
    if column is None or len(classes) != 1:
        return None
    samurai = "samurai" in unit.flags or (
        {line.troop for line in unit.lines} == {"armored_foot"})
    if samurai and column["samurai"] is not None:
        row = "samurai"
    else:
        row = "infantry" if classes == {"foot"} else "cavalry"
        if "elite" in unit.flags and column[f"elite_{row}"] is not None:
            row = f"elite_{row}"
    value = column[row]
    assert value is not None  # the infantry and cavalry rows are filled for every nation
    label = dict(TABLE19_ROWS)[row].get(lang)
    return Rating(label, value)


def _sheet_unit(index: int, unit: Unit, nation: str, priced: PricedRoster,
                lang: Lang) -> SheetUnit:
    priced_unit = priced.units[index]
    lines = tuple(
        SheetLine(ln.figures, ln.troop, TROOPS[ln.troop].name(lang), ln.weapon,
                  "" if ln.weapon == "none" else WEAPONS[ln.weapon].name(lang),
                  points_text(ln.cost_per_figure, lang), points_text(ln.cost, lang))
        for ln in priced_unit.lines)
    return SheetUnit(
        number=index + 1, name=unit_name(index, unit, lang), lines=lines,
        figures=priced_unit.figures, cost=points_text(priced_unit.cost, lang),
        mercenary=unit.mercenary, flags=tuple(unit.flags),
        flag_names=tuple(FLAGS[f].name(lang) for f in unit.flags), note=unit.note,
        rating=table19_rating(nation, unit, lang))


def thresholds(figures: int) -> Thresholds:
    lost = math.ceil(figures / 3)
    return Thresholds(figures, lost, figures - lost)


def reference_sections(roster: ChainmailRoster, lang: Lang,
                       optional: Iterable[str] = ()) -> list[Section]:
    """Only the reference the roster uses, in the order a player looks things up."""
    names = [unit_name(i, u, lang) for i, u in enumerate(roster.units)]
    sections: list[Section] = []
    for flag, ref in FLAG_SECTIONS:
        with_flag = tuple(n for n, u in zip(names, roster.units, strict=True) if flag in u.flags)
        if with_flag:
            sections.append(ref.in_lang(lang, with_flag))

    mercenaries = tuple(n for n, u in zip(names, roster.units, strict=True) if u.mercenary)
    mercenaries += tuple(ENGINES[e.kind].name(lang) for e in roster.engines if e.mercenary)
    if mercenaries:
        sections.append(MERCENARIES.in_lang(lang, mercenaries))
    peasants = tuple(n for n, u in zip(names, roster.units, strict=True)
                     if any(line.troop == "peasant" for line in u.lines))
    if peasants:
        sections.append(PEASANTS.in_lang(lang, peasants))

    if roster.nation in NATION_NOTES:
        sections.append(NATION_NOTES[roster.nation].in_lang(lang))
    counts = tally(roster)
    footnotes = tuple(text for nation, category, text in FAR_EAST_FOOTNOTES
                      if nation == roster.nation and CATEGORIES[category].count(counts))
    if footnotes:
        sections.append(TABLE18.in_lang(lang, notes=footnotes))
    if roster.nation in TABLE19 and roster.units:
        column = TABLE19[roster.nation]
        rows = tuple((label, same(str(column[row]))) for row, label in TABLE19_ROWS
                     if column[row] is not None)
        sections.append(TABLE19_REF.in_lang(lang, rows=rows))

    wanted = set(optional)
    unknown = wanted - set(OPTIONAL)
    if unknown:
        raise UnknownSection(
            f"unknown section {', '.join(sorted(unknown))}; known: {', '.join(OPTIONAL)}")
    sections += [ref.in_lang(lang) for ref_id, ref in OPTIONAL.items() if ref_id in wanted]
    return sections


def army_sheet(roster: ChainmailRoster, lang: Lang = "en", priced: PricedRoster | None = None,
               issues: list[Issue] | None = None, optional: Iterable[str] = ()) -> ArmySheet:
    """Everything the printed army sheet shows, in one language.

    `priced` and `issues` may be passed when the caller already has them (they must be those
    of this roster); `optional` names the sections the player ticked (`baggage`, `weather`).
    """
    priced = priced or price(roster)
    if issues is None:
        issues = validate(roster, lang, priced)
    remaining = priced.remaining
    return ArmySheet(
        lang=lang,
        name=roster.name,
        ruleset_name=pick(lang, NAME_EN, NAME_RU),
        nation=roster.nation,
        nation_name=NATIONS[roster.nation].name(lang),
        historical=roster.historical,
        fortifications=roster.fortifications,
        note=roster.note,
        total=points_text(priced.total, lang),
        points_limit=priced.points_limit,
        remaining=None if remaining is None else points_text(remaining, lang),
        over_limit=remaining is not None and remaining < 0,
        figures=priced.figures,
        foot=priced.foot,
        horse=priced.horse,
        engine_count=sum(e.count for e in roster.engines),
        units=tuple(_sheet_unit(i, u, roster.nation, priced, lang)
                    for i, u in enumerate(roster.units)),
        engines=tuple(SheetEngine(e.kind, ENGINES[e.kind].name(lang), e.count, e.mercenary,
                                  points_text(e.cost, lang)) for e in priced.engines),
        thresholds=thresholds(priced.figures),
        valid=not any(i.severity is Severity.error for i in issues),
        legality=legality_text((i.severity for i in issues), lang,
                               empty=any(i.code == "army.empty" for i in issues)),
        issues=tuple(i.message for i in issues if i.severity is not Severity.info),
        sections=tuple(reference_sections(roster, lang, optional)),
        optional_offered=tuple((ref.id, ref.title.get(lang)) for ref in OPTIONAL.values()),
    )
