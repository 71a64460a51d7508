"""The melee calculator (§4): one exchange between two units, computed exactly.

For each side: the distribution and expectation of hits scored, of enemy hits blocked, and of
warriors lost — every die enumerated through convolutions of exact distributions, no sampling.

How the builder reads the rules where the text leaves room (the calculator page repeats this):

1. Only the front rank strikes, one die per warrior. The front rank is the first `files`
   warriors in line order (the first line stands in front). Warriors who have lost formation are
   not entered in the unit, so they do not strike; warriors lost to a fast strike within the
   exchange do not strike back.
2. Hit chances: shock troops hit on a roll below their own density, melee specialists and
   shooters (interpretation 3) above their own, shock cavalry above the enemy's density.
3. Pikes add 2 hits and spears 1 for every full rank behind the first; a rank counts when it
   is full and made up wholly of pikemen (2) or of pikemen and spearmen (1).
4. The defender blocks each strike: shield wall first (one die; a roll below its density
   blocks that many hits), then armour (one die; a roll below the number of hits blocks that
   many) unless the hit is armour-piercing. A shield wall, armour and cavalry armour count when
   every warrior of the unit has them. Shields are spent on armour-piercing hits first.
5. A unit is cavalry when every warrior in it is mounted. Against cavalry, foot strike riders
   and horses half and half; when the number is odd the larger half strikes the HORSES, as the
   source text says ("половина (в случае округления, большая часть) – по лошадям"; the rules
   page words it the other way round, which we take to be a slip). Foot warriors are assigned
   alternately, horses first, in front-rank order, so each line splits as evenly as the total;
   the pike and spear bonus splits the same way. Riders are protected by the shield wall and
   armour, horses by cavalry armour; a hit on either takes the warrior. Mounted strikers hit
   only riders.
6. The horse strike: mounted front-rank warriors who moved straight roll one more die each, with
   their class's chance, at infantry only; it is not armour-piercing and not a sword hit.
7. Fast weapons (axe, heavy throwing weapon) strike first; the enemy answers with survivors,
   whose front rank and full ranks are thinned as `formation` describes. If both sides have fast
   weapons their fast strikes are simultaneous. An axe strikes only in that first strike; a
   heavy throwing weapon strikes again, simultaneously with the enemy.
8. Swords: each sword hit may instead parry one enemy hit. The main figures count every sword
   hit as a hit; "as parries" shows the same exchange with every sword hit of that side kept as a
   parry against enemy hits that got past shields and armour in the simultaneous strike (a
   fast strike lands before the swords are raised).
9. Losses never exceed the warriors a unit has.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from app.systems.formation_density.catalogue import CLASSES, DIE, WEAPONS
from app.systems.formation_density.defence import Outcome, Protection, withstand
from app.systems.formation_density.dice import Dist, difference_floor, mixture, successes, total
from app.systems.formation_density.formation import Ranks, Standing
from app.systems.formation_density.roster import Line, Unit

Target = Literal["unit", "riders", "horses"]
# Who gets the larger half of an odd number of foot striking cavalry (see reading 5).
LARGER_HALF: Target = "horses"
SMALLER_HALF: Target = "riders" if LARGER_HALF == "horses" else "horses"


def hit_faces(line: Line, own_density: int, enemy_density: int) -> int:
    """How many faces of a die hit for a warrior of this line (out of six)."""
    rule = CLASSES[line.line_class].hits
    if rule == "below_own":
        return own_density - 1
    if rule == "above_own":
        return DIE - own_density
    return DIE - enemy_density


def hit_chance(line: Line, own_density: int, enemy_density: int) -> Fraction:
    return Fraction(hit_faces(line, own_density, enemy_density), DIE)


@dataclass(frozen=True)
class Fighter:
    """A unit as the calculator sees it."""

    unit: Unit
    ranks: Ranks
    cavalry: bool
    shield_wall: bool
    armour: bool
    horse_armour: bool

    @staticmethod
    def of(unit: Unit) -> Fighter:
        lines = unit.lines
        return Fighter(unit, Ranks(lines, unit.files),
                       cavalry=all(ln.mounted for ln in lines),
                       shield_wall=all(ln.shield for ln in lines),
                       armour=all(ln.armour for ln in lines),
                       horse_armour=all(ln.cavalry_armour for ln in lines))

    @property
    def warriors(self) -> int:
        return self.ranks.warriors

    @property
    def density(self) -> int:
        return self.unit.density

    def protection(self, target: Target) -> Protection:
        shields = self.unit.density if self.shield_wall else 0
        if target == "horses":
            return Protection(0, self.horse_armour)
        return Protection(shields, self.armour)

    def targets(self) -> tuple[Target, ...]:
        return ("riders", "horses") if self.cavalry else ("unit",)

    def strikes_first(self) -> bool:
        front = self.ranks.front()
        return any(n and WEAPONS[ln.weapon].has("fast")
                   for ln, n in zip(self.unit.lines, front, strict=True))


@dataclass
class _Volley:
    """The dice and fixed hits of one strike, by target and kind of hit."""

    piercing: dict[Target, list[Dist]] = field(default_factory=dict)
    other: dict[Target, list[Dist]] = field(default_factory=dict)
    swords: dict[Target, list[Dist]] = field(default_factory=dict)

    def add(self, target: Target, hits: Dist, *, piercing: bool, sword: bool) -> None:
        kind = self.piercing if piercing else self.swords if sword else self.other
        kind.setdefault(target, []).append(hits)

    def all(self) -> list[Dist]:
        return [d for kind in (self.piercing, self.other, self.swords)
                for dists in kind.values() for d in dists]


def _split(count: int, before: int) -> dict[Target, int]:
    """Foot striking cavalry, alternately to the larger half's target first (reading 5)."""
    larger = (before + count + 1) // 2 - (before + 1) // 2
    return {LARGER_HALF: larger, SMALLER_HALF: count - larger}


