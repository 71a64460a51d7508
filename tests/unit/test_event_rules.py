"""An event's own rules against a roster: each rule's code and sentence, in both languages,
beside the army's own verdict."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from app.domain.base import Verdict
from app.systems import RosterDocument
from app.systems.events import EventRules, judge, reminder
from tests.helpers.events import event, mongols, poles_with_engine, russians

DOCUMENT: TypeAdapter[Any] = TypeAdapter(RosterDocument)


def judged(rules: dict[str, Any], roster: dict[str, Any], lang: str = "en") -> Any:
    return judge(EventRules.model_validate(rules), DOCUMENT.validate_python(roster), lang)  # type: ignore[arg-type]


def codes(judgement: Any) -> list[str]:
    return [i.code for i in judgement.event_issues]


def test_a_legal_army_within_the_event_is_a_tick() -> None:
    judgement = judged(event(), mongols())
    assert (judgement.verdict, judgement.mark, codes(judgement)) == (Verdict.legal, "✓", [])


@pytest.mark.parametrize(("roster", "code"), [
    (mongols(scale=4), "event.points_limit"), (russians(), "event.nation"),
    (poles_with_engine(), "event.no_engines")])
def test_each_event_rule_broken_alone_is_a_cross(roster: dict[str, Any], code: str) -> None:
    judgement = judged(event(), roster)
    assert judgement.evaluation.verdict is Verdict.legal  # the army keeps its own rules
    assert (judgement.mark, codes(judgement)) == ("✗", [code])


def test_caps_mercenaries_history_and_rule_system() -> None:
    roster = {**mongols(), "historical": False}
    roster["units"][2]["mercenary"] = True
    rules = event(caps=[{"count": "units", "troop": "light_horse", "most": 1},
                        {"count": "figures", "troop": "medium_horse", "most": 4}],
                  no_mercenaries=True)
    assert codes(judged(rules, roster)) == ["event.historical", "event.cap_units",
                                            "event.cap_figures", "event.no_mercenaries"]
    other = judged(event(ruleset="line_and_square"),
                   mongols())
    assert codes(other) == ["event.ruleset"]


def test_the_sentences_are_in_the_pages_language() -> None:
    english = judged(event(), russians(), "en").event_issues[0].message
    russian = judged(event(), russians(), "ru").event_issues[0].message
    assert "Russians" in english and "Mongols, Poles" in english
    assert "Русские" in russian and "Монголы" in russian and "may not" not in russian


def test_the_reminder_names_what_is_wrong() -> None:
    rules = EventRules.model_validate(event())
    text = reminder(rules, "Ян", judge(rules, DOCUMENT.validate_python(poles_with_engine()),
                                        "en"), "en")
    assert text.startswith("Ян, your list for Зимний турнир") and "no engines" in text


@pytest.mark.parametrize("change", [
    {"nations": ["atlantis"]}, {"caps": [{"count": "units", "troop": "dragon", "most": 1}]},
    {"deadline": "2026-12-01T10:00:00"}, {"points_limit": 0}, {"name": " "},
    {"extra": True}])
def test_refused_rules(change: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        EventRules.model_validate(event(**change))
