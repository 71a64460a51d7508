""""Make it legal": the smallest change in figures, line by line, that keeps every numeric
national rule (the error bands of §6, the "no X" rules, Table 18's forbidden troops) and the
points limit at once.

Each line's new count is an integer unknown; the change is the sum of |new − old| over the
lines, and every rule is a linear inequality in the counts — a band's floor and ceiling turn
into whole-number inequalities (floor(a·N/b) ≤ c ⟺ a·N ≤ b·c + b − 1), so the optimum is
exact. A small integer programme: solved by HiGHS (highspy), then checked with the same
`validate` the verdict uses, so a suggestion never claims what the rules would deny. highspy is
imported with the app: it adds about 6 ms to NumPy's import (`python -X importtime -c 'import
app.main'`: 1.7–2.0 s in all).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import highspy
import numpy as np

from app.domain.base import Lang, Severity, points_text
from app.domain.edits import distinct_name
from app.domain.limits import MAX_FIGURES
from app.domain.translations import counted, ntr, tr
from app.systems.chainmail.catalogue import PRESETS, TROOPS, WEAPONS
from app.systems.chainmail.far_east import AVAILABILITY, CATEGORIES
from app.systems.chainmail.nations import NATIONAL_RULES, NoneRule, ShareRule
from app.systems.chainmail.pricing import cost_per_figure, price
from app.systems.chainmail.roster import ChainmailRoster, Line, Unit
from app.systems.chainmail.tally import Figures, Key


@dataclass(frozen=True)
class LineChange:
    unit: int | None  # index of the unit; None: a new unit of this one line
    line: int  # index of the line in its unit
    old: int
    new: int  # 0: remove the line (and the unit, when it has no line left)
    troop: str
    weapon: str
    preset: str | None = None  # a new unit's preset, whose flags it takes
    name: str = ""  # a new unit's name: its preset's, told apart from the others'


@dataclass(frozen=True)
class Suggestion:
    possible: bool
    changes: tuple[LineChange, ...]  # empty and possible: nothing to change
    moved: int  # figures added or removed in all
    total: Fraction  # the army's points once the changes are made
    reason: str  # why no change can do it, when not possible
    outcome: str = ""  # what the changes do, in words: "9 figures removed; …"


@dataclass(frozen=True)
class _Line:
    """The army's lines of one kind and price, which every rule counts alike: one unknown of
    the programme however many lines share it (none: a line the army does not have yet)."""

    places: tuple[tuple[int, int, int], ...]  # (unit, line, figures) of each line
    key: Key
    eighths: int  # cost per figure in eighths of a point
    preset: str | None = None  # a line the army does not have yet, from its nation's preset

    @property
    def figures(self) -> int:
        return sum(figures for _, _, figures in self.places)

    def changes(self, new: int) -> list[LineChange]:
        """`new` figures in all: added to the first line, or taken from the last ones."""
        troop, weapon = self.key[0], self.key[1]
        if not self.places:
            return [LineChange(None, 0, 0, new, troop, weapon, self.preset)] if new else []
        more = new - self.figures
        if more > 0:
            u, j, figures = self.places[0]
            return [LineChange(u, j, figures, figures + more, troop, weapon)]
        found = []
        for u, j, figures in reversed(self.places):
            if more == 0:
                break
            taken = min(figures, -more)
            found.append(LineChange(u, j, figures, figures - taken, troop, weapon))
            more += taken
        return found[::-1]


def _lines(roster: ChainmailRoster) -> list[_Line]:
    groups: dict[tuple[Key, int], list[tuple[int, int, int]]] = {}
    for u, unit in enumerate(roster.units):
        for j, line in enumerate(unit.lines):
            key = (line.troop, line.weapon, "knights" in unit.flags)
            eighths = int(cost_per_figure(line.troop, line.weapon, unit.mercenary) * 8)
            groups.setdefault((key, eighths), []).append((u, j, line.figures))
    return [_Line(tuple(places), key, eighths) for (key, eighths), places in groups.items()]


def _new_lines(lines: list[_Line], shares: list[ShareRule],
               excluded: list[Figures]) -> list[_Line]:
    """For each share whose figures the army has no line of ("no horse archers"), a line it
    could add: the first troop and weapon of the catalogue the rule counts, on a new unit."""
    found: list[_Line] = []
    for rule in shares:
        if any(rule.counted.matches(line.key) for line in lines + found):
            continue
        for troop in sorted(TROOPS, key=lambda t: t in ("peasant", "militia")):  # levies last
            for weapon, arms in WEAPONS.items():
                key = (troop, weapon, False)
                if TROOPS[troop].troop_class in arms.allowed_on and rule.counted.matches(key) \
                        and not any(f.matches(key) for f in excluded):
                    found.append(_Line((), key, int(cost_per_figure(troop, weapon, False) * 8)))
                    break
            else:
                continue
            break
    return found


def _rules(roster: ChainmailRoster) -> tuple[list[ShareRule], list[Figures]]:
    """The share rules to keep, and the figures that must go, for a historical roster."""
    if not roster.historical:
        return [], []
    shares, excluded = [], []
    for rule in NATIONAL_RULES.get(roster.nation, ()):
        if rule.severity is not Severity.error:
            continue
        if isinstance(rule, ShareRule):
            if not (rule.waived_by_fortifications and roster.fortifications):
                shares.append(rule)
        elif isinstance(rule, NoneRule):
            excluded.append(rule.excluded)
    for category, standing in AVAILABILITY.get(roster.nation, {}).items():
        if standing == "no":
            excluded.append(CATEGORIES[category])
    return shares, excluded


class _Programme:
    """Variables per line: the new count x, and the amounts added (up) and removed (down);
    then one 0/1 per share rule: whether its base keeps any figure."""

    def __init__(self, lines: list[_Line], shares: list[ShareRule],
                 excluded: list[Figures], fill_to: int | None = None) -> None:
        self.lines, self.shares = lines, shares
        self.n = len(lines)
        self.size = 3 * self.n + len(shares)
        self.rows: list[np.ndarray] = []
        self.low: list[float] = []
        self.high: list[float] = []
        self.grow_only = fill_to is not None
        if fill_to is not None:  # filling: figures only added, as many as the points buy
            self.upper = [line.figures if any(f.matches(line.key) for f in excluded) else
                          min(MAX_FIGURES, max(line.figures, fill_to // line.eighths))
                          for line in lines]
            return
        # No line grows past a few times the army (no band asks for more), which keeps the
        # bound of "the base keeps a figure" small enough for the solver to be exact.
        most = 4 * (sum(line.figures for line in lines) + 10)
        self.upper = [0 if any(f.matches(line.key) for f in excluded) else
                      min(MAX_FIGURES, max(most, line.figures)) for line in lines]

    def row(self) -> np.ndarray:
        return np.zeros(self.size)

    def add(self, coefficients: np.ndarray, low: float, high: float) -> None:
        self.rows.append(coefficients)
        self.low.append(low)
        self.high.append(high)

    def members(self, figures: Figures) -> np.ndarray:
        return np.array([1.0 if figures.matches(line.key) else 0.0 for line in self.lines])


def _build(lines: list[_Line], shares: list[ShareRule], excluded: list[Figures],
           limit_eighths: int | None, grow_only: bool = False) -> _Programme:
    p = _Programme(lines, shares, excluded, limit_eighths if grow_only else None)
    n = p.n
    for i, line in enumerate(lines):  # x − up + down = old
        r = p.row()
        r[i], r[n + i], r[2 * n + i] = 1, -1, 1
        p.add(r, line.figures, line.figures)
    for k, rule in enumerate(shares):
        counted, base = p.members(rule.counted), p.members(rule.base)
        a, b = rule.band.lo.numerator, rule.band.lo.denominator
        q_, p_ = rule.band.hi.denominator, rule.band.hi.numerator
        r = p.row()  # the lower limit: a·N ≤ b·c (hard), < b·c (over), < b·c + b (about)
        r[:n] = a * base - b * counted
        p.add(r, -np.inf, -1 if rule.band.over else 0 if rule.band.hard else b - 1)
        r = p.row()  # the upper limit
        r[:n] = q_ * counted - p_ * base
        p.add(r, -np.inf, 0 if rule.band.hard else q_ - 1)
        z = 3 * n + k  # the base keeps a figure: z = 1 exactly when its count is 1 or more
        r = p.row()
        r[:n], r[z] = base, -sum(p.upper)
        p.add(r, -np.inf, 0)
        r = p.row()
        r[:n], r[z] = base, -1
        p.add(r, 0, np.inf)
        if a and not rule.band.hard:  # a share the seed names needs a figure once it has a base
            r = p.row()
            r[:n], r[z] = counted, -1
            p.add(r, 0, np.inf)
    r = p.row()  # an army of no figures is no army
    r[:n] = 1
    p.add(r, 1, np.inf)
    if limit_eighths is not None:
        r = p.row()
        r[:n] = [line.eighths for line in lines]
        p.add(r, -np.inf, limit_eighths)
    return p


def _solve(p: _Programme, objective: np.ndarray) -> np.ndarray | None:
    n = p.n
    upper = np.full(p.size, np.inf)
    upper[:n] = p.upper
    if p.grow_only:  # nothing removed
        upper[2 * n:3 * n] = 0
    upper[3 * n:] = 1
    columns = np.array(p.rows).T
    kept = columns != 0
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = p.size, len(p.rows)
    lp.col_cost_, lp.col_lower_, lp.col_upper_ = objective, np.zeros(p.size), upper
    lp.row_lower_, lp.row_upper_ = np.array(p.low), np.array(p.high)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * p.size
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.concatenate(([0], np.cumsum(kept.sum(axis=1))))
    lp.a_matrix_.index_ = np.nonzero(kept)[1]
    lp.a_matrix_.value_ = columns[kept]
    # The bare binding: highspy.Highs() prints HiGHS's banner before any option can silence it.
    solver = highspy._Highs()
    solver.setOptionValue("output_flag", False)
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return np.rint(solver.getSolution().col_value[:n]).astype(int)  # type: ignore[no-any-return]


def _engines_eighths(roster: ChainmailRoster) -> int:
    return sum(int(engine.cost * 8) for engine in price(roster).engines)


def make_legal(roster: ChainmailRoster, lang: Lang = "en") -> Suggestion:
    lines = _lines(roster)
    shares, excluded = _rules(roster)
    limit = None if roster.points_limit is None else \
        roster.points_limit * 8 - _engines_eighths(roster)
    if not lines:
        return _refused(roster, tr(lang, "add a unit with figures first"))
    lines += _new_lines(lines, shares, excluded)
    programme = _build(lines, shares, excluded, limit)
    n = len(lines)
    moves = np.zeros(programme.size)
    moves[n:3 * n] = 1
    counts = _solve(programme, moves)
    if counts is None:
        return _refused(roster, _why_not(roster, lines, shares, excluded, lang))
    changes = tuple(change for line, new in zip(lines, counts, strict=True)
                    for change in line.changes(int(new)))
    total = price(apply(roster, changes)).total
    return Suggestion(True, changes, sum(abs(c.new - c.old) for c in changes), total, "",
                      outcome_text(changes, total, lang))


def fill(roster: ChainmailRoster, lang: Lang = "en") -> Suggestion:
    """"Fill to the limit": the fewest figures added, to the lines the army has and to those
    its nation's presets name (a new unit each), that make the army legal with its points as
    near its limit as they can come without passing it. Two programmes: the most points any
    legal army of these lines grown (never shrunk) can cost, then the fewest figures added
    that cost them."""
    if roster.points_limit is None:
        return _refused(roster, tr(lang, "the army has no points limit to fill up to"))
    limit = roster.points_limit * 8 - _engines_eighths(roster)
    lines = _lines(roster)
    shares, excluded = _rules(roster)
    if any(f.matches(line.key) for line in lines for f in excluded):
        return _refused(roster, tr(lang, "adding figures cannot mend this list: find the "
                                         "smallest change instead"))
    lines += _offered(roster, lines, excluded)
    lines += _new_lines(lines, shares, excluded)
    if not lines:
        return _refused(roster, tr(lang, "add a unit with figures first"))
    programme = _build(lines, shares, excluded, limit, grow_only=True)
    n = len(lines)
    points = np.zeros(programme.size)
    points[:n] = [line.eighths for line in lines]
    counts = _solve(programme, -points)
    if counts is None:
        return _refused(roster, tr(lang, "adding figures cannot mend this list: find the "
                                         "smallest change instead"))
    most = programme.row()
    most[:n] = points[:n]
    programme.add(most, int(np.dot(counts, points[:n])), np.inf)
    added = np.zeros(programme.size)
    added[n:2 * n] = 1
    counts = _solve(programme, added)
    if counts is None:  # the first answer is one: only the solver's own failure
        return _refused(roster, tr(lang, "no answer was found in time"))
    changes = _named(roster, [change for line, new in zip(lines, counts, strict=True)
                              for change in line.changes(int(new))], lang)
    total = price(apply(roster, changes)).total
    return Suggestion(True, changes, sum(c.new - c.old for c in changes), total, "",
                      outcome_text(changes, total, lang) if changes else "")


def _named(roster: ChainmailRoster, changes: list[LineChange], lang: Lang
           ) -> tuple[LineChange, ...]:
    """Each new unit of a preset named after it, told apart from every other unit's name."""
    names = [{"name": unit.name} for unit in roster.units]
    for k, change in enumerate(changes):
        if change.preset is not None:
            names.append({"name": distinct_name(names, PRESETS[change.preset].name(lang))})
            changes[k] = replace(change, name=names[-1]["name"])
    return tuple(changes)


