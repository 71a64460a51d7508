"""Roster services on a real database (SQLite file and PostgreSQL schema)."""

from __future__ import annotations

import re
import threading
from datetime import timedelta

import pytest
from sqlalchemy import Engine, func, update
from sqlmodel import Session, col, select

from app.services import devices, revisions, rosters
from app.services.errors import (
    EditRefused,
    KeyRejected,
    RevisionNotFound,
    RosterDeleted,
    RosterNotFound,
    UnknownDevice,
    VersionConflict,
)
from app.storage.tables import Device, DeviceRoster, Revision, Roster, utcnow
from app.systems import RosterDocument
from tests.helpers.documents import army

URL_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def document(**changes: object) -> object:
    from pydantic import TypeAdapter

    return TypeAdapter(RosterDocument).validate_python(army(**changes))  # type: ignore[arg-type]


def revision_count(session: Session, roster_id: str) -> int:
    count = session.exec(select(func.count()).select_from(Revision)
                         .where(Revision.roster_id == roster_id)).one()
    session.commit()
    return int(count)


def test_a_stored_roster_reads_back_at_version_one(session: Session) -> None:
    created = rosters.create_roster(session, document(name="Тумен"))
    stored = rosters.get_roster(session, created.roster.id)
    assert stored.version == 1
    assert stored.name == "Тумен"
    assert stored.document == document(name="Тумен")
    assert stored.created_at == stored.updated_at
    assert stored.created_at.tzinfo is not None
    assert revisions.list_revisions(session, stored.id)[0].version == 1


def test_ids_and_edit_keys_are_long_random_and_url_safe(session: Session) -> None:
    made = [rosters.create_roster(session, document()) for _ in range(20)]
    ids = {c.roster.id for c in made}
    keys = {c.edit_key for c in made}
    assert len(ids) == len(keys) == 20
    assert all(len(i) >= 16 and URL_SAFE.match(i) for i in ids)  # ≥ 96 bits in base64
    assert all(len(k) >= 22 and URL_SAFE.match(k) for k in keys)  # ≥ 128 bits in base64


def test_the_edit_key_opens_its_roster_only_and_is_not_stored(session: Session) -> None:
    first = rosters.create_roster(session, document())
    second = rosters.create_roster(session, document())
    rosters.check_edit_key(session, first.roster.id, first.edit_key)
    with pytest.raises(KeyRejected):
        rosters.check_edit_key(session, first.roster.id, second.edit_key)
    with pytest.raises(RosterNotFound):
        rosters.check_edit_key(session, "no-such-roster", first.edit_key)
    row = session.exec(select(Roster).where(Roster.id == first.roster.id)).one()
    assert first.edit_key not in " ".join(str(v) for v in row.model_dump().values())


def test_each_accepted_change_adds_one_version_and_one_revision(session: Session) -> None:
    roster_id = rosters.create_roster(session, document(name="v1")).roster.id
    for version in (1, 2, 3):
        stored = rosters.replace_roster(session, roster_id, document(name=f"v{version + 1}"),
                                         version)
        assert stored.version == version + 1
    assert [r.version for r in revisions.list_revisions(session, roster_id)] == [1, 2, 3, 4]
    for version in (1, 2, 3, 4):
        revision = revisions.get_revision(session, roster_id, version)
        assert revision.document == document(name=f"v{version}")
    assert rosters.get_roster(session, roster_id).document == document(name="v4")


def test_a_change_against_a_stale_version_changes_nothing(session: Session) -> None:
    roster_id = rosters.create_roster(session, document(name="first")).roster.id
    rosters.replace_roster(session, roster_id, document(name="second"), 1)
    for stale in (1, 3, 0, -5, 2**40):
        with pytest.raises(VersionConflict) as conflict:
            rosters.replace_roster(session, roster_id, document(name="lost"), stale)
        assert conflict.value.current.version == 2
        assert conflict.value.current.document == document(name="second")
    assert rosters.get_roster(session, roster_id).version == 2
    assert revision_count(session, roster_id) == 2


