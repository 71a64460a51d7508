"""Properties every roster has, checked on generated schema-valid documents."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.domain.base import LANGS
from app.systems.chainmail import evaluate, price
from app.systems.chainmail.roster import ChainmailRoster
from tests.unit import page_tables as page
from tests.unit.rule_cases import ALL_CODES, NATIONAL_CODES, UNIT_CODES
from tests.unit.strategies import engines, rosters, units

PROPERTY = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def parse(doc: dict[str, Any]) -> ChainmailRoster:
    return ChainmailRoster.model_validate(doc)


def page_total(doc: dict[str, Any]) -> Fraction:
    """The total by the rules page's tables, independent of the pricing code."""
    total = Fraction(0)
    for u in doc.get("units", []):
        for ln in u["lines"]:
            total += ln["figures"] * page.figure_cost(ln["troop"], ln.get("weapon", "none"),
                                                      u.get("mercenary", False))
    for e in doc.get("engines", []):
        each = page.ENGINES[e["kind"]][2]
        total += e["count"] * (each / 2 if e.get("mercenary", False) else each)
    return total


@PROPERTY
@given(rosters)
def test_the_total_is_the_sum_of_the_lines_and_engines(doc: dict[str, Any]) -> None:
    priced = price(parse(doc))
    lines = sum((ln.cost for u in priced.units for ln in u.lines), Fraction(0))
    assert priced.total == lines + sum((e.cost for e in priced.engines), Fraction(0))
    assert priced.total == page_total(doc)
    assert all(u.cost == sum((ln.cost for ln in u.lines), Fraction(0)) for u in priced.units)


@PROPERTY
@given(rosters)
def test_the_json_total_is_the_exact_total(doc: dict[str, Any]) -> None:
    result = evaluate(parse(doc), "en").result
    assert Fraction(result["total"]) == page_total(doc)
    if doc.get("points_limit") is not None:
        assert Fraction(result["remaining"]) == doc["points_limit"] - page_total(doc)


@PROPERTY
@given(units)
def test_a_mercenary_unit_costs_exactly_half_the_same_unit_hired_loyally(
        u: dict[str, Any]) -> None:
    def alone(mercenary: bool) -> Fraction:
        doc = {"name": "x", "ruleset": "chainmail", "units": [u | {"mercenary": mercenary}]}
        return price(parse(doc)).total

    assert alone(True) * 2 == alone(False)


@PROPERTY
@given(engines)
def test_a_mercenary_engine_costs_exactly_half(e: dict[str, Any]) -> None:
    def alone(mercenary: bool) -> Fraction:
        doc = {"name": "x", "ruleset": "chainmail", "engines": [e | {"mercenary": mercenary}]}
        return price(parse(doc)).total

    assert alone(True) * 2 == alone(False)


@PROPERTY
@given(rosters, st.data())
def test_adding_figures_never_lowers_the_cost(doc: dict[str, Any], data: st.DataObject) -> None:
    places = [(i, j) for i, u in enumerate(doc.get("units", [])) for j in range(len(u["lines"]))]
    bigger = copy.deepcopy(doc)
    if places:
        i, j = data.draw(st.sampled_from(places))
        target = bigger["units"][i]["lines"][j]
        target["figures"] = min(100_000, target["figures"] + data.draw(st.integers(1, 500)))
    else:
        bigger.setdefault("units", []).append({"lines": [{"troop": "peasant", "figures": 1}]})
    assert price(parse(bigger)).total >= price(parse(doc)).total


@PROPERTY
@given(rosters, units)
def test_adding_a_unit_never_lowers_the_cost(doc: dict[str, Any], extra: dict[str, Any]) -> None:
    if len(doc.get("units", [])) >= 500:
        return
    bigger = doc | {"units": [*doc.get("units", []), extra]}
    assert price(parse(bigger)).total >= price(parse(doc)).total


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rosters)
def test_any_schema_valid_roster_is_priced_and_judged_in_both_languages(
        doc: dict[str, Any]) -> None:
    roster = parse(doc)
    n_units = len(roster.units)
    for lang in LANGS:
        result = evaluate(roster, lang).result
        issues = result["issues"]
        assert {i["code"] for i in issues} <= set(ALL_CODES)
        assert result["valid"] is not any(i["severity"] == "error" for i in issues)
        assert all(i["message"] for i in issues)
        for issue in issues:
            if issue["code"] in UNIT_CODES:
                assert issue["unit"] is not None and 0 <= issue["unit"] < n_units
            else:
                assert issue["unit"] is None
        codes = [(i["code"], i["unit"]) for i in issues]
        assert len(codes) == len(set(codes))  # once per roster, or once per unit
        national = [i for i in issues if i["code"] in NATIONAL_CODES]
        assert all(i["code"].startswith(f"{roster.nation}.") for i in national)
        if not roster.historical:
            assert all(i["severity"] == "info" for i in national)
        else:
            assert all(i["severity"] == ALL_CODES[i["code"]] for i in issues)
        foot = sum(ln.figures for u in roster.units for ln in u.lines
                   if page.TROOPS[ln.troop][2] == "foot")
        horse = sum(ln.figures for u in roster.units for ln in u.lines
                    if page.TROOPS[ln.troop][2] == "horse")
        assert (result["foot"], result["horse"], result["figures"]) == (foot, horse, foot + horse)


@PROPERTY
@given(rosters)
def test_both_languages_report_the_same_issues(doc: dict[str, Any]) -> None:
    roster = parse(doc)
    english, russian = (evaluate(roster, lang).result for lang in LANGS)
    assert [(i["code"], i["severity"], i["unit"]) for i in english["issues"]] == [
        (i["code"], i["severity"], i["unit"]) for i in russian["issues"]]
    assert english["total"] == russian["total"]
