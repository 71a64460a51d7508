"""The one service for every roster change (app/services/edits.py), on each database: edits
by id as one version or none, undo as a new version, the version checked."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from sqlmodel import Session

from app.domain.edits import EditError
from app.services import edits, rosters
from app.services.errors import RevisionNotFound, VersionConflict
from app.services.kept_evaluations import judgement


def _army(session: Session) -> str:
    created = rosters.create_roster(session, {
        "name": "Орда", "ruleset": "chainmail", "nation": "mongols", "points_limit": 300,
        "units": [{"name": "Кешиг", "lines": [{"troop": "medium_horse", "figures": 10,
                                               "weapon": "lance"}]}]})
    return created.roster.id


def test_edits_by_id_make_one_new_version(session: Session) -> None:
    roster_id = _army(session)
    done = edits.edit_roster(session, roster_id, [
        {"op": "add_unit", "preset": "steppe_horse_archers"},
        {"op": "set_line", "unit": "u1", "line": "l1", "figures": 12},
        {"op": "move_unit", "unit": "u2", "by": -1},
    ], 1, "en")
    assert done.changed and done.roster.version == 2
    units = done.roster.document.units
    assert [u.id for u in units] == ["u2", "u1"]
    assert units[1].lines[0].figures == 12
    assert judgement(done.roster, "en").result["total"] == rosters.get_roster(
        session, roster_id).document.units[1].lines[0].figures * 4 + 60


def test_an_edit_that_cannot_be_made_makes_none_of_the_list(session: Session) -> None:
    roster_id = _army(session)
    with pytest.raises(EditError) as refused:
        edits.edit_roster(session, roster_id, [
            {"op": "set_line", "unit": "u1", "line": "l1", "figures": 12},
            {"op": "remove_unit", "unit": "u9"}], 1, "en")
    assert refused.value.edit == 1 and refused.value.field == "unit"
    with pytest.raises(ValidationError):
        edits.edit_roster(session, roster_id, [{"op": "set_line", "unit": "u1", "line": "l1",
                                                "figures": 0}], 1, "en")
    assert rosters.get_roster(session, roster_id).version == 1


def test_a_stale_version_is_a_conflict_and_undo_is_a_new_version(session: Session) -> None:
    roster_id = _army(session)
    edits.edit_roster(session, roster_id, [{"op": "remove_unit", "unit": "u1"}], 1, "en")
    with pytest.raises(VersionConflict):
        edits.edit_roster(session, roster_id, [{"op": "remove_unit", "unit": "u1"}], 1, "en")
    undone = edits.revert_to(session, roster_id, None, 2, "en")
    assert undone.roster.version == 3 and undone.roster.document.units[0].id == "u1"
    with pytest.raises(RevisionNotFound):
        edits.revert_to(session, roster_id, 3, 3, "en")