def test_racing_writers_from_one_version_have_exactly_one_winner(engine: Engine) -> None:
    with Session(engine) as session:
        roster_id = rosters.create_roster(session, document()).roster.id
    start = threading.Barrier(8)
    outcomes: list[str] = []

    def write(n: int) -> None:
        with Session(engine) as own:
            start.wait()
            try:
                rosters.replace_roster(own, roster_id, document(name=f"writer {n}"), 1)
                outcomes.append(f"writer {n}")
            except VersionConflict:
                outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if o != "conflict"]
    assert len(outcomes) == 8 and len(winners) == 1
    with Session(engine) as session:
        stored = rosters.get_roster(session, roster_id)
        assert (stored.version, stored.name) == (2, winners[0])
        assert revisions.get_revision(session, roster_id, 2).document == document(name=winners[0])
        assert revision_count(session, roster_id) == 2


def test_summary_columns_follow_every_write(session: Session) -> None:
    roster_id = rosters.create_roster(session, document(name="Малое войско", figures=5)).roster.id
    rosters.replace_roster(session, roster_id,
                            document(name="Великое войско", figures=500, points_limit=100), 1)
    row = session.exec(select(Roster).where(Roster.id == roster_id)).one()
    session.commit()
    priced = rosters.get_roster(session, roster_id)
    assert (row.name, row.search_name) == ("Великое войско", "великое войско")
    assert row.points_limit == 100
    assert row.total > 100 and row.verdict == "broken"  # over its limit, yet stored
    assert priced.version == 2


def test_a_deleted_roster_is_hidden_and_restored_with_its_history(session: Session) -> None:
    roster_id = rosters.create_roster(session, document(name="a")).roster.id
    rosters.replace_roster(session, roster_id, document(name="b"), 1)
    rosters.delete_roster(session, roster_id)
    with pytest.raises(RosterDeleted) as deleted:
        rosters.get_roster(session, roster_id)
    assert deleted.value.restorable_until > utcnow() + timedelta(days=29)
    for hidden in (lambda: revisions.list_revisions(session, roster_id),
                   lambda: rosters.copy_roster(session, roster_id),
                   lambda: rosters.replace_roster(session, roster_id, document(), 2)):
        with pytest.raises(RosterNotFound):
            hidden()
    restored = rosters.restore_roster(session, roster_id)
    assert (restored.version, restored.name) == (2, "b")
    assert [r.version for r in revisions.list_revisions(session, roster_id)] == [1, 2]


def test_a_deletion_older_than_thirty_days_cannot_be_restored(session: Session) -> None:
    roster_id = rosters.create_roster(session, document()).roster.id
    rosters.delete_roster(session, roster_id)
    session.exec(update(Roster).where(col(Roster.id) == roster_id)
                 .values(deleted_at=utcnow() - timedelta(days=31)))
    session.commit()
    with pytest.raises(RosterNotFound):
        rosters.restore_roster(session, roster_id)


def test_purge_removes_old_deletions_with_their_revisions_only(session: Session) -> None:
    old = rosters.create_roster(session, document(name="old")).roster.id
    recent = rosters.create_roster(session, document(name="recent")).roster.id
    alive = rosters.create_roster(session, document(name="alive")).roster.id
    rosters.delete_roster(session, old)
    rosters.delete_roster(session, recent)
    session.exec(update(Roster).where(col(Roster.id) == old)
                 .values(deleted_at=utcnow() - timedelta(days=31)))
    session.commit()
    assert rosters.purge_deleted(session) == 1
    assert revision_count(session, old) == 0
    with pytest.raises(RosterNotFound):
        rosters.check_edit_key(session, old, "any")
    assert rosters.restore_roster(session, recent).name == "recent"
    assert rosters.get_roster(session, alive).name == "alive"


def test_a_copy_is_a_new_roster_that_records_its_origin(session: Session) -> None:
    original = rosters.create_roster(session, document(name="Оригинал"))
    rosters.replace_roster(session, original.roster.id, document(name="Оригинал 2"), 1)
    copy = rosters.copy_roster(session, original.roster.id)
    assert copy.roster.id != original.roster.id
    assert copy.edit_key != original.edit_key
    assert copy.roster.version == 1
    assert copy.roster.document == document(name="Оригинал 2")
    assert (copy.roster.copied_from_id, copy.roster.copied_from_version) == (
        original.roster.id, 2)
    with pytest.raises(KeyRejected):
        rosters.check_edit_key(session, original.roster.id, copy.edit_key)
    # The record of origin outlives the original.
    rosters.delete_roster(session, original.roster.id)
    rosters.purge_deleted(session, now=utcnow() + timedelta(days=31))
    assert rosters.get_roster(session, copy.roster.id).copied_from_id == original.roster.id


