"""§5 and §6 of the rules page: every rule code, broken and kept, with its severity."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.base import Issue, Lang
from app.systems.chainmail import evaluate, validate
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit.rule_cases import (
    ALL_CODES,
    BREAKS,
    KEEPS,
    LAWFUL,
    NATIONAL_CODES,
    ORGANISATION_CODES,
    UNIT_CODES,
    Case,
    army,
    case_id,
    line,
    unit,
)

NATIONAL_BREAKS = [case for case in BREAKS if case.code in NATIONAL_CODES]


def issues_of(doc: dict[str, Any], lang: Lang = "en") -> list[Issue]:
    return validate(ChainmailRoster.model_validate(doc), lang)


def test_every_code_of_the_rules_page_has_a_roster_that_breaks_it_and_one_that_keeps_it() -> None:
    assert {case.code for case in BREAKS} == set(ALL_CODES)
    assert {case.code for case in KEEPS} == set(ALL_CODES)


@pytest.mark.parametrize("case", BREAKS, ids=case_id)
def test_a_broken_rule_is_reported_once_with_the_severity_of_its_table(case: Case) -> None:
    found = [issue for issue in issues_of(case.roster) if issue.code == case.code]
    assert [(issue.severity.value, issue.unit) for issue in found] == [(case.severity, case.unit)]


@pytest.mark.parametrize("case", KEEPS, ids=case_id)
def test_a_kept_rule_is_not_reported(case: Case) -> None:
    assert case.code not in {issue.code for issue in issues_of(case.roster)}


@pytest.mark.parametrize("case", NATIONAL_BREAKS, ids=case_id)
def test_a_non_historical_roster_hears_of_broken_national_rules_only_as_information(
        case: Case) -> None:
    result = evaluate(ChainmailRoster.model_validate(case.roster | {"historical": False}),
                      "en").result
    found = [issue for issue in result["issues"] if issue["code"] == case.code]
    assert [issue["severity"] for issue in found] == ["info"]
    assert all(issue["severity"] == "info" for issue in result["issues"]
               if issue["code"] in NATIONAL_CODES)
    assert result["valid"] is True


@pytest.mark.parametrize("nation", list(LAWFUL))
def test_a_lawful_historical_army_is_valid_and_breaks_no_national_rule(nation: str) -> None:
    result = evaluate(ChainmailRoster.model_validate(LAWFUL[nation]), "en").result
    assert [issue["code"] for issue in result["issues"]] == []
    assert result["valid"] is True


@pytest.mark.parametrize("nation", list(LAWFUL))
def test_a_historical_army_of_another_nation_is_judged_by_that_nations_rules(
        nation: str) -> None:
    # The Mongol horde sent in under each other nation's banner: only that nation's codes show.
    horde = LAWFUL["mongols"] | {"nation": nation}
    codes = {issue.code for issue in issues_of(horde)}
    assert all(code.startswith(f"{nation}.") for code in codes & set(NATIONAL_CODES))


def test_a_generic_army_has_no_national_rules() -> None:
    # Heavy horse, foot of every kind without pikes, longbows, nothing but foot: all fine.
    anything = army("generic",
                    unit(line("heavy_horse", 30, "lance")),
                    unit(line("armored_foot", 40)),
                    unit(line("militia", 50, "polearm")),
                    unit(line("peasant", 60)),
                    unit(line("light_foot", 20, "longbow")),
                    unit(line("light_horse", 10, "crossbow")))
    assert issues_of(anything) == []
    for case in BREAKS:
        generic = case.roster | {"nation": "generic"}
        assert {issue.code for issue in issues_of(generic)} <= set(ORGANISATION_CODES)


@pytest.mark.parametrize("nation", [n for n in LAWFUL if n != "generic"])
def test_an_empty_army_breaks_no_national_rule_because_every_base_is_zero(nation: str) -> None:
    assert [i.code for i in issues_of(army(nation)) if i.code in NATIONAL_CODES] == []


def test_a_national_code_is_reported_once_however_many_units_break_it() -> None:
    doc = army("mongols", unit(line("light_foot", 5)), unit(line("heavy_foot", 5)),
               unit(line("heavy_horse", 5, "lance")), unit(line("heavy_horse", 5)))
    codes = [issue.code for issue in issues_of(doc)]
    assert codes.count("mongols.no_foot") == 1
    assert codes.count("mongols.horse_types") == 1
    assert all(issue.unit is None for issue in issues_of(doc) if issue.code in NATIONAL_CODES)


def test_a_unit_code_is_reported_once_for_each_unit_it_concerns_with_that_units_index() -> None:
    mixed = unit(line("light_foot", 5), line("heavy_foot", 5))
    doc = army("generic", mixed, unit(line("heavy_foot", 10, "pike")), mixed,
               unit(line("light_horse", 3, "pike"), line("light_horse", 3, "polearm")))
    issues = issues_of(doc)
    assert [i.unit for i in issues if i.code == "unit.mixed_types"] == [0, 2]
    # Two wrong weapons in one unit are still one issue about that unit.
    assert [i.unit for i in issues if i.code == "unit.weapon_not_allowed"] == [3]


def test_army_wide_codes_name_no_unit() -> None:
    doc = army("generic", unit(line("heavy_foot", 1), flags=("commander",)),
               unit(line("heavy_foot", 1), flags=("commander",)), points_limit=1)
    for issue in issues_of(doc):
        assert issue.code not in UNIT_CODES
        assert issue.unit is None


def test_three_commanders_are_one_issue_not_two() -> None:
    leader = unit(line("heavy_horse", 1, "lance"), flags=("commander",))
    codes = [issue.code for issue in issues_of(army("generic", leader, leader, leader))]
    assert codes == ["army.commanders"]


def test_fortifications_waive_only_the_magyar_foot_share() -> None:
    crowded = [case.roster for case in BREAKS if case.code == "magyars.foot_share"][0]
    assert "magyars.foot_share" in {i.code for i in issues_of(crowded)}
    assert issues_of(crowded | {"fortifications": True}) == []
    heavy = [case.roster for case in BREAKS if case.code == "magyars.foot_types"][0]
    assert "magyars.foot_types" in {i.code for i in issues_of(heavy | {"fortifications": True})}


def test_the_same_horde_is_too_few_archers_for_mongols_but_enough_for_tatars() -> None:
    # 5 archers of 17: under floor(0.4·17) = 6 for Mongols, at floor(0.3·17) = 5 for Tatars.
    horde = army("mongols", unit(line("medium_horse", 6, "lance")),
                 unit(line("light_horse", 6, "lance")), unit(line("light_horse", 5, "bow")))
    assert [i.code for i in issues_of(horde)] == ["mongols.horse_archers"]
    assert issues_of(horde | {"nation": "tatars"}) == []


def test_historical_is_the_default_when_a_nation_is_chosen() -> None:
    doc = army("mongols", unit(line("light_foot", 20)))
    assert ChainmailRoster.model_validate(doc).historical is True
    severities = {i.code: i.severity.value for i in issues_of(doc)}
    assert severities["mongols.no_foot"] == "error"


@pytest.mark.parametrize("case", BREAKS, ids=case_id)
def test_valid_is_false_exactly_when_an_error_is_reported(case: Case) -> None:
    result = evaluate(ChainmailRoster.model_validate(case.roster), "en").result
    assert result["valid"] is (case.severity != "error")
    assert result["valid"] is not any(i["severity"] == "error" for i in result["issues"])
