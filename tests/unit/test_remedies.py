"""What a broken share tells the player to do: every number it names mends the rule, and no
number it leaves out does. The counted figures are part of the base, so adding or removing
them moves the base too; the ranges are checked here against trying every number."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.bands import Band, Span
from app.domain.base import percent_text_past
from app.systems.chainmail import validate
from app.systems.chainmail.catalogue import TROOPS, WEAPONS
from app.systems.chainmail.far_east import Found, _some_removals
from app.systems.chainmail.nations import NATIONAL_RULES, ShareRule
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit.rule_cases import army, line, unit

# Far past any number the ranges can reach for the bases drawn below.
FAR = 2_000


def mends(band: Band, count: int, base: int) -> bool:
    return base > 0 and band.holds(count, base)


def tried(band: Band, count: int, base: int, add: bool, of_kind: bool) -> set[int]:
    """Every number of figures that, added or removed, mends the rule (up to FAR)."""
    if of_kind:
        # Removing some of a base that is all of them leaves it all of them: never a remedy.
        moved = ((count + x, base + x) for x in range(1, FAR)) if add else \
            ((count - x, base - x) for x in range(1, count + 1 if count < base else 1))
    else:
        moved = ((count, base + y) for y in range(1, FAR)) if add else \
            ((count, base - y) for y in range(1, base - count + 1))
    return {abs(b - base) for c, b in moved if mends(band, c, b)}


def spanned(span: Span | None) -> set[int]:
    if span is None:
        return set()
    return set(range(span.least, FAR if span.most is None else min(span.most + 1, FAR)))


fractions = st.integers(0, 100).map(lambda n: Fraction(n, 100))


@st.composite
def broken(draw: st.DrawFn) -> tuple[Band, int, int]:
    lo, hi = sorted([draw(fractions), draw(fractions)])
    kind = draw(st.sampled_from(["about", "hard", "over"]))
    # "over": more than lo, up to all of the base (the Poles' "main" horse)
    band = Band(lo, Fraction(1), over=True) if kind == "over" else Band(lo, hi, hard=kind == "hard")
    base = draw(st.integers(1, 300))
    count = draw(st.integers(0, base))
    return band, count, base


@settings(max_examples=400, deadline=None)
@given(broken())
def test_each_remedy_is_exactly_the_numbers_that_mend_the_share(
        case: tuple[Band, int, int]) -> None:
    band, count, base = case
    found = band.remedies(count, base)
    if band.holds(count, base):
        assert found is None and band.hint(count, base, "en") == ""
        return
    assert found is not None
    too_few = count < band.limits(base)[0]
    # Too few: more of the counted figures, or fewer of the others; too many: the reverse.
    assert found.kind is None or found.kind.add is too_few
    assert found.others is None or found.others.add is not too_few
    # Removing every figure of the base is no remedy (mends() wants a base left to judge).
    kind = tried(band, count, base, add=too_few, of_kind=True)
    others = tried(band, count, base, add=not too_few, of_kind=False)
    assert spanned(found.kind) == kind
    assert spanned(found.others) == others


@pytest.mark.parametrize(("band", "count", "base", "en", "ru"), [
    # The example: 6 archers of 20, 40–60 %.
    (Band(Fraction("0.4"), Fraction("0.6")), 6, 20,
     "add 2 to 17 more, or remove 3 to 11 other figures",
     "добавьте ещё от 2 до 17 или уберите от 3 до 11 других фигур"),
    # All archers: removing archers leaves all archers (one or two of them would read as
    # "about half" only by rounding a base of one or two up): adding others, from 6 on.
    (Band(Fraction("0.4"), Fraction("0.6")), 10, 10, "add 6 to 17 other figures",
     "добавьте от 6 до 17 других фигур"),
    # At least half of 5: 1 + 2 of 7 rounds down to 3; with 2 to 4 others gone, 1 of 3 … 1.
    (Band(Fraction("0.5"), Fraction(1)), 1, 5, "add 2 or more, or remove 2 to 4 other figures",
     "добавьте ещё 2 или больше или уберите от 2 до 4 других фигур"),
    # At most 10 % of 10 (1): 1 of 8 is at most 1 again; 3 of 21 rounds up to 3.
    (Band(Fraction(0), Fraction("0.1")), 3, 10, "remove 2 to 3, or add 11 or more other figures",
     "уберите от 2 до 3 или добавьте 11 или больше других фигур"),
    # 50–60 % of none of 2: no figures are never "about half", so removing others cannot
    # mend it (0 of 1 would round down to 0 in the player's favour, but a share needs one).
    (Band(Fraction("0.5"), Fraction("0.6")), 0, 2, "add 1 to 5 more",
     "добавьте ещё от 1 до 5"),
    # Hard "at least 75 %" of 5 (ceil 3.75 = 4), 3 medium of 5: 1 more is 4 of 6 (ceil 4.5
    # = 5, still short), 2 more is 5 of 7 (ceil 5.25 = 6)…: only 3 or more; or remove 1 other
    # (3 of 4, ceil 3 = 3), 2 others leave 3 of 3.
    (Band(Fraction("0.75"), Fraction(1), hard=True), 3, 5,
     "add 3 or more, or remove 1 to 2 other figures",
     "добавьте ещё 3 или больше или уберите от 1 до 2 других фигур"),
    # Hard "at most 10 %" of 101 (floor 10.1 = 10), 11 foot: remove 1 to 11, or add 9 or more
    # others (11 of 110 = floor 11).
    (Band(Fraction(0), Fraction("0.1"), hard=True), 11, 101,
     "remove 1 to 11, or add 9 or more other figures",
     "уберите от 1 до 11 или добавьте 9 или больше других фигур"),
])
def test_the_remedies_read_as_players_write(band: Band, count: int, base: int, en: str,
                                            ru: str) -> None:
    assert band.hint(count, base, "en") == en
    assert band.hint(count, base, "ru") == ru


def test_the_base_is_named_in_the_remedy_of_the_others() -> None:
    band = Band(Fraction("0.65"), Fraction("0.85"))
    # 1 of 10 at 65–85 %: 14 of 23 (floor 14.95 = 14) to 57 of 66 (ceil 56.1 = 57); or 1 of
    # 3 (floor 1.95 = 1) to 1 of 1.
    assert band.hint(1, 10, "en", "horse ") == \
        "add 13 to 56 more, or remove 7 to 9 other horse figures"
    assert band.hint(1, 10, "ru", "horse ") == \
        "добавьте ещё от 13 до 56 или уберите от 7 до 9 других фигур конницы"


def test_the_other_figures_agree_with_their_number_in_russian() -> None:
    assert [Span(False, n, n).text("ru", other="") for n in (1, 2, 5, 21)] == [
        "уберите 1 другую фигуру", "уберите 2 другие фигуры", "уберите 5 других фигур",
        "уберите 21 другую фигуру"]
    assert [Span(True, 1, n).text("ru", other="") for n in (3, 11, 21)] == [
        "добавьте от 1 до 3 других фигур", "добавьте от 1 до 11 других фигур",
        "добавьте от 1 до 21 другой фигуры"]


def message(doc: dict[str, Any], code: str, lang: str = "en") -> str:
    (found,) = [i for i in validate(ChainmailRoster.model_validate(doc), lang)  # type: ignore[arg-type]
                if i.code == code]
    return found.message


def horde(archers: int, lancers: int) -> dict[str, Any]:
    return army("mongols", unit(line("light_horse", lancers, "lance")),
                unit(line("light_horse", archers, "bow")))


def test_the_fewest_archers_the_hint_names_mend_the_mongol_rule_and_one_fewer_does_not() -> None:
    # 4 archers of 14 at 40–60 %: 2 more make 6 of 16, whose 40 % rounds down to 6; 1 more
    # is 5 of 15, under 6. At most 13 more: 17 of 27 (60 % rounds up to 17), not 18 of 28.
    text = message(horde(4, 10), "mongols.horse_archers")
    assert text.endswith("add 2 to 13 more, or remove 2 to 8 other figures")
    codes = {i.code for i in validate(ChainmailRoster.model_validate(horde(6, 10)))}
    assert "mongols.horse_archers" not in codes
    codes = {i.code for i in validate(ChainmailRoster.model_validate(horde(5, 10)))}
    assert "mongols.horse_archers" in codes
    assert "mongols.horse_archers" not in {
        i.code for i in validate(ChainmailRoster.model_validate(horde(17, 10)))}
    assert "mongols.horse_archers" in {
        i.code for i in validate(ChainmailRoster.model_validate(horde(18, 10)))}


def test_every_share_rule_counts_figures_of_its_own_base() -> None:
    # The remedies assume it: adding one of the counted figures adds one to the base.
    keys = [(troop, weapon, knights) for troop in TROOPS for weapon in WEAPONS
            for knights in (False, True)]
    for rules in NATIONAL_RULES.values():
        for rule in rules:
            if isinstance(rule, ShareRule):
                outside = [key for key in keys
                           if rule.counted.matches(key) and not rule.base.matches(key)]
                assert outside == [], rule.code


def test_a_share_past_its_band_is_not_printed_as_the_band_edge() -> None:
    # 451 light horse with crossbows of 3000: over the 15 % the Poles allow (450 at most),
    # which one decimal would print as "15 %".
    assert percent_text_past(451, 3000, "15", "en") == "15.03"
    assert percent_text_past(451, 3000, "15", "ru") == "15,03"
    assert percent_text_past(449, 3000, "15", "en") == "14.97"
    assert percent_text_past(1, 3, "15", "en") == "33.3"  # far past: one decimal
    band = Band(Fraction("0.05"), Fraction("0.15"))
    assert band.crossed(451, 3000, "en") == "15" and band.crossed(1, 3000, "en") == "5"
    doc = army("poles", unit(line("medium_horse", 2550, "lance")),
               unit(line("light_horse", 2549)), unit(line("light_horse", 451, "crossbow")))
    text = message(doc, "poles.light_crossbows")
    assert "451 of 3000 light horse figures = 15.03 %, must be about 10 %, 5–15 %" in text


def test_the_some_limit_shrinks_with_the_figures_removed_to_meet_it() -> None:
    # China: 8 light and 3 heavy foot. Removing 1 leaves 2 of 10, over the limit of 1.
    assert _some_removals([Found("heavy_foot", 3)], 11) == {"heavy_foot": 2}
    assert _some_removals([Found("a", 5), Found("b", 5)], 12) == {"a": 4, "b": 4}
    doc = army("china", unit(line("light_foot", 8)), unit(line("heavy_foot", 3, "polearm")))
    assert message(doc, "china.some").endswith("heavy foot (militia included): remove 2 figures")
    mended = army("china", unit(line("light_foot", 8)), unit(line("heavy_foot", 1, "polearm")))
    assert "china.some" not in {i.code for i in validate(ChainmailRoster.model_validate(mended))}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 60), min_size=1, max_size=3), st.integers(0, 200))
def test_the_some_removals_are_the_fewest_that_keep_every_limit(over: list[int],
                                                                 rest: int) -> None:
    found = [Found(str(i), n) for i, n in enumerate(over)]
    army_size = sum(over) + rest
    limit = -(-army_size // 10)
    found = [f for f in found if f.count > limit]
    removals = _some_removals(found, army_size)
    left = army_size - sum(removals.values())
    assert all(f.count - removals[f.category] <= -(-left // 10) for f in found)
    # One fewer of any, and that one would be over its limit.
    for f in found:
        if removals[f.category]:
            fewer = left + 1
            assert f.count - removals[f.category] + 1 > -(-fewer // 10)


def test_a_limit_of_one_point_is_one_point() -> None:
    doc = army("generic", unit(line("peasant", 4))) | {"points_limit": 1}  # 4 × 1/2
    assert message(doc, "roster.over_limit") == "Points limit: 2 of 1 point — remove 1 point"
    assert message(doc, "roster.over_limit", "ru") == \
        "Лимит очков: 2 из 1 очка — уберите 1 очко"
    doc["points_limit"] = 21
    doc["units"][0]["lines"][0]["figures"] = 60  # 30 points
    assert "из 21 очка" in message(doc, "roster.over_limit", "ru")
    doc["points_limit"] = 25
    assert "из 25 очков" in message(doc, "roster.over_limit", "ru")


def test_the_some_rule_agrees_its_russian_with_its_numbers() -> None:
    doc = army("china", unit(line("light_foot", 8)), unit(line("heavy_foot", 3, "polearm")))
    text = message(doc, "china.some", "ru")
    assert "из 11 фигур" in text
    assert text.endswith("тяжёлая пехота (с ополчением): уберите 2 фигуры")
    from app.systems.chainmail.validation import assess

    checks = {c.code: c for c in assess(ChainmailRoster.model_validate(doc), "ru")}
    assert checks["china.some"].band == "не более 2 фигур каждого вида"
    none = army("china", unit(line("light_foot", 21)))
    kept = {c.code: c for c in assess(ChainmailRoster.model_validate(none), "ru")}["china.some"]
    assert kept.summary.endswith(": нет") and "из" not in kept.summary.split(":")[-1]
    assert kept.band == "не более 3 фигур каждого вида"  # 10 % of 21, rounded up


def test_english_hints_agree_their_nouns_with_their_numbers() -> None:
    # Japan: 4 arquebusiers of 24 against "some" (at most 3); one fewer leaves 3 of 23.
    doc = army("japan", unit(line("light_foot", 20, "polearm")), unit(line("light_foot", 4,
                                                                           "arquebus")))
    text = message(doc, "japan.some")
    assert text.endswith("arquebusiers: remove 1 figure")
    assert "remove 1 arquebusiers" not in text
    heavy = army("china", unit(line("light_foot", 20, "polearm")),
                 unit(line("heavy_horse", 1, "lance")))
    assert message(heavy, "china.unlisted").endswith("heavy horse: remove 1 figure")


def test_a_share_says_how_many_more_it_has_room_for_in_figures_and_points() -> None:
    from app.systems.chainmail.validation import assess
    doc = army("mongols", unit(line("medium_horse", 5, "lance")),
               unit(line("light_horse", 5, "lance")), unit(line("light_horse", 6, "bow")),
               unit(line("light_horse", 4, "javelins"))) | {"points_limit": 300}
    rooms = {c.code: c.room for c in assess(ChainmailRoster.model_validate(doc))}
    # 6 archers of 20: 2 to 17 more mend it (the hint's numbers); 217 points at 6 each buy 36.
    assert rooms["mongols.horse_archers"] == "room for 2–17 more; with 217 points left, up to 36"
    # 5 medium lancers of 20: 9 of 24 is still under ceil(8.4) = 9, 10 of 25 is not.
    assert rooms["mongols.medium_lancers"].startswith("room for up to 4 more;")
    ru = {c.code: c.room for c in assess(ChainmailRoster.model_validate(doc), "ru")}
    assert ru["mongols.horse_archers"] == "можно добавить от 2 до 17; осталось 217 очков — " \
        "хватит на 36"
    # A share with no room left says nothing: 2 foot of 21 Magyars at a hard 10 %.
    magyars = army("magyars", unit(line("light_horse", 19)), unit(line("light_foot", 2)))
    room = {c.code: c.room for c in assess(ChainmailRoster.model_validate(magyars))}
    assert room["magyars.foot_share"] == ""


@settings(max_examples=200, deadline=None)
@given(broken())
def test_the_room_is_exactly_the_numbers_added_that_keep_the_share(
        case: tuple[Band, int, int]) -> None:
    band, count, base = case
    found = band.room(count, base)
    fits = {k for k in range(0, FAR) if band.holds(count + k, base + k)}
    if found is None:
        assert fits == set()
    else:
        least, most = found
        assert set(range(least, FAR if most is None else min(most + 1, FAR))) == fits or (
            found == (0, 0) and 0 in fits and 1 not in fits)