def test_an_unknown_revision_is_reported_as_such(session: Session) -> None:
    roster_id = rosters.create_roster(session, document()).roster.id
    for version in (0, 2, 2**40):
        with pytest.raises(RevisionNotFound):
            revisions.get_revision(session, roster_id, version)


def test_a_device_is_found_by_its_token_which_is_not_stored(session: Session) -> None:
    device_id, token = devices.new_device(session)
    other_id, other_token = devices.new_device(session)
    assert len(token) >= 22 and URL_SAFE.match(token)
    assert devices.find_device(session, token) == device_id
    assert devices.find_device(session, other_token) == other_id != device_id
    assert devices.find_device(session, token + "x") is None
    hashes = session.exec(select(Device.token_hash)).all()
    session.commit()
    assert token not in hashes and other_token not in hashes


def test_an_edit_right_once_granted_survives_read_only_visits(session: Session) -> None:
    device_id, _ = devices.new_device(session)
    roster_id = rosters.create_roster(session, document()).roster.id
    assert devices.can_edit(session, device_id, roster_id) is False
    devices.remember(session, device_id, roster_id, False)
    assert devices.can_edit(session, device_id, roster_id) is False
    devices.remember(session, device_id, roster_id, True)
    devices.remember(session, device_id, roster_id, False)
    assert devices.can_edit(session, device_id, roster_id) is True
    assert [m.can_edit for m in devices.my_rosters(session, device_id)] == [True]


def three_browsers(session: Session, name: str) -> tuple[str, str, str, str]:
    """A new roster and the device tokens of a browser that may edit it, one that has only
    viewed it and one that has never seen it."""
    editor_id, editor = devices.new_device(session)
    reader_id, reader = devices.new_device(session)
    _, stranger = devices.new_device(session)
    roster_id = rosters.create_roster(session, document(name=name)).roster.id
    devices.remember(session, editor_id, roster_id, True)
    devices.remember(session, reader_id, roster_id, False)
    return roster_id, editor, reader, stranger


def test_the_editor_reads_a_roster_only_for_a_browser_that_may_edit_it(
        session: Session) -> None:
    roster_id, editor, reader, stranger = three_browsers(session, "Право правки")

    stored = devices.editable_roster(session, editor, roster_id)
    assert (stored.id, stored.version, stored.name) == (roster_id, 1, "Право правки")
    for token in (reader, stranger, "", editor + "x"):
        with pytest.raises(EditRefused):
            devices.editable_roster(session, token, roster_id)
    with pytest.raises(EditRefused):  # the right is asked first, so nothing leaks
        devices.editable_roster(session, editor, "no-such-roster")
    rosters.delete_roster(session, roster_id)
    with pytest.raises(RosterDeleted):
        devices.editable_roster(session, editor, roster_id)


def test_a_change_made_for_a_browser_is_stored_only_while_it_may_edit(
        session: Session) -> None:
    roster_id, editor, reader, stranger = three_browsers(session, "v1")

    for token in (reader, stranger, "", editor + "x"):
        with pytest.raises(EditRefused):
            rosters.replace_roster(session, roster_id, document(name="чужое"), 1,
                                    device_token=token)
    assert rosters.get_roster(session, roster_id).version == 1
    assert revision_count(session, roster_id) == 1
    assert rosters.replace_roster(session, roster_id, document(name="v2"), 1,
                                   device_token=editor).version == 2
    with pytest.raises(VersionConflict) as stale:
        rosters.replace_roster(session, roster_id, document(name="старое"), 1,
                                device_token=editor)
    assert (stale.value.current.version, stale.value.current.name) == (2, "v2")

    # The right is proved by the write itself: withdrawn after any read, nothing is stored.
    session.exec(update(DeviceRoster).where(col(DeviceRoster.roster_id) == roster_id)
                 .values(can_edit=False))
    session.commit()
    with pytest.raises(EditRefused):
        rosters.replace_roster(session, roster_id, document(name="v3"), 2,
                                device_token=editor)
    session.exec(update(DeviceRoster).where(col(DeviceRoster.roster_id) == roster_id)
                 .values(can_edit=True))
    session.commit()
    rosters.delete_roster(session, roster_id)
    with pytest.raises(RosterDeleted):
        rosters.replace_roster(session, roster_id, document(name="v3"), 2,
                                device_token=editor)
    rosters.restore_roster(session, roster_id)
    assert rosters.get_roster(session, roster_id).name == "v2"
    assert revision_count(session, roster_id) == 2


