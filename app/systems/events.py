"""An event's own rules (a club night's, a tournament's) and the check of a roster against them.

The rules are data the event keeps: the rule system, a points limit, the nations allowed,
whether armies must be historical, and caps (at most N units or figures of a troop type, no
engines, no mercenaries). `judge` puts their issues beside the roster's own (its nation's
rules, from the rule system's `evaluate`) and gives the list's verdict: ✓, ! or ✗.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, field_validator, model_validator

from app.domain import limits
from app.domain.base import Issue, Lang, Severity, Verdict, points_text, whole_in
from app.domain.catalogue_entries import Named
from app.domain.player_text import RosterName
from app.domain.system import Evaluation
from app.domain.translations import tr
from app.systems import SYSTEMS

MAX_CAPS = 20
RulesetId = Literal.__getitem__(tuple(SYSTEMS))  # type: ignore[attr-defined]


def entries(group: str) -> dict[str, Named]:
    """A catalogue list (troop types, nations) of every system that has one, by id: what an
    event's caps and nations may name."""
    return {key: entry for system in SYSTEMS.values()
            for key, entry in system.entries.get(group, {}).items()}


def _ids(group: str) -> tuple[str, ...]:
    return tuple(entries(group))


TroopId = Literal.__getitem__(_ids("troop_types"))  # type: ignore[attr-defined]
NationId = Literal.__getitem__(_ids("nations"))  # type: ignore[attr-defined]


class _Rules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Cap(_Rules):
    """At most `most` units (or figures) of one troop type in an army."""

    count: Literal["units", "figures"] = Field(
        description="units: units with a line of the troop type; figures: its figures")
    troop: TroopId = Field(description="a Chainmail troop type (the other rule systems' "  # type: ignore[valid-type]
                                       "lists have none, so never break a cap)")
    most: whole_in(0, limits.MAX_FIGURES) = Field(  # type: ignore[valid-type]
        description="the most the event allows")