def _offered(roster: ChainmailRoster, lines: list[_Line], excluded: list[Figures]
             ) -> list[_Line]:
    """The lines of the nation's own presets the army does not have yet (a generic army's
    presets only for an army of no lines): what filling may add as new units."""
    if roster.nation == "generic" and lines:
        return []
    found: list[_Line] = []
    for preset in PRESETS.values():
        if preset.nations and roster.nation not in preset.nations or \
                not preset.nations and roster.nation != "generic":
            continue
        key = (preset.troop, preset.weapon, "knights" in preset.flags)
        if any(line.key == key for line in lines + found) or \
                any(f.matches(key) for f in excluded):
            continue
        eighths = int(cost_per_figure(preset.troop, preset.weapon, False) * 8)
        found.append(_Line((), key, eighths, preset.id))
    return found


def outcome_text(changes: tuple[LineChange, ...], total: Fraction, lang: Lang) -> str:
    """What the changes do, as the player will see them made: "2 figures added, 9 removed;
    the army then costs 112 points" (no figure moves between lines: each line grows or
    shrinks)."""
    added = sum(c.new - c.old for c in changes if c.new > c.old)
    removed = sum(c.old - c.new for c in changes if c.new < c.old)
    parts = [ntr(lang, "%(n)s figure added", "%(n)s figures added", added)] if added else []
    if removed:
        parts.append(ntr(lang, "%(n)s figure removed", "%(n)s figures removed", removed))
    done = ", ".join(parts)
    return tr(lang, "%(done)s; the army then costs %(points)s.",
              done=done[:1].upper() + done[1:], points=counted(total, "point", lang))


