"""The siege equipment rules the calculator shows beside its numbers: movement by pushers, and
the seed's paragraphs on towers, mantlets, ladders, boiling oil, stones, mines and breaches, in
the seed's Russian and in English."""

from __future__ import annotations

from dataclasses import dataclass

TOWER_INCHES_PER_PAIR, TOWER_MOST = 1, 4  # "1'' … на каждую пару … максимальной скоростью 4’’"
MANTLET_INCHES_PER_MAN, MANTLET_MOST = 3, 6  # "3’’ … на каждого толкающего … в 6’’"


def tower_speed(pushers: int) -> int:
    """Inches a turn for a siege tower or covered ram: 1 per pair of pushers, at most 4."""
    return min(TOWER_MOST, TOWER_INCHES_PER_PAIR * (pushers // 2))


def mantlet_speed(pushers: int) -> int:
    """Inches a turn for a mobile mantlet: 3 per pusher, at most 6 (two pushers)."""
    return min(MANTLET_MOST, MANTLET_INCHES_PER_MAN * pushers)


def movement_rows() -> list[dict[str, int]]:
    return [{"pushers": n, "tower": tower_speed(n), "mantlet": mantlet_speed(n)}
            for n in range(1, 9)]


@dataclass(frozen=True)
class Paragraph:
    id: str
    title_en: str
    title_ru: str
    text_en: str
    text_ru: str


REFERENCE: tuple[Paragraph, ...] = (
    Paragraph(
        "towers", "Siege towers, covered rams and the like", "Осадные башни, Крытые тараны и т.д.",
        "Each moves 1″ a turn for every pair of men pushing it, at most 4″ a turn with eight "
        "pushing. It cannot cross ditches and ravines unless they were filled first. A tower "
        "holds 5 fighting figures on its drawbridge and 3 on its top deck; up to 5 figures a turn "
        "may climb its ladder from the ground to the upper decks. Covered engines with rams, "
        "bores or hammers deal 2 points a turn; the defender may disable them (with ram-catchers, "
        "say) in any turn they work on 9 or more on two dice.",
        "Каждый вид этого осадного оборудование перемещается на 1'' за Ход на каждую пару "
        "толкающих его людей, с максимальной скоростью 4’’ за Ход, когда толкают восемь человек. "
        "Это оборудование не может передвигаться через рвы и овраги, если они не были "
        "предварительно засыпаны. Осадные башни вмещают 5 боевых фигур на подъёмном мосту и 3 на "
        "верхней палубе. До 5 фигур за ход может подниматься по лестнице с поверхности земли на "
        "верхние палубы. Крытые военные машины с таранами, винтами или молотами будут наносить "
        "цели по 2 очка урона каждый Ход. Защитник может деактивировать их (например, с помощью "
        "захватчиков тарана) в любой Ход их работы, если на броске двух кубиков выпадет 9 или "
        "больше."),
    Paragraph(
        "mantlets", "Mobile mantlets", "Передвижные Мантелеты",
        "A mantlet moves 3″ a turn for each man pushing it, at most 6″ (two pushers). Each gives "
        "full cover to three foot. One shooting figure may shoot through its slit and keep full "
        "cover; others shooting from under the same mantlet have only soft cover.",
        "Мантелеты можно перемещать на 3’’ дюйма за Ход на каждого толкающего человека, с "
        "максимальной скоростью в 6’’ (двое толкающих). Каждый Передвижной Мантелет обеспечивает "
        "полное укрытие для трёх пехотинцев. Одна стрелковая фигура может выстрелить через щель "
        "Мантелета, сохраняя эффект полного укрытия; Остальные стрелки, стреляющие из-под того "
        "же мантелета, получат только бонусы «мягкого» укрытия."),
    Paragraph(
        "ladders", "Ladders", "Лестницы",
        "One man carrying a ladder moves at half speed; two carry it with a penalty; no charge "
        "is possible. Ladders are indestructible. Three men climb from the ground to the top in "
        "one turn, and each must then fight the defenders on the wall man to man; with no "
        "defenders he may move along the wall, making room for the others. If the defenders win "
        "one melee against the climbers, a die is rolled: on 5–6 the ladder is pushed off — "
        "with three climbing, the second dies and the third is stunned for a turn.",
        "Один человек, несущий лестницу, движется с половиной нормальной скорости, а двое мужчин "
        "несут лестницу со штрафом. Однако, манёвр Штурма невозможен. Поскольку осаждающие "
        "всегда имели достаточный запас лестниц для осады, относитесь к ним как к "
        "неразрушимым. Три человека могут подняться с поверхности земли на вершину лестницы за "
        "один Ход. Каждый человек, поднимающийся по лестнице, в конце должен будет вступить в "
        "Рукопашный Бой с обороняющимися войсками на стене. Если защитников нет, вскарабкавшийся "
        "может передвигаться на стене, при условии, что он освободит место для других "
        "карабкающихся по лестнице людей. Все сражения ведутся по системе боя «Один на один». "
        "Если защитники выигрывают хоть одну рукопашную схватку с поднимающимися по лестнице "
        "атакующими, бросается кубик, чтобы определить, удалось ли защитникам оттолкнуть "
        "лестницу. Бросок на 5-6 означает, что лестницу удалось оттолкнуть, в результате чего "
        "(Если карабкается 3 человека) второй атакующий умирает, а третий оглушается на один "
        "Ход."),
    Paragraph(
        "oil", "Boiling oil", "Кипящее Масло",
        "Poured from the wall, burning oil kills every figure in a 2″ stream on its way down, "
        "then forms a 4″ × 3″ pool at the foot of the wall that kills every figure in it and "
        "burns for three turns, barring the way. A wooden structure it strikes catches fire at "
        "once (not ladders, nor rams with peaked roofs), must be left the next turn, burns 5 "
        "turns and is then removed as destroyed.",
        "Когда со стены выливают горящее масло, поток шириной в 2’’ убивают все фигуры на своём "
        "пути вниз, после чего у основания стены образуется лужа 4’’ x 3’’, так же убивая все "
        "фигуры в этой области. Она будет гореть в течение трёх Ходов, не давая войскам пройти "
        "через эту область. Любая деревянная конструкция, поражённая горящим маслом, мгновенно "
        "загорится (исключения: лестницы и бараны с пиковыми крышами) и должна быть покинута в "
        "следующем Ходу. После этого деревянная конструкция будет гореть 5 Ходов, а в конце "
        "полностью удалится из игры как разрушенная."),
    Paragraph(
        "stones", "Stones", "Камни",
        "A stone dropped on a ladder kills the first climber; the second survives on 1–3 and the "
        "third on 1–5. On siege engines and war machines a stone deals 1 point. Men on a castle "
        "wall have at best soft cover against arrows shot from outside.",
        "Камень, упавший на лестницу, убьёт первого карабкающегося по ней, а второй и третий "
        "должны бросить кубик, чтобы узнать, выживут ли они. 1-3 означает выживание второго и 1-5 "
        "выживание третьего. При падении на осадные орудия и боевые машины камни наносят 1 очко "
        "урона. Примечание: Люди на стене замка, в лучшем случае могут претендовать на бонусы "
        "«Мягкого» укрытия при защите от стрел, выпущенных снаружи."),
    Paragraph(
        "mines", "Mines and countermines", "Мины и Разминирование",
        "Played on paper only, with a third party as judge. The attacker marks some troops as "
        "sappers; the defender knows where they are but not whether they mine or only decoy. "
        "Write down the turn of each action. The attacker makes 2–3 mining attempts a turn, the "
        "defender 1–2 countermining. Countersappers close to the miners (6″–12″, say) make the "
        "mine fail and kill all the miners. A successful mine opens a 6″ breach in the wall.",
        "Эти действия можно проводить только на бумаге. Третья сторона необходима, чтобы судить "
        "успешность минирования стен или, наоборот, их разминирования. Атакующий игрок должен "
        "обозначить часть своих войск как «сапёров» или минёров. Хотя защитник всегда будет "
        "знать, где находятся сапёры, он не будет знать, действительно ли они минируют это место "
        "или просто служат приманкой, для отвлечения от реальных попыток минирования в другом "
        "месте. На бумаге необходимо указывать на каком ходу были произведены эти действия. "
        "Разрешите атакующему делать по 2-3 попытки минирования за Ход, а защитнику - только 1-2 "
        "попытки разминирования. Если контр-сапёры находятся совсем рядом с минёрами (скажем, на "
        "расстоянии 6 \"- 12\"), попытка минирования проваливается, и все минёры будут убиты. "
        "Если минирование было успешно, в стене на месте взрыва образуется 6’’ брешь."),
    Paragraph(
        "breach", "Breaches", "Брешь",
        "Wherever artillery, war machines or mines bring the walls down there is a breach, "
        "crossed as rough ground. The defender may block it with an abatis in 3 turns if nobody "
        "attacks him; it counts as a mobile mantlet for cover, and is rebuilt as easily. The "
        "attackers destroy it in three unbroken turns; attacked or killed before that, they have "
        "done it no harm.",
        "Везде, где стены замка разрушены артиллерией, боевыми машинами или минами, образуется "
        "брешь. Войска могут перемещаться через неё по правилам пересечённой местности. Защитник "
        "может заблокировать пробоину с помощью засеки в течение 3 Ходов, при условии, что на "
        "него никто не нападает. Засека будет действовать как Передвижной Мантелет, когда речь "
        "идёт об укрытии и защите. Разрушенные засеки могут быть восстановлены так же легко, как "
        "были построены. Атакующие могут разрушить её за три непрерывных хода, но, если они "
        "атакованы или убиты до уничтожения засеки, считается, что они не нанесли ей никакого "
        "вреда."),
)
