""""Formation Density" pages of its own: the melee calculator (`/calc/melee`, and its JSON twin
`POST /api/v1/rulesets/formation_density/melee`) and the rules page it is linked from.

The calculator page is a GET form over units of stored rosters of this rule system: it works
without JavaScript, and htmx swaps only the result (and the unit pickers when a roster is added).
The API also takes units written out in the body.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from starlette.responses import RedirectResponse, Response

from app.domain.base import Lang, percent_text
from app.http.deps import SessionDep, is_id, pasted_roster_id
from app.services import rosters
from app.services.errors import RosterDeleted, RosterNotFound
from app.systems import get_system
from app.systems.formation_density import Unit, exchange, melee_json, rule_titles
from app.systems.formation_density import catalogue as cat
from app.web import i18n
from app.web.templating import render

router = APIRouter()

# ---------------------------------------------------------------- the API body

# ---------------------------------------------------------------- the calculator page

MAX_ROSTERS = 6


@dataclass(frozen=True)
class Choice:
    value: str  # "<roster id>:<unit index>"
    roster: str
    roster_name: str
    index: int
    label: str
    unit: Unit


@dataclass(frozen=True)
class Bar:
    value: int
    x: float
    y: float
    width: float
    height: float
    share: str
    exact: str  # the probability as a fraction, "3/8", shown on hover and in the table


def share_text(p: Fraction, lang: Lang) -> str:
    """A probability as a percentage for display only: tiny ones are not shown as 0."""
    if 0 < p < Fraction(1, 2000):
        return f"<{percent_text(Fraction(1, 1000), lang)}"
    return percent_text(p, lang)


def bars(stat: dict[str, Any], lang: Lang, width: float = 100,
         height: float = 36) -> dict[str, Any]:
    """A bar chart of a distribution in a width × height box, one bar per whole number."""
    points = [(d["value"], Fraction(d["probability"])) for d in stat["distribution"]]
    low, high = points[0][0], points[-1][0]
    span = high - low + 1
    step = width / span
    tallest = max(p for _, p in points)
    out = [Bar(v, round((v - low) * step + step * 0.1, 3),
               round(height - float(p / tallest) * height, 3), round(step * 0.8, 3),
               round(float(p / tallest) * height, 3), share_text(p, lang), str(p))
           for v, p in points]
    mean = Fraction(stat["expectation"])
    return {"bars": out, "low": low, "high": high, "width": width, "height": height,
            "mean_x": round(float((mean - low) * step + step / 2), 3),
            "rows": [(bar.value, bar.share, bar.exact) for bar in out]}


def _choices(session: Any, ids: list[str], lang: Lang) -> tuple[list[Choice], list[str],
                                                               list[str]]:
    """The units offered, the rosters they come from, and what could not be read."""
    choices: list[Choice] = []
    loaded: list[str] = []
    problems: list[str] = []
    for roster_id in ids:
        if roster_id in loaded:
            continue
        try:
            stored = rosters.get_roster(session, roster_id)
        except RosterDeleted as gone:  # the API answers 410: it is not unknown
            problems.append(i18n.gettext(
                "Roster %(id)s was deleted. Its owner can restore it until %(date)s.")
                % {"id": roster_id, "date": gone.restorable_until.date().isoformat()})
            continue
        except RosterNotFound:
            problems.append(i18n.gettext("There is no roster %(id)s.") % {"id": roster_id})
            continue
        if stored.ruleset != cat.RULESET_ID:
            problems.append(i18n.gettext(
                "Roster %(id)s is not a Formation Density roster.") % {"id": roster_id})
            continue
        loaded.append(stored.id)
        for i, unit in enumerate(stored.document.units):  # type: ignore[attr-defined]
            name = unit.name or i18n.gettext("Unit %(n)s") % {"n": i + 1}
            label = f"{i + 1}. {name} ({unit.warriors})"
            choices.append(Choice(f"{stored.id}:{i}", stored.id, stored.name, i, label, unit))
    return choices, loaded, problems


def _wanted(params: Any, picked: dict[str, str]) -> tuple[list[str], list[str]]:
    """The rosters the page's address asks for (its `roster` and `add` fields, and those of
    the units picked), at most MAX_ROSTERS; and what of it names no roster."""
    wanted: list[str] = []
    problems: list[str] = []
    for raw in [*params.getlist("roster"), params.get("add", "")]:
        if not raw.strip():
            continue
        roster_id = pasted_roster_id(raw[:300])
        if roster_id is None:
            problems.append(i18n.gettext("%(text)s is not a roster link or id.")
                            % {"text": raw[:80]})
        else:
            wanted.append(roster_id)
    for value in picked.values():
        roster_id = value.partition(":")[0]
        if roster_id and is_id(roster_id):
            wanted.append(roster_id)
    return list(dict.fromkeys(wanted))[:MAX_ROSTERS], problems


def _charts(result: dict[str, Any], lang: Lang) -> dict[str, dict[str, Any]]:
    """Each side's bars: hits, blocked and lost, and lost when parrying with swords."""
    charts: dict[str, dict[str, Any]] = {}
    for side in ("a", "b"):
        charts[side] = {key: bars(result[side][key], lang)
                        for key in ("hits", "blocked", "lost")}
        if result[side]["parrying"]:
            charts[side]["parried_lost"] = bars(result[side]["parrying"]["lost"], lang)
    return charts