def _refused(roster: ChainmailRoster, reason: str) -> Suggestion:
    return Suggestion(False, (), 0, price(roster).total, reason)


def _why_not(roster: ChainmailRoster, lines: list[_Line], shares: list[ShareRule],
             excluded: list[Figures], lang: Lang) -> str:
    """Which rules no change of the lines' figures can meet, in words."""
    free = [line for line in lines if not any(f.matches(line.key) for f in excluded)]
    if not free:
        return tr(lang, "every line is of troops this army may not field: add others")
    needing = [rule for rule in shares if rule.band.lo > 0 and not rule.band.hard
               and not any(rule.counted.matches(line.key) for line in free)]
    if needing:
        names = ", ".join(rule.counted.label(lang) for rule in needing)
        return tr(lang, "no line to add figures to for: %(names)s; add such a line", names=names)
    if roster.points_limit is not None:
        cheapest = _build(lines, shares, excluded, None)
        points = np.zeros(cheapest.size)
        points[:len(lines)] = [line.eighths for line in lines]
        counts = _solve(cheapest, points)
        if counts is not None:
            need = Fraction(int(np.dot(counts, points[:len(lines)])), 8) + \
                Fraction(_engines_eighths(roster), 8)
            return tr(lang, "the proportions need at least %(need)s points with these lines, over "
                      "the limit of %(points_limit)s", need=points_text(need, lang),
                      points_limit=roster.points_limit)
    names = ", ".join(rule.counted.label(lang) for rule in shares)
    return tr(lang, "these shares cannot be met together with these lines: %(names)s",
              names=names)


def apply(roster: ChainmailRoster, changes: tuple[LineChange, ...]) -> ChainmailRoster:
    """The roster with the changes made: a line of 0 figures goes, and a unit left without
    lines goes with it."""
    wanted = {(c.unit, c.line): c.new for c in changes if c.unit is not None}
    units = []
    for u, unit in enumerate(roster.units):
        kept = [line.model_copy(update={"figures": wanted.get((u, j), line.figures)})
                for j, line in enumerate(unit.lines) if wanted.get((u, j), line.figures) > 0]
        if kept or not unit.lines:
            units.append(unit.model_copy(update={"lines": kept}))
    units += [Unit(name=c.name, flags=list(PRESETS[c.preset].flags) if c.preset else [],
                   lines=[Line(troop=c.troop, figures=c.new, weapon=c.weapon)])
              for c in changes if c.unit is None and c.new > 0]
    return roster.model_copy(update={"units": units})
