"""Any sequence of edits naming what a roster has (Chainmail's from tests/unit/strategies.py,
Formation Density's drawn here): every result is a valid roster whose ids are all set and
unique in their lists, an edit changes only what it names, a new unit takes the id after the
highest, and the list made at once is the edits made one by one."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ValidationError

from app.domain.edits import EditError, apply_edits
from app.systems import SYSTEMS
from app.systems.chainmail.roster import ChainmailRoster
from app.systems.formation_density.roster import FormationDensityRoster
from tests.unit import page_tables as page
from tests.unit import strategies

Doc = dict[str, Any]
UNIT_OPS = ("set_unit", "add_line", "set_line", "step_figures", "remove_line")


def _unit_and_line(draw: st.DrawFn, roster: Any) -> Doc:
    unit = draw(st.sampled_from([u for u in roster.units if u.lines]))
    return {"unit": unit.id, "line": draw(st.sampled_from(unit.lines)).id}


def chainmail_edit(draw: st.DrawFn, roster: ChainmailRoster) -> Doc:
    ops = ["set_roster", "add_unit", "add_engine"]
    if roster.units:
        ops += ["set_unit", "duplicate_unit", "move_unit", "remove_unit", "add_line"]
    if any(u.lines for u in roster.units):
        ops += ["set_line", "step_figures", "remove_line"]
    if roster.engines:
        ops += ["set_engine", "remove_engine"]
    op = draw(st.sampled_from(ops))
    unit = {"unit": st.sampled_from([u.id for u in roster.units])} if roster.units else {}
    troop, figures = st.sampled_from(list(page.TROOPS)), st.integers(1, 60)
    return {"op": op, **draw({
        "set_roster": st.fixed_dictionaries({}, optional={
            "points_limit": st.none() | st.integers(1, 5000), "name": strategies.roster_names,
            "nation": st.sampled_from(list(page.NATIONS))}),
        "add_unit": st.fixed_dictionaries({}, optional={
            "preset": st.sampled_from(["steppe_horse_archers", "steppe_medium_lancers"]),
            "lines": st.lists(st.fixed_dictionaries({"troop": troop, "figures": figures}),
                              max_size=2)}),
        "add_engine": st.fixed_dictionaries({"kind": st.sampled_from(list(page.ENGINES)),
                                             "count": st.integers(1, 5)}),
        "set_unit": st.fixed_dictionaries(unit, optional={
            "name": strategies.unit_names, "mercenary": st.booleans(),
            "flags": st.lists(st.sampled_from(page.FLAGS), unique=True, max_size=2)}),
        "duplicate_unit": st.fixed_dictionaries(unit),
        "remove_unit": st.fixed_dictionaries(unit),
        "move_unit": st.fixed_dictionaries({**unit, "by": st.integers(-3, 3)}),
        "add_line": st.fixed_dictionaries(unit, optional={"troop": troop}),
        "set_line": st.builds(lambda at, n: {**at, "figures": n},
                              st.composite(_unit_and_line)(roster), figures),
        "step_figures": st.builds(lambda at, by: {**at, "by": by},
                                  st.composite(_unit_and_line)(roster), st.sampled_from([-1, 1])),
        "remove_line": st.composite(_unit_and_line)(roster),
        "set_engine": st.builds(lambda e, n: {"engine": e.id, "count": n},
                                st.sampled_from(roster.engines or [None]), st.integers(1, 9)),
        "remove_engine": st.builds(lambda e: {"engine": e.id},
                                   st.sampled_from(roster.engines or [None])),
    }[op])}


FD_LINE = st.fixed_dictionaries({"class": st.just("melee_specialists"),
                                  "weapon": st.sampled_from(["sword", "axe"]),
                                  "count": st.integers(1, 30)},
                                 optional={"shield": st.booleans()})
FD_UNIT = st.fixed_dictionaries({"density": st.integers(1, 6), "files": st.integers(1, 50),
                                  "lines": st.lists(FD_LINE, min_size=1, max_size=3)},
                                 optional={"points": st.none() | st.integers(0, 40)})
FD_ROSTERS = st.builds(lambda units: {"name": "Легион", "ruleset": "formation_density",
                                      "units": units}, st.lists(FD_UNIT, max_size=4))


def formation_density_edit(draw: st.DrawFn, roster: FormationDensityRoster) -> Doc:
    ops = ["add_unit", "set_roster"]
    if roster.units:
        ops += ["set_unit", "duplicate_unit", "move_unit", "remove_unit", "add_line",
                "set_line", "remove_line"]
    op = draw(st.sampled_from(ops))
    unit = {"unit": st.sampled_from([u.id for u in roster.units])} if roster.units else {}
    return {"op": op, **draw({
        "add_unit": FD_UNIT, "set_roster": st.fixed_dictionaries({}, optional={
            "points_limit": st.none() | st.integers(1, 500)}),
        "set_unit": st.fixed_dictionaries(unit, optional={
            "points": st.none() | st.integers(0, 9), "files": st.integers(1, 50)}),
        "duplicate_unit": st.fixed_dictionaries(unit),
        "remove_unit": st.fixed_dictionaries(unit),
        "move_unit": st.fixed_dictionaries({**unit, "by": st.integers(-3, 3)}),
        "add_line": st.fixed_dictionaries(unit),
        "set_line": st.builds(lambda at, n: {**at, "count": n},
                              st.composite(_unit_and_line)(roster), st.integers(1, 30)),
        "remove_line": st.composite(_unit_and_line)(roster),
    }[op])}


def _number(item_id: str) -> int:
    found = re.fullmatch(r"[ule](\d+)", item_id)
    return int(found.group(1)) if found else 0


def _ids_hold(roster: Any) -> None:
    """Every unit, line and engine has an id, none twice in its list; the roster reads back
    from the JSON it is stored as, ids and all."""
    lists = [roster.units, *(u.lines for u in roster.units if hasattr(u, "lines")),
             getattr(roster, "engines", [])]
    for items in lists:
        found = [item.id for item in items]
        assert None not in found and len(set(found)) == len(found), found
    assert type(roster).model_validate_json(roster.model_dump_json()) == roster


def _only_what_it_names(before: Any, after: Any, edit: Doc) -> None:
    old = {u.id: u for u in before.units}
    new = {u.id: u for u in after.units}
    if edit["op"] == "remove_unit":
        old.pop(edit["unit"])
    elif edit["op"] in ("add_unit", "duplicate_unit"):
        (added,) = set(new) - set(old)
        assert _number(added) == max(map(_number, old), default=0) + 1
        new.pop(added)
    elif edit["op"] in UNIT_OPS:
        old.pop(edit["unit"])
        new.pop(edit["unit"])
    assert new == old  # every other unit as it was, whatever its place
    if edit["op"] in (*UNIT_OPS, "add_unit", "duplicate_unit", "remove_unit"):
        kept = [u.id for u in after.units if u.id in old]
        assert kept == [u.id for u in before.units if u.id in old]  # nor their order


def _run(data: st.DataObject, roster: BaseModel,
         draw_edit: Any, steps: int) -> None:
    edits = SYSTEMS[roster.ruleset].edits  # type: ignore[attr-defined]
    start, made = roster, []
    for _ in range(steps):
        edit = data.draw(st.composite(draw_edit)(roster))
        try:
            after = apply_edits(roster, edits.validate_python([edit]), "en")
        except (EditError, ValidationError):  # a limit reached: refused, nothing made
            continue
        _ids_hold(after)
        _only_what_it_names(roster, after, edit)
        roster = after
        made.append(edit)
    assert apply_edits(start, edits.validate_python(made), "en") == roster


@settings(max_examples=60, deadline=None)
@given(doc=strategies.rosters, data=st.data())
def test_any_chainmail_edits_keep_ids_unique_and_touch_only_what_they_name(
        doc: Doc, data: st.DataObject) -> None:
    roster = ChainmailRoster.model_validate(doc)
    _ids_hold(roster)
    _run(data, roster, chainmail_edit, 8)


@settings(max_examples=40, deadline=None)
@given(doc=FD_ROSTERS, data=st.data())
def test_any_formation_density_edits_keep_ids_unique_and_touch_only_what_they_name(
        doc: Doc, data: st.DataObject) -> None:
    roster = FormationDensityRoster.model_validate(doc)
    _ids_hold(roster)
    _run(data, roster, formation_density_edit, 8)
