"""The army sheet of a "Line and Square" force: each unit's profile, actions and order-test
chances, the army's break points, and the reference the table needs (the order test, and the
square when a unit may form one), in English or in the seed's Russian.

Pure data in, pure data out, like Chainmail's sheet: the print page and the text exports read
this and decide nothing themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.domain.base import Lang, decimal_text, points_text
from app.domain.translations import legality_text, tr
from app.systems.line_and_square import catalogue as cat
from app.systems.line_and_square.evaluation import evaluate
from app.systems.line_and_square.roster import LineAndSquareRoster


@dataclass(frozen=True)
class SheetChance:
    officer_in_reach: bool
    disorder: int
    fraction: str  # "26/36"
    percent: str  # "72.2 %"


@dataclass(frozen=True)
class SheetUnit:
    number: int
    name: str
    class_name: str
    formation_name: str
    figures: int
    speed: int
    accuracy: str  # "—" when the unit cannot shoot
    discipline: str  # "+1", "0", "−2"
    points: str
    officer: bool
    actions: tuple[str, ...]  # action names in the sheet's language
    chances: tuple[SheetChance, ...]  # no officer / officer × 0, 1, 2 disorder markers
    note: str

    @property
    def casualty_boxes(self) -> int:
        """One tick box per figure, to strike off losses during the game."""
        return self.figures


@dataclass(frozen=True)
class Section:
    """A reference section printed on the sheet, already in the sheet's language."""

    id: str
    title: str
    paragraphs: tuple[str, ...] = ()
    units: tuple[str, ...] = ()  # names of the units the section is about


@dataclass(frozen=True)
class LineAndSquareSheet:
    lang: Lang
    name: str
    ruleset_name: str
    note: str
    total: str
    points_limit: int
    default_limit: bool  # the usual 30, as the roster sets none
    remaining: str
    over_limit: bool
    figures: int
    officers: int
    units: tuple[SheetUnit, ...]
    morale_below: int | float  # every unit tests morale once strength is below this
    flight_below: int | float  # the rest flee once strength is below this
    break_points: tuple[str, str]  # both thresholds in words
    valid: bool
    legality: str
    issues: tuple[str, ...]
    sections: tuple[Section, ...]
    # The print page's ticks for optional sections: this system prints all it has.
    optional_offered: tuple[tuple[str, str], ...] = ()

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else ("0" if value == 0 else f"−{-value}")


def _percent(chance: float, lang: Lang) -> str:
    return f"{decimal_text(f'{chance * 100:.1f}', lang)} %"


def _order_test_section(lang: Lang) -> Section:
    return Section("order_test", tr(lang, "Order test"), (
        tr(lang, "Roll two dice and add the unit's discipline; +1 in close order, +1 in square, "
           "+1 within 12\" of a unit with an officer; −1 for each disorder marker. 6 or more "
           "passes and the unit acts; less, and it does nothing this turn."),
        tr(lang, "A roll of 1-1 always fails and 6-6 always passes."),
    ))


def _square_section(roster: LineAndSquareRoster, lang: Lang, lines: list[str]) -> Section | None:
    names = tuple(unit.name or tr(lang, "Unit %(i)s", i=i + 1)
                  for i, unit in enumerate(roster.units) if cat.CLASSES[unit.unit_class].square)
    if not names:
        return None
    return Section("square", tr(lang, "The square"), tuple(lines), names)


def army_sheet(roster: LineAndSquareRoster, lang: Lang = "en") -> LineAndSquareSheet:
    result = evaluate(roster, lang).result
    units = []
    for i, (unit, priced) in enumerate(zip(roster.units, result["units"], strict=True)):
        units.append(SheetUnit(
            number=i + 1,
            name=unit.name or tr(lang, "Unit %(i)s", i=i + 1),
            class_name=cat.CLASSES[unit.unit_class].name(lang),
            formation_name=cat.FORMATIONS[unit.formation].name(lang),
            figures=unit.figures, speed=unit.speed,
            accuracy="—" if unit.accuracy is None else str(unit.accuracy),
            discipline=_signed(unit.discipline),
            points=points_text(Fraction(priced["points"]), lang), officer=unit.officer,
            actions=tuple(cat.ACTIONS[a].name(lang) for a in priced["actions"]),
            chances=tuple(SheetChance(c["officer_in_reach"], c["disorder"],
                                      f"{c['passing_throws']}/{c['throws']}",
                                      _percent(c["chance"], lang))
                          for c in priced["order_test"]),
            note=unit.note))
    sections = [_order_test_section(lang)]
    square = _square_section(roster, lang, result["square_rules"])
    if square is not None:
        sections.append(square)
    points = result["break_points"]
    return LineAndSquareSheet(
        lang=lang, name=roster.name, ruleset_name=tr(lang, "Line and Square"),
        note=roster.note, total=points_text(Fraction(result["total"]), lang),
        points_limit=result["points_limit"],
        default_limit=result["points_limit_source"] == "default",
        remaining=points_text(Fraction(result["remaining"]), lang),
        over_limit=result["remaining"] < 0,
        figures=result["figures"], officers=result["officers"], units=tuple(units),
        morale_below=points["morale_below"], flight_below=points["flight_below"],
        break_points=(points["morale_text"], points["flight_text"]),
        valid=result["valid"],
        legality=legality_text((i["severity"] for i in result["issues"]), lang),
        issues=tuple(str(i["message"]) for i in result["issues"]), sections=tuple(sections))
