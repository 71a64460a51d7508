"""A roster's stored verdict (legal, warnings, broken) on SQLite and PostgreSQL: written with
every version by the one write path, and what "my rosters" sorts by."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from sqlmodel import Session, select

from app.domain.base import Verdict
from app.services import devices, rosters
from app.storage.tables import Roster
from app.systems import RosterDocument
from tests.helpers.documents import army


def judged(kind: str, name: str = "Войско") -> Any:
    """A generic army (no national rules) that is legal, legal with one warning (no unit is
    the commander's), or broken (over its 300-point limit)."""
    changes: dict[str, Any] = {"broken": {"figures": 100}}.get(kind, {})
    raw = army(name, nation="generic", **changes)
    if kind == "warnings":
        raw["units"][0]["flags"] = []
    return TypeAdapter(RosterDocument).validate_python(raw)  # type: ignore[arg-type]


def stored_verdict(session: Session, roster_id: str) -> str:
    verdict = session.exec(select(Roster.verdict).where(Roster.id == roster_id)).one()
    session.commit()
    return verdict


def test_every_stored_version_carries_its_own_verdict(session: Session) -> None:
    roster_id = rosters.create_roster(session, judged("legal")).roster.id
    assert stored_verdict(session, roster_id) == "legal"
    # Each step from one state to each other, through replace_roster's one UPDATE.
    for version, kind in enumerate(("warnings", "broken", "legal", "broken", "warnings",
                                    "legal"), start=1):
        rosters.replace_roster(session, roster_id, judged(kind), version)
        assert stored_verdict(session, roster_id) == kind


def test_a_copy_keeps_its_originals_verdict(session: Session) -> None:
    original = rosters.create_roster(session, judged("warnings")).roster.id
    copy = rosters.copy_roster(session, original).roster.id
    assert stored_verdict(session, copy) == "warnings"


def test_my_rosters_sort_broken_warnings_legal_and_back(session: Session) -> None:
    device_id, _ = devices.new_device(session)
    # Created in an order neither sort follows, so the ordering is the verdict's.
    for kind in ("warnings", "legal", "broken"):
        made = rosters.create_roster(session, judged(kind, name=kind)).roster.id
        devices.remember(session, device_id, made, True)

    def order(descending: bool) -> list[tuple[str, Verdict]]:
        mine = devices.my_rosters(session, device_id, sort="verdict", descending=descending)
        return [(m.name, m.verdict) for m in mine]

    assert order(False) == [("broken", Verdict.broken), ("warnings", Verdict.warnings),
                            ("legal", Verdict.legal)]
    assert order(True) == [("legal", Verdict.legal), ("warnings", Verdict.warnings),
                           ("broken", Verdict.broken)]