def test_remember_refuses_unknown_rosters_and_devices(session: Session) -> None:
    device_id, _ = devices.new_device(session)
    roster_id = rosters.create_roster(session, document()).roster.id
    with pytest.raises(RosterNotFound):
        devices.remember(session, device_id, "nothing-here", True)
    with pytest.raises(UnknownDevice):
        devices.remember(session, device_id + 1000, roster_id, True)
    assert devices.my_rosters(session, device_id) == []


def test_my_rosters_finds_names_whatever_their_case_even_in_cyrillic(session: Session) -> None:
    device_id, _ = devices.new_device(session)
    for name in ("Орда Субэдэя", "Тевтонский орден", "Golden Horde", "100%_real"):
        devices.remember(session, device_id,
                          rosters.create_roster(session, document(name=name)).roster.id, True)

    def names(query: str) -> set[str]:
        return {m.name for m in devices.my_rosters(session, device_id, query=query)}

    assert names("ОРДА") == {"Орда Субэдэя"}
    assert names("орд") == {"Орда Субэдэя", "Тевтонский орден"}
    assert names("HORDE") == {"Golden Horde"}
    assert names("%") == {"100%_real"}  # a wildcard character is matched literally
    assert names("_") == {"100%_real"}
    assert len(names("")) == 4


def test_my_rosters_sort_by_each_column_both_ways(session: Session) -> None:
    device_id, _ = devices.new_device(session)
    made = [("б войско", "mongols", 5), ("А войско", "russians", 30), ("в войско", "generic", 1)]
    for name, nation, figures in made:
        roster_id = rosters.create_roster(
            session, document(name=name, nation=nation, figures=figures)).roster.id
        devices.remember(session, device_id, roster_id, False)

    def order(sort: str, descending: bool) -> list[str]:
        mine = devices.my_rosters(session, device_id, sort=sort, descending=descending)
        return [m.name for m in mine]

    assert order("name", False) == ["А войско", "б войско", "в войско"]  # case ignored
    assert order("name", True) == ["в войско", "б войско", "А войско"]
    assert order("nation", False) == ["в войско", "б войско", "А войско"]
    assert order("points", True) == ["А войско", "б войско", "в войско"]
    assert order("updated", True) == ["в войско", "А войско", "б войско"]
    assert order("updated", False) == ["б войско", "А войско", "в войско"]
    with pytest.raises(ValueError, match="sort"):
        devices.my_rosters(session, device_id, sort="price")


def test_my_rosters_leaves_out_deleted_rosters_and_other_devices(session: Session) -> None:
    mine, _ = devices.new_device(session)
    theirs, _ = devices.new_device(session)
    kept = rosters.create_roster(session, document(name="kept")).roster.id
    gone = rosters.create_roster(session, document(name="gone")).roster.id
    foreign = rosters.create_roster(session, document(name="foreign")).roster.id
    devices.remember(session, mine, kept, True)
    devices.remember(session, mine, gone, True)
    devices.remember(session, theirs, foreign, True)
    rosters.delete_roster(session, gone)
    assert [m.name for m in devices.my_rosters(session, mine)] == ["kept"]
    rosters.restore_roster(session, gone)
    assert {m.name for m in devices.my_rosters(session, mine)} == {"kept", "gone"}


def test_a_read_the_caller_left_open_does_not_hide_newer_writes(engine: Engine) -> None:
    with Session(engine) as reader, Session(engine) as writer:
        roster_id = rosters.create_roster(writer, document()).roster.id
        reader.exec(select(Roster.version)).all()  # the caller's own read, left open
        rosters.replace_roster(writer, roster_id, document(name="newer"), 1)
        assert rosters.get_roster(reader, roster_id).name == "newer"
        assert rosters.replace_roster(reader, roster_id, document(name="newest"), 2).version == 3
