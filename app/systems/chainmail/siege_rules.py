"""The siege equipment rules the calculator shows beside its numbers: movement by pushers, and
the seed's paragraphs on towers, mantlets, ladders, boiling oil, stones, mines and breaches (their
Russian, the seed's, in the message catalogue)."""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.translations import N_

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
    """A paragraph of the seed's siege rules; its title and its text are msgids (the Russian,
    the seed's own words, is in the catalogue)."""

    id: str
    title: str
    text: str


REFERENCE: tuple[Paragraph, ...] = (
    Paragraph(
        "towers", N_("Siege towers, covered rams and the like"),
        N_("Each moves 1″ a turn for every pair of men pushing it, at most 4″ a turn with eight "
           "pushing. It cannot cross ditches and ravines unless they were filled first. A tower "
           "holds 5 fighting figures on its drawbridge and 3 on its top deck; up to 5 figures a "
           "turn may climb its ladder from the ground to the upper decks. Covered engines with "
           "rams, bores or hammers deal 2 points a turn; the defender may disable them (with "
           "ram-catchers, say) in any turn they work on 9 or more on two dice."),
    ),
    Paragraph(
        "mantlets", N_("Mobile mantlets"),
        N_("A mantlet moves 3″ a turn for each man pushing it, at most 6″ (two pushers). Each "
           "gives full cover to three foot. One shooting figure may shoot through its slit and "
           "keep full cover; others shooting from under the same mantlet have only soft cover."),
    ),
    Paragraph(
        "ladders", N_("Ladders"),
        N_("One man carrying a ladder moves at half speed; two carry it with a penalty; no "
           "charge is possible. Ladders are indestructible. Three men climb from the ground to "
           "the top in one turn, and each must then fight the defenders on the wall man to man; "
           "with no defenders he may move along the wall, making room for the others. If the "
           "defenders win one melee against the climbers, a die is rolled: on 5–6 the ladder is "
           "pushed off — with three climbing, the second dies and the third is stunned for a "
           "turn."),
    ),
    Paragraph(
        "oil", N_("Boiling oil"),
        N_("Poured from the wall, burning oil kills every figure in a 2″ stream on its way down, "
           "then forms a 4″ × 3″ pool at the foot of the wall that kills every figure in it and "
           "burns for three turns, barring the way. A wooden structure it strikes catches fire "
           "at once (not ladders, nor rams with peaked roofs), must be left the next turn, burns "
           "5 turns and is then removed as destroyed."),
    ),
    Paragraph(
        "stones", N_("Stones"),
        N_("A stone dropped on a ladder kills the first climber; the second survives on 1–3 and "
           "the third on 1–5. On siege engines and war machines a stone deals 1 point. Men on a "
           "castle wall have at best soft cover against arrows shot from outside."),
    ),
    Paragraph(
        "mines", N_("Mines and countermines"),
        N_("Played on paper only, with a third party as judge. The attacker marks some troops as "
           "sappers; the defender knows where they are but not whether they mine or only decoy. "
           "Write down the turn of each action. The attacker makes 2–3 mining attempts a turn, "
           "the defender 1–2 countermining. Countersappers close to the miners (6″–12″, say) "
           "make the mine fail and kill all the miners. A successful mine opens a 6″ breach in "
           "the wall."),
    ),
    Paragraph(
        "breach", N_("Breaches"),
        N_("Wherever artillery, war machines or mines bring the walls down there is a breach, "
           "crossed as rough ground. The defender may block it with an abatis in 3 turns if "
           "nobody attacks him; it counts as a mobile mantlet for cover, and is rebuilt as "
           "easily. The attackers destroy it in three unbroken turns; attacked or killed before "
           "that, they have done it no harm."),
    ),
)