def _volley(att: Fighter, standing: Standing, dfn: Fighter, first: bool) -> _Volley:
    volley = _Volley()
    foot_so_far = 0
    for line, count in zip(att.unit.lines, standing.front, strict=True):
        if not count:
            continue
        weapon = WEAPONS[line.weapon]
        faces = hit_faces(line, att.density, dfn.density)
        if first:
            strikes = weapon.has("fast")
        else:
            strikes = not weapon.has("fast") or weapon.has("first_volley")
        if strikes:
            piercing, sword = weapon.has("armour_piercing"), weapon.has("parry")
            if not dfn.cavalry:
                volley.add("unit", successes(count, faces), piercing=piercing, sword=sword)
            elif line.mounted:
                volley.add("riders", successes(count, faces), piercing=piercing, sword=sword)
            else:
                for target, dice in _split(count, foot_so_far).items():
                    volley.add(target, successes(dice, faces), piercing=piercing, sword=sword)
                foot_so_far += count
        if not first and line.mounted and line.moved_straight and not dfn.cavalry:
            volley.add("unit", successes(count, faces), piercing=False, sword=False)
    if not first and standing.extra_hits:
        if dfn.cavalry:
            for target, hits in _split(standing.extra_hits, 0).items():
                volley.add(target, Dist.point(hits), piercing=False, sword=False)
        else:
            volley.add("unit", Dist.point(standing.extra_hits), piercing=False, sword=False)
    return volley


@dataclass(frozen=True)
class Strike:
    """One side's strike at the other, from one standing."""

    hits: Dist
    swords: Dist | None
    lost: Dist  # the defender's, before capping at its warriors
    blocked: Dist
    shield: Fraction
    received_piercing: Fraction
    received: dict[Target, Fraction]
    lost_without_swords: Dist | None


def strike(att: Fighter, standing: Standing, dfn: Fighter, first: bool) -> Strike:
    volley = _volley(att, standing, dfn, first)
    hits = total(volley.all())
    has_swords = any(volley.swords.values())
    outcomes: list[Outcome] = []
    bare: list[Outcome] = []
    piercing_mean = Fraction(0)
    received: dict[Target, Fraction] = {}
    for target in dfn.targets():
        piercing = total(volley.piercing.get(target, []))
        other = total(volley.other.get(target, []))
        swords = volley.swords.get(target, [])
        piercing_mean += piercing.mean()
        received[target] = piercing.mean() + other.mean() + sum(
            (d.mean() for d in swords), Fraction(0))
        protection = dfn.protection(target)
        outcomes.append(withstand(piercing, total([other, *swords]), protection))
        if has_swords:
            bare.append(withstand(piercing, other, protection) if swords else outcomes[-1])
    return Strike(
        hits=hits,
        swords=total(d for dists in volley.swords.values() for d in dists) if has_swords
        else None,
        lost=total(o.lost for o in outcomes),
        blocked=total(o.blocked for o in outcomes),
        shield=sum((o.shield for o in outcomes), Fraction(0)),
        received_piercing=piercing_mean,
        received=received,
        lost_without_swords=total(o.lost for o in bare) if has_swords else None,
    )


@dataclass(frozen=True)
class Answer:
    """The simultaneous strike of one side, mixed over how many it lost to the fast strike."""

    hits: Dist
    lost: Dist
    blocked: Dist
    shield: Fraction
    received_piercing: Fraction
    received: dict[Target, Fraction]
    # For parries: per number of warriors lost first, its weight and the sword hits.
    swords: list[tuple[int, int, int, Dist]]
    lost_without_swords: Dist | None