class EventRules(_Rules):
    name: RosterName
    date: dt.date = Field(description="the day the event is played")
    ruleset: RulesetId = Field(description="the rule system every list must use")  # type: ignore[valid-type]
    points_limit: whole_in(1, limits.MAX_POINTS_LIMIT) | None = Field(  # type: ignore[valid-type]
        default=None, description="the most an army may cost; none: no limit")
    nations: list[NationId] | None = Field(  # type: ignore[valid-type]
        default=None, max_length=len(_ids("nations")), json_schema_extra={"uniqueItems": True},
        description="the Chainmail nations allowed (the other rule systems' lists have none, "
                    "so keep none of these); none: all")
    historical: bool = Field(default=False, description="armies must be historical")
    deadline: AwareDatetime = Field(description="lists are handed in until then")
    caps: list[Cap] = Field(default_factory=list, max_length=MAX_CAPS)
    no_engines: bool = False
    no_mercenaries: bool = False

    # Lax for the date and deadline only: JSON has no dates, they come as ISO text.
    @model_validator(mode="before")
    @classmethod
    def _dates_from_text(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            for name, kind in (("date", dt.date), ("deadline", dt.datetime)):
                if isinstance(data.get(name), str):
                    # Text that is no ISO date is left as it came: the field itself refuses it,
                    # by its name.
                    with contextlib.suppress(ValueError):
                        data[name] = kind.fromisoformat(data[name])
        return data

    @field_validator("nations")
    @classmethod
    def _nations_once(cls, nations: list[str] | None) -> list[str] | None:
        if nations is not None and len(set(nations)) != len(nations):
            raise ValueError("each nation may appear only once")
        return nations

    def passed(self, now: dt.datetime) -> bool:
        """Whether the deadline has passed at `now`: hand-ins are closed."""
        return now >= self.deadline


MARKS = {Verdict.legal: "✓", Verdict.warnings: "!", Verdict.broken: "✗"}


@dataclass(frozen=True)
class Judgement:
    """A list as the event sees it: the event's issues, the roster's own, and the verdict."""

    verdict: Verdict
    event_issues: list[Issue]
    evaluation: Evaluation

    @property
    def mark(self) -> str:
        return MARKS[self.verdict]

    @property
    def issues(self) -> list[Issue]:
        """Everything unkept: the event's rules first, then the army's own."""
        return [*self.event_issues, *self.evaluation.issues]


def _name(rules: EventRules, group: str, key: str, lang: Lang) -> str:
    entry = SYSTEMS[rules.ruleset].entries.get(group, {}).get(key)
    return entry.name(lang) if entry is not None else key


def _lines(document: Any) -> list[tuple[Any, Any]]:
    return [(unit, line) for unit in getattr(document, "units", ())
            for line in getattr(unit, "lines", ())]


def _cap_issue(rules: EventRules, cap: Cap, document: Any, lang: Lang) -> Issue | None:
    lines = [(u, ln) for u, ln in _lines(document) if getattr(ln, "troop", None) == cap.troop]
    troop = _name(rules, "troop_types", cap.troop, lang)
    if cap.count == "units":
        found = len({id(u) for u, _ in lines})
        if found <= cap.most:
            return None
        return Issue("event.cap_units", Severity.error, tr(
            lang, "The event allows at most %(most)s units of %(troop)s; the army has "
            "%(found)s.", most=cap.most, troop=troop, found=found))
    found = sum(int(ln.figures) for _, ln in lines)
    if found <= cap.most:
        return None
    return Issue("event.cap_figures", Severity.error, tr(
        lang, "The event allows at most %(most)s figures of %(troop)s; the army has "
        "%(found)s.", most=cap.most, troop=troop, found=found))


def check(rules: EventRules, document: Any, total: float, lang: Lang) -> list[Issue]:
    """The event's rules that `document` (costing `total`) does not keep, each with its code
    and a sentence in `lang`."""
    if str(document.ruleset) != rules.ruleset:
        system = SYSTEMS[rules.ruleset].name(lang)
        return [Issue("event.ruleset", Severity.error, tr(
            lang, "The event is played with %(system)s; this army is for another rule "
            "system.", system=system))]
    issues = []
    if rules.points_limit is not None and total > rules.points_limit:
        issues.append(Issue("event.points_limit", Severity.error, tr(
            lang, "The army costs %(total)s points, over the event's limit of %(limit)s.",
            total=points_text(Fraction(total), lang), limit=rules.points_limit)))
    nation = getattr(document, "nation", None)
    if rules.nations is not None and nation not in rules.nations:
        allowed = ", ".join(_name(rules, "nations", n, lang) for n in rules.nations)
        issues.append(Issue("event.nation", Severity.error, tr(
            lang, "%(nation)s may not play at this event (allowed: %(allowed)s).",
            nation=_name(rules, "nations", str(nation), lang), allowed=allowed)))
    if rules.historical and not getattr(document, "historical", True):
        issues.append(Issue("event.historical", Severity.error, tr(
            lang, "The event requires a historical army.")))
    issues += [i for cap in rules.caps if (i := _cap_issue(rules, cap, document, lang))]
    if rules.no_engines and getattr(document, "engines", None):
        issues.append(Issue("event.no_engines", Severity.error, tr(
            lang, "The event allows no engines; the army has some.")))
    mercenaries = [u for u in getattr(document, "units", ()) if getattr(u, "mercenary", False)]
    mercenaries += [e for e in getattr(document, "engines", ()) if getattr(e, "mercenary", False)]
    if rules.no_mercenaries and mercenaries:
        issues.append(Issue("event.no_mercenaries", Severity.error, tr(
            lang, "The event allows no mercenaries; the army has some.")))
    return issues


def judge(rules: EventRules, document: Any, lang: Lang) -> Judgement:
    """`document` against the event's rules and its own nation's: ✗ when either is broken,
    ! when only the army's own rules warn, else ✓."""
    system = SYSTEMS[str(document.ruleset)]
    evaluation = system.evaluate(document, lang)
    event_issues = check(rules, document, float(evaluation.result["total"]), lang)
    verdict = Verdict.broken if event_issues else evaluation.verdict
    return Judgement(verdict, event_issues, evaluation)


def reminder(rules: EventRules, player: str, judgement: Judgement, lang: Lang) -> str:
    """A note to send a player whose list breaks a rule: what is wrong, one line each."""
    wrong = [i.message for i in judgement.issues if i.severity is not Severity.info]
    if not wrong:
        return tr(lang, "%(player)s, your list for %(event)s keeps every rule.",
                  player=player, event=rules.name)
    head = tr(lang, "%(player)s, your list for %(event)s needs changes before %(deadline)s:",
              player=player, event=rules.name,
              deadline=rules.deadline.strftime("%Y-%m-%d %H:%M %Z"))
    return "\n".join([head, *(f"– {line}" for line in wrong)])


@dataclass(frozen=True)
class Replaced:
    """What a list was before one of its replacements (the organiser sees them all)."""

    player: str
    name: str  # the army's
    nation: str | None
    roster_version: int | None
    handed_in_at: dt.datetime
    replaced_at: dt.datetime


@dataclass(frozen=True)
class HandedIn:
    """A list handed in to an event, as kept: the document at the version handed in, and
    (for the organiser) what it replaced, oldest first."""

    id: str
    player: str
    roster_id: str | None  # none: handed in as an exported file
    roster_version: int | None
    document: BaseModel
    handed_in_at: dt.datetime
    replaced: tuple[Replaced, ...] = ()

    def judged(self, rules: EventRules, lang: Lang) -> Judgement:
        return judge(rules, self.document, lang)
