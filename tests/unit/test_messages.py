"""Issue messages state the arithmetic, in English by default and in Russian on request."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.domain.base import Issue, Lang, percent_text
from app.systems.chainmail import evaluate, validate
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit.rule_cases import BREAKS, Case, army, case_id, line, unit

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
ENGLISH_WORD = re.compile(r"\b[A-Za-z]{3,}\b")
NAMES_IN_CASES = {"Nobody"}  # unit names the cases give, which no translation touches

# Bands of the share rules as the rules page writes them.
BANDS: dict[str, tuple[str, str]] = {
    "magyars.light_horse": ("about 75 %, 65–85 %", "около 75 %, 65–85 %"),
    "magyars.horse_archers": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "magyars.foot_share": ("at most 10 %, strictly (no rounding)",
                           "не более 10 %, строго, без округления"),
    "mongols.medium_lancers": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "mongols.light_lancers": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "mongols.horse_archers": ("about 50 %, 40–60 %", "около 50 %, 40–60 %"),
    "tatars.medium_lancers": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "tatars.light_lancers": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "tatars.horse_archers": ("a little under half, 30–60 %",
                             "немного меньше половины, 30–60 %"),
    "poles.medium_lancers": ("about 75 %, 65–85 %", "около 75 %, 65–85 %"),
    "poles.light_crossbows": ("about 10 %, 5–15 %", "около 10 %, 5–15 %"),
    "poles.light_horse": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "poles.horse_main": ("more than 50 %", "более 50 %"),
    "magyars.medium_horse": ("about 25 %, 15–35 %", "около 25 %, 15–35 %"),
    "russians.horse_share": ("about 20 %, 10–30 %", "около 20 %, 10–30 %"),
    "russians.medium_horse": ("at least 75 %, strictly (no rounding)",
                              "не менее 75 %, строго, без округления"),
    "russians.heavy_foot": ("about 50 %, 40–60 %", "около 50 %, 40–60 %"),
    "russians.polearms": ("more than 50 % (a majority)", "более 50 % (большинство)"),
    "russians.crossbows": ("about 10 %, 5–15 %", "около 10 %, 5–15 %"),
    "saracens.archers": ("50 % or more (a high share)", "50 % или больше (высокий процент)"),
    "saracens.light_horse": ("more than 50 % (mostly)", "более 50 % (преимущественно)"),
    "spanish.knights_medium": ("more than 50 % (mostly)", "более 50 % (преимущественно)"),
    "spanish.light_javelins": ("about 50 %, 40–60 %", "около 50 %, 40–60 %"),
}
SHARE_BREAKS = [case for case in BREAKS if case.code in BANDS]


def message(doc: dict[str, Any], code: str, lang: Lang | None = None) -> str:
    roster = ChainmailRoster.model_validate(doc)
    issues: list[Issue] = validate(roster) if lang is None else validate(roster, lang)
    (found,) = [issue for issue in issues if issue.code == code]
    return found.message


SIX_ARCHERS_OF_TWENTY = army("mongols", unit(line("medium_horse", 5, "lance")),
                             unit(line("light_horse", 5, "lance")),
                             unit(line("light_horse", 6, "bow")),
                             unit(line("light_horse", 4, "javelins")))


def test_the_issues_example_reads_as_the_issue_wrote_it_in_english_by_default() -> None:
    # The issue's words, with the remedy worked out as the army changes with it: the issue
    # wrote "add 2 to 6 more" (8 to 12 of 20), but each archer added is one more figure of
    # the army too, so 2 to 17 mend it (8 of 22 … 23 of 37), and so does removing 3 to 11
    # of the 14 others (6 of 17 … 6 of 9).
    assert message(SIX_ARCHERS_OF_TWENTY, "mongols.horse_archers") == (
        "light horse with bows: 6 of 20 figures = 30 %, must be about 50 %, 40–60 % — "
        "add 2 to 17 more, or remove 3 to 11 other figures")


def test_the_issues_example_states_the_same_arithmetic_in_russian() -> None:
    text = message(SIX_ARCHERS_OF_TWENTY, "mongols.horse_archers", "ru")
    assert text == ("лёгкие всадники с луками: 6 из 20 фигур = 30 %, должно быть около 50 %, "
                    "40–60 % — добавьте ещё от 2 до 17 или уберите от 3 до 11 других фигур")
    assert CYRILLIC.search(text) and not ENGLISH_WORD.search(text)


def test_the_price_result_carries_messages_in_the_language_asked_for() -> None:
    roster = ChainmailRoster.model_validate(SIX_ARCHERS_OF_TWENTY)
    english = evaluate(roster, "en").result["issues"]
    russian = evaluate(roster, "ru").result["issues"]
    assert [i["code"] for i in english] == [i["code"] for i in russian]
    assert all(not CYRILLIC.search(i["message"]) for i in english)
    assert all(CYRILLIC.search(i["message"]) for i in russian)


@pytest.mark.parametrize("case", BREAKS, ids=case_id)
def test_every_message_is_english_by_default_and_russian_on_request(case: Case) -> None:
    english = message(case.roster, case.code)
    russian = message(case.roster, case.code, "ru")
    assert not CYRILLIC.search(english)
    assert CYRILLIC.search(russian)
    assert set(ENGLISH_WORD.findall(russian)) <= NAMES_IN_CASES


@pytest.mark.parametrize("case", SHARE_BREAKS, ids=case_id)
def test_a_share_message_gives_count_base_percentage_and_band(case: Case) -> None:
    english = message(case.roster, case.code)
    found = re.search(r": (\d+) of (\d+) [a-z' ()]*figures = ([\d.]+) %, must be ([^—]+) — ",
                      english)
    assert found, english
    count, base, percent, band = found.groups()
    assert abs(int(count) / int(base) * 100 - float(percent)) < 0.05
    assert band.strip() == BANDS[case.code][0]
    russian = message(case.roster, case.code, "ru")
    assert f"{count} из {base}" in russian
    assert f"{percent.replace('.', ',')} %" in russian  # Russian writes a decimal comma
    assert BANDS[case.code][1] in russian


def lowest_percent(band: str) -> float:
    """The lower edge of a band as the page writes it: '40–60 %' 40, 'at most 10 %' 0."""
    if band.startswith("at most"):
        return 0.0
    return float(re.search(r"\d+", band).group())


@pytest.mark.parametrize("case", SHARE_BREAKS, ids=case_id)
def test_a_share_message_says_to_add_when_short_and_remove_when_over(case: Case) -> None:
    english = message(case.roster, case.code)
    percent = float(re.search(r"= ([\d.]+) %", english).group(1))
    band = BANDS[case.code][0]
    short = percent <= lowest_percent(band) if band.startswith("more than") else \
        percent < lowest_percent(band)
    verb = "add" if short else "remove"
    assert english.split(" — ")[-1].startswith(verb)


def test_the_points_limit_message_gives_total_limit_and_excess() -> None:
    doc = army("generic", unit(line("light_foot", 20, "longbow")), points_limit=97)
    assert message(doc, "roster.over_limit") == (
        "Points limit: 100 of 97 points — remove 3 points")
    assert "100" in message(doc, "roster.over_limit", "ru")
    assert "97" in message(doc, "roster.over_limit", "ru")
    one_over = army("generic", unit(line("light_foot", 20, "longbow")), points_limit=99)
    assert message(one_over, "roster.over_limit").endswith("remove 1 point")


def test_a_fractional_excess_is_stated_exactly() -> None:
    doc = army("generic", unit(line("militia", 33), mercenary=True), points_limit=12)
    assert message(doc, "roster.over_limit").endswith("remove 0.375 points")


def test_a_unit_message_names_the_unit_by_number_and_name() -> None:
    doc = army("generic", unit(line("light_foot", 20, "longbow")),
               unit(line("heavy_foot", 5, "lance"), name="Черная стража"))
    assert message(doc, "unit.weapon_not_allowed").startswith("unit 2 “Черная стража”")
    assert message(doc, "unit.weapon_not_allowed", "ru").startswith("отряд 2 «Черная стража»")


def test_a_share_of_whole_counts_is_worded_as_its_exact_fraction_every_time() -> None:
    # The share rules word count / base from the float division, not from a Fraction: both
    # must give the same text for every share a roster can have.
    for base in range(1, 301):
        for count in range(base + 1):
            assert (percent_text(count / base, "en")
                        == percent_text(Fraction(count, base), "en")), (count, base)


@given(st.integers(min_value=1, max_value=10**7), st.data())
def test_a_share_of_large_counts_is_worded_as_its_exact_fraction(base: int, data: Any) -> None:
    count = data.draw(st.integers(min_value=0, max_value=base))
    assert percent_text(count / base, "en") == percent_text(Fraction(count, base), "en")


def test_a_rule_about_troop_types_is_mended_by_removing_one_about_arms_also_by_re_arming(
) -> None:
    foot = army("mongols", unit(line("light_horse", 10, "bow")), unit(line("light_foot", 4)))
    assert message(foot, "mongols.no_foot").endswith("— remove 4")
    assert message(foot, "mongols.no_foot", "ru").endswith("— уберите 4")
    bare = army("scots", unit(line("heavy_foot", 6, "pike")), unit(line("light_foot", 3)))
    assert message(bare, "scots.foot_pikes").endswith("— remove or re-arm 3")


def test_the_two_commander_rules_have_titles_of_their_own() -> None:
    from app.systems.chainmail.validation import assess

    def checks(doc: dict[str, Any], lang: Lang = "en") -> dict[str, str]:
        roster = ChainmailRoster.model_validate(doc)
        return {c.code: c.summary for c in assess(roster, lang)
                if c.code in ("army.commanders", "army.no_commander")}

    one = checks(army("generic", unit(line("heavy_foot", 5)), unit(line("heavy_foot", 5))))
    assert one == {
        "army.commanders": "At most one commander: units with the commander — 1 (unit 1)",
        "army.no_commander": "A commander leads the army: units with the commander — 1 (unit 1)"}
    two = army("generic", unit(line("heavy_foot", 5), flags=("commander",)),
               unit(line("heavy_foot", 5), flags=("commander",)))
    assert checks(two)["army.commanders"].endswith("— 2 (units 1, 2)")
    assert checks(two, "ru")["army.commanders"] == (
        "Не больше одного главнокомандующего: отрядов с главнокомандующим — 2 (отряды 1, 2)")
    none = army("generic", unit(line("heavy_foot", 5)), commander=False)
    assert checks(none, "ru")["army.no_commander"].startswith("Армию ведёт главнокомандующий")