def answer(att: Fighter, dfn: Fighter, first_losses: Dist) -> Answer:
    standings = att.ranks.standings(first_losses.high)
    seen: dict[Standing, Strike] = {}
    parts: list[tuple[int, int, int, Strike]] = []
    for lost, weight in first_losses.items():
        standing = standings[min(lost, len(standings) - 1)]
        if standing not in seen:
            seen[standing] = strike(att, standing, dfn, first=False)
        parts.append((lost, weight, first_losses.exp, seen[standing]))

    def mixed(part: Callable[[Strike], Dist]) -> Dist:
        return mixture((w, e, part(s)) for _, w, e, s in parts)

    probability = [Fraction(w, 6 ** e) for _, w, e, _ in parts]
    with_swords = any(s.swords is not None for *_, s in parts)
    return Answer(
        hits=mixed(lambda s: s.hits),
        lost=mixed(lambda s: s.lost),
        blocked=mixed(lambda s: s.blocked),
        shield=sum((p * s.shield for p, (*_, s) in zip(probability, parts, strict=True)),
                   Fraction(0)),
        received_piercing=sum((p * s.received_piercing
                               for p, (*_, s) in zip(probability, parts, strict=True)),
                              Fraction(0)),
        received={target: sum((p * s.received[target]
                               for p, (*_, s) in zip(probability, parts, strict=True)),
                              Fraction(0))
                  for target in dfn.targets()},
        swords=[(lost, w, e, s.swords if s.swords is not None else Dist.point(0))
                for lost, w, e, s in parts] if with_swords else [],
        lost_without_swords=mixed(lambda s: s.lost_without_swords
                                  if s.lost_without_swords is not None else s.lost)
        if with_swords else None,
    )


@dataclass(frozen=True)
class Parrying:
    """The exchange with every sword hit of one side kept as a parry."""

    parries: Dist
    lost: Dist
    enemy_lost: Dist


@dataclass(frozen=True)
class SideResult:
    fighter: Fighter
    strikes_first: bool
    hits: Dist
    blocked: Dist
    lost: Dist
    received: Fraction
    received_by_target: dict[Target, Fraction]
    received_piercing: Fraction
    blocked_by_shield_wall: Fraction
    parrying: Parrying | None

    @property
    def blocked_by_armour(self) -> Fraction:
        return self.blocked.mean() - self.blocked_by_shield_wall


@dataclass(frozen=True)
class Exchange:
    a: SideResult
    b: SideResult


def _side(me: Fighter, enemy: Fighter, my_first: Strike | None, their_first: Strike | None,
          my_losses_first: Dist, enemy_losses_first: Dist, mine: Answer,
          theirs: Answer) -> SideResult:
    first_hits = my_first.hits if my_first else Dist.point(0)
    first_blocked = their_first.blocked if their_first else Dist.point(0)
    first_shield = their_first.shield if their_first else Fraction(0)
    first_piercing = their_first.received_piercing if their_first else Fraction(0)
    received = (their_first.hits.mean() if their_first else Fraction(0)) + theirs.hits.mean()
    parrying = None
    if mine.swords:
        # My sword hits depend on what I lost first; the enemy's simultaneous strike does not.
        lost = mixture((w, e, (Dist.point(first) + difference_floor(theirs.lost, swords))
                        .cap(me.warriors)) for first, w, e, swords in mine.swords)
        parries = mixture((w, e, swords) for _, w, e, swords in mine.swords)
        assert mine.lost_without_swords is not None
        enemy_lost = (enemy_losses_first + mine.lost_without_swords).cap(enemy.warriors)
        parrying = Parrying(parries.reduced(), lost.reduced(), enemy_lost.reduced())
    return SideResult(
        fighter=me,
        strikes_first=my_first is not None,
        hits=(first_hits + mine.hits).reduced(),
        blocked=(first_blocked + theirs.blocked).reduced(),
        lost=(my_losses_first + theirs.lost).cap(me.warriors).reduced(),
        received=received,
        received_by_target={
            t: (their_first.received[t] if their_first else Fraction(0)) + theirs.received[t]
            for t in me.targets()},
        received_piercing=first_piercing + theirs.received_piercing,
        blocked_by_shield_wall=first_shield + theirs.shield,
        parrying=parrying,
    )


def exchange(a: Unit, b: Unit) -> Exchange:
    """One exchange of blows between units `a` and `b`."""
    fa, fb = Fighter.of(a), Fighter.of(b)
    start_a = fa.ranks.standings(0)[0]
    start_b = fb.ranks.standings(0)[0]
    first_a = strike(fa, start_a, fb, first=True) if fa.strikes_first() else None
    first_b = strike(fb, start_b, fa, first=True) if fb.strikes_first() else None
    lost_first_a = first_b.lost.cap(fa.warriors) if first_b else Dist.point(0)
    lost_first_b = first_a.lost.cap(fb.warriors) if first_a else Dist.point(0)
    answer_a = answer(fa, fb, lost_first_a)
    answer_b = answer(fb, fa, lost_first_b)
    return Exchange(
        _side(fa, fb, first_a, first_b, lost_first_a, lost_first_b, answer_a, answer_b),
        _side(fb, fa, first_b, first_a, lost_first_b, lost_first_a, answer_b, answer_a),
    )