@router.get("/calc/melee", include_in_schema=False,
            dependencies=[Depends(i18n.page_language)])
def melee_page(request: Request, session: SessionDep) -> Response:
    lang = i18n.request_lang(request)
    params = request.query_params
    add = params.get("add", "")
    if "key=" in add.lower() and (roster_id := pasted_roster_id(add[:300])) is not None:
        # An edit link pasted here: its roster is read by its public id, and the key leaves
        # the address (and the history htmx pushes, which follows the redirect) at once.
        kept = [(k, v) for k, v in params.multi_items() if k != "add"] + [("roster", roster_id)]
        return RedirectResponse(f"/calc/melee?{urlencode(kept)}", status_code=303,
                                headers={"Cache-Control": "no-store"})
    picked = {side: params.get(side, "") for side in ("a", "b")}
    wanted, problems = _wanted(params, picked)
    choices, loaded, unreadable = _choices(session, wanted, lang)
    problems += unreadable
    by_value = {c.value: c for c in choices}
    for side, default in (("a", 0), ("b", 1)):
        if picked[side] not in by_value:
            if picked[side]:
                problems.append(i18n.gettext("Side %(side)s: that unit is not in the rosters "
                                             "above.") % {"side": side.upper()})
            picked[side] = choices[min(default, len(choices) - 1)].value if choices else ""
    result = None
    charts: dict[str, dict[str, Any]] = {}
    if picked["a"] and picked["b"]:
        a, b = by_value[picked["a"]], by_value[picked["b"]]
        result = melee_json(exchange(a.unit, b.unit), lang,
                            ((a.roster, a.index), (b.roster, b.index)))
        charts = _charts(result, lang)
    groups: dict[str, list[Choice]] = {}
    for choice in choices:
        groups.setdefault(choice.roster, []).append(choice)
    # A roster link that could not be added stays in its field, to be mended: cleared, the
    # form's next request (say, the Compute button after the field's change) would answer
    # "nothing to add" over the problem before the player had read it.
    add = params.get("add", "").strip()[:300]
    kept_add = add if add and pasted_roster_id(add) not in loaded else ""
    context = {
        "groups": list(groups.values()), "rosters": loaded, "picked": picked, "add": kept_add,
        "problems": problems, "result": result, "charts": charts, "names": _names(lang),
        "chosen": {side: by_value.get(picked[side]) for side in ("a", "b")},
        "rule_titles": rule_titles(lang),
    }
    blocks = ["pickers", "result"] if "add" in params else ["result"]
    return render(request, "calc/melee.html", context, blocks=blocks,
                  status_code=422 if problems and result is None else 200)


def _names(lang: Lang) -> dict[str, dict[str, str]]:
    system = get_system(cat.RULESET_ID)
    assert system is not None
    return system.names(lang)
