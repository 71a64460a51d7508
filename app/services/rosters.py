"""Roster use-cases: store, read, replace, delete, restore and copy rosters.

Every function takes a SQLModel `Session` first and plain values otherwise, and owns its
transaction: it commits what it did or rolls all of it back. Authorisation is the caller's:
`check_edit_key` (the API) or `devices.can_edit` / `editable_roster` (the pages) come before a
change, and the editor's change also passes its browser's device token to `replace_roster`,
whose write itself then requires that browser's right to edit. A roster's revisions are read
in revisions.py, its browsers kept in devices.py.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Executable, bindparam, delete, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from app.domain.base import Lang
from app.domain.system import Evaluation, RuleSystem
from app.services import kept_evaluations
from app.services.devices import bound_readers, editable_roster, lock_devices
from app.services.errors import (
    DocumentTooLarge,
    EditRefused,
    KeyRejected,
    RosterNotFound,
    VersionConflict,
)
from app.services.stored_rosters import (
    DEVICE,
    GRANT,
    MAX_VERSION,
    RESTORE_DAYS,
    ROSTER,
    ROW_BY_ID,
    StoredRoster,
    column_text,
    digest,
    fetch_roster,
    live_roster,
    refuse_deleted,
    searched,
    stored_roster,
    utc,
)
from app.storage.db import StorageLimits, limits_of
from app.storage.db import transaction as _transaction
from app.storage.tables import (
    NAME_LENGTH,
    Device,
    DeviceRoster,
    Roster,
    utcnow,
)
from app.storage.tables import Revision as RevisionRow
from app.systems import get_system
from app.systems.stored_documents import DOCUMENT as _DOCUMENT

KEY_BYTES = 16  # edit keys: 128 random bits


@dataclass(frozen=True)
class Created:
    roster: StoredRoster
    edit_key: str  # shown once; only its hash is stored


def _prune_to(limits: StorageLimits, version: int) -> int:
    """The newest revision to remove when `version` is stored, or 0 for none. A roster keeps
    its latest `max_revisions` revisions (0: all), pruned every few versions rather than
    at each, so that few changes carry the pruning's statement (written with the change, in
    its transaction): up to a quarter more (at most 25) may be kept between two prunings."""
    keep = limits.max_revisions
    if keep <= 0 or version <= keep or version % max(1, min(25, keep // 4)):
        return 0
    return version - keep


def _fits(limits: StorageLimits, text: str) -> None:
    limit = limits.max_document_bytes
    if limit is not None and len(text) > limit // 4:  # a character is 1 to 4 bytes
        size = len(text.encode())
        if size > limit:
            raise DocumentTooLarge(size, limit)


def _document(document: Any) -> BaseModel:
    return _DOCUMENT.validate_python(document)


SUMMARY_COLUMNS = ("name", "search_name", "ruleset", "nation", "total", "points_limit",
                   "verdict")


def _system(document: BaseModel) -> RuleSystem:
    system = get_system(str(document.ruleset))  # type: ignore[attr-defined]
    if system is None:  # the document type only admits known rule systems
        raise ValueError(f"unknown ruleset {document.ruleset!r}")  # type: ignore[attr-defined]
    return system


def _summary(document: BaseModel, evaluation: Evaluation) -> dict[str, Any]:
    """The columns a list sorts and searches by, derived from the document and its evaluation
    (in any language: the columns hold none of its words)."""
    ruleset = str(document.ruleset)  # type: ignore[attr-defined]
    result = evaluation.result
    name = column_text(str(document.name))  # type: ignore[attr-defined]
    return {
        "name": name[:NAME_LENGTH],
        "search_name": searched(name)[:NAME_LENGTH],
        "ruleset": ruleset,
        "nation": getattr(document, "nation", None),
        "total": float(result["total"]),
        "points_limit": result["points_limit"],
        "verdict": evaluation.verdict.value,
    }


def create_roster(session: Session, document: Any, *, lang: Lang = "en",
                  copied_from: tuple[str, int] | None = None,
                  admit: Callable[[], None] | None = None) -> Created:
    """Store a new roster, evaluated once, in `lang` (the answer's language), and kept for the
    answer. `admit` runs once the document is accepted, just before it is stored, and stops
    the creation by raising: the creation limit (creation_limit.py) counts there, so a
    document refused for its content or size costs the client nothing."""
    doc = _document(document)
    text = doc.model_dump_json()
    _fits(limits_of(session), text)
    if admit is not None:
        admit()
    evaluation = _system(doc).evaluate(doc, lang)
    now = utcnow()
    key = secrets.token_urlsafe(KEY_BYTES)
    row = Roster(id=secrets.token_urlsafe(12), edit_key_hash=digest(key), version=1,
                 document=text, created_at=now, updated_at=now,
                 copied_from_id=copied_from[0] if copied_from else None,
                 copied_from_version=copied_from[1] if copied_from else None,
                 **_summary(doc, evaluation))
    with _transaction(session, write=True):
        session.add(row)
        session.flush()  # the roster row first: the revision refers to it
        session.add(RevisionRow(roster_id=row.id, version=1, created_at=now, document=text))
        stored = stored_roster(row)
    kept_evaluations.keep(stored, lang, evaluation)
    return Created(stored, key)


def get_roster(session: Session, roster_id: str) -> StoredRoster:
    # The columns, not the ORM's object: the commonest read of all needs no identity map.
    with _transaction(session):
        found = session.exec(ROW_BY_ID, params={"roster_id": roster_id}).first()  # type: ignore[call-overload]
    if found is None:
        raise RosterNotFound(roster_id)
    refuse_deleted(found)
    return stored_roster(found)


def is_live(session: Session, roster_id: str) -> bool:
    """Whether the roster is there to read: stored and not deleted."""
    with _transaction(session):
        return session.exec(select(Roster.id).where(
            Roster.id == roster_id, col(Roster.deleted_at).is_(None))).first() is not None


def check_edit_key(session: Session, roster_id: str, key: str) -> None:
    """Raise unless `key` is the roster's edit key. Deleted rosters still know their key."""
    with _transaction(session):
        row = fetch_roster(session, roster_id)
        if row is None:
            raise RosterNotFound(roster_id)
        if not hmac.compare_digest(digest(key), row.edit_key_hash):
            raise KeyRejected(roster_id)


def new_edit_key(session: Session, roster_id: str, keep_device: int | None = None) -> str:
    """Give the roster a new edit key and return it; the old key stops working at once, and
    so does every browser's right to edit that came from it but `keep_device`'s (the owner
    asking): a link is renewed because it leaked, and whoever opened the leaked one must not
    go on editing. Those browsers keep the roster in "my rosters", to read.

    For an owner who can still edit in one browser but has lost the link: callers authorise
    first (as for `replace_roster`).
    """
    key = secrets.token_urlsafe(KEY_BYTES)
    with _transaction(session, write=True):
        row = live_roster(session, roster_id)
        row.edit_key_hash = digest(key)
        session.add(row)
        others = [col(DeviceRoster.roster_id) == roster_id, col(DeviceRoster.can_edit)]
        if keep_device is not None:
            others.append(col(DeviceRoster.device_id) != keep_device)
        session.exec(update(DeviceRoster).where(*others).values(can_edit=False))  # type: ignore[call-overload]
    # Those browsers are readers now: renewing the link after opening it from new browsers,
    # again and again, must not grow the roster's readers without end.
    bound_readers(session, roster_id, keep=keep_device)
    return key


def replace_roster(session: Session, roster_id: str, document: Any,
                   expected_version: int, *, lang: Lang = "en",
                   device_token: str | None = None) -> StoredRoster:
    """Store `document` as the next version if the roster is still at `expected_version`,
    evaluated once, in `lang` (the answer's language), and kept for the answer.

    The version check and the write are one UPDATE, so of writers racing from the same version
    exactly one wins; the others get VersionConflict with the winner's state. With
    `device_token`, the same UPDATE also requires that browser's right to edit, so the right is
    proved at the moment of writing; without it, EditRefused (as editable_roster).
    """
    change = _Change.of(limits_of(session), roster_id, document, expected_version, lang,
                        device_token)
    moved = None
    if change.writable:
        with _transaction(session, write=True):
            moved = session.exec(change.update, params=change.values).first()  # type: ignore[call-overload]
            if moved is not None:
                session.exec(_REVISION, params=change.values)  # type: ignore[call-overload]
                if change.values["prune_to"]:
                    session.exec(_PRUNE, params=change.values)  # type: ignore[call-overload]
    if moved is not None:
        stored = change.stored(tuple(moved))
        kept_evaluations.keep(stored, lang, change.evaluation)
        return stored
    if device_token is not None:
        raise VersionConflict(editable_roster(session, device_token, roster_id))
    with _transaction(session):
        current = live_roster(session, roster_id)
    raise VersionConflict(stored_roster(current))


@dataclass
class _Change:
    """A change worked out before its transaction begins: on SQLite the write lock is held
    from BEGIN to COMMIT, so only the statements run inside it."""

    roster_id: str
    version: int  # the version it makes
    document: BaseModel
    evaluation: Evaluation  # the document's, in the answer's language
    values: dict[str, Any]  # the statements' parameters
    update: Executable  # the UPDATE that checks the expected version
    writable: bool  # False: a version no change can follow, answered as a conflict

    @classmethod
    def of(cls, limits: StorageLimits, roster_id: str, document: Any, expected: int,
           lang: Lang, device_token: str | None) -> _Change:
        doc = _document(document)
        text = doc.model_dump_json()
        _fits(limits, text)
        evaluation = _system(doc).evaluate(doc, lang)
        values = {f"new_{name}": value for name, value in _summary(doc, evaluation).items()}
        values.update(roster_id=roster_id, expected=expected, new_version=expected + 1,
                      new_document=text, new_updated_at=utcnow(),
                      prune_to=_prune_to(limits, expected + 1))
        statement = _NEXT_VERSION
        if device_token is not None:
            if not device_token:
                raise EditRefused(roster_id)  # as editable_roster: no browser, no right
            values["token_hash"] = digest(device_token)
            statement = _NEXT_VERSION_GRANTED
        return cls(roster_id, expected + 1, doc, evaluation, values, statement,
                   1 <= expected < MAX_VERSION)

    def stored(self, moved: tuple[Any, ...]) -> StoredRoster:
        """The roster as written (`moved` is what the UPDATE returned)."""
        created_at, copied_from_id, copied_from_version = moved
        return StoredRoster(
            id=self.roster_id, version=self.version, document=self.document,
            ruleset=self.values["new_ruleset"], name=self.values["new_name"],
            created_at=utc(created_at), updated_at=self.values["new_updated_at"],
            copied_from_id=copied_from_id, copied_from_version=copied_from_version)


# A change's statements, built once with their parameters named.
# The browser holding the device token `token_hash` may edit the roster `roster_id`.
_GRANTED = (
    sa_select(GRANT.c.roster_id)
    .join(DEVICE, DEVICE.c.id == GRANT.c.device_id)
    .where(GRANT.c.roster_id == bindparam("roster_id"), GRANT.c.can_edit.is_(True),
           DEVICE.c.token_hash == bindparam("token_hash"))
    .exists())
_REVISION = insert(RevisionRow.__table__).values(
    roster_id=bindparam("roster_id"), version=bindparam("new_version"),
    created_at=bindparam("new_updated_at"), document=bindparam("new_document"))
# The revisions no longer kept (_prune_to), removed with the change that makes one more.
_PRUNE = delete(RevisionRow.__table__).where(
    RevisionRow.__table__.c.roster_id == bindparam("roster_id"),
    RevisionRow.__table__.c.version <= bindparam("prune_to"))


def _next_version(*conditions: Any) -> Any:
    """The UPDATE to the next version, only from the expected one (the optimistic check: of
    writers racing from one version exactly one matches), returning what the stored roster
    needs."""
    return (
        update(ROSTER)
        .where(ROSTER.c.id == bindparam("roster_id"),
               ROSTER.c.version == bindparam("expected"), ROSTER.c.deleted_at.is_(None),
               *conditions)
        .values({name: bindparam(f"new_{name}")
                 for name in ("version", "document", "updated_at", *SUMMARY_COLUMNS)})
        .returning(ROSTER.c.created_at, ROSTER.c.copied_from_id,
                   ROSTER.c.copied_from_version))


_NEXT_VERSION = _next_version()
_NEXT_VERSION_GRANTED = _next_version(_GRANTED)


def delete_roster(session: Session, roster_id: str) -> None:
    """Hide the roster; it and its history stay restorable for RESTORE_DAYS days."""
    with _transaction(session, write=True):
        row = fetch_roster(session, roster_id)
        if row is None:
            raise RosterNotFound(roster_id)
        # Deleting twice keeps the first deletion's date, so the grace period is not extended.
        session.exec(update(Roster)
                     .where(col(Roster.id) == roster_id, col(Roster.deleted_at).is_(None))
                     .values(deleted_at=utcnow()))


def restore_roster(session: Session, roster_id: str, *, days: int = RESTORE_DAYS) -> StoredRoster:
    with _transaction(session, write=True):
        row = fetch_roster(session, roster_id)
        if row is None:
            raise RosterNotFound(roster_id)
        if row.deleted_at is not None:
            if utc(row.deleted_at) + timedelta(days=days) < utcnow():
                raise RosterNotFound(roster_id)
            session.exec(update(Roster).where(col(Roster.id) == roster_id)
                         .values(deleted_at=None))
        return stored_roster(live_roster(session, roster_id, days))


def purge_deleted(session: Session, *, days: int = RESTORE_DAYS,
                  now: datetime | None = None) -> int:
    """Remove rosters deleted more than `days` ago, with their revisions and their places in
    "my rosters" (both ON DELETE CASCADE), and the browsers remembered for those rosters
    alone. Returns how many rosters."""
    cutoff = (now or utcnow()) - timedelta(days=days)
    purged = select(Roster.id).where(col(Roster.deleted_at) < cutoff)
    with _transaction(session, write=True):
        _forget_browsers_of(session, purged)
        gone = session.exec(delete(Roster).where(col(Roster.deleted_at) < cutoff))
        return int(gone.rowcount or 0)


def _forget_browsers_of(session: Session, purged: Any) -> None:
    """Delete the devices all of whose rosters are among `purged` (a query of roster ids):
    nothing else would ever remove them. Only those: a device remembered for no roster yet
    (made a moment before its first one is noted) must stay, so "no roster" is not enough."""
    theirs = select(DeviceRoster.device_id).where(col(DeviceRoster.roster_id).in_(purged))
    elsewhere = select(DeviceRoster.device_id).where(
        DeviceRoster.device_id == Device.id, col(DeviceRoster.roster_id).not_in(purged))
    # Locked first (PostgreSQL; SQLite's writers take turns anyway): a browser noting another
    # roster meanwhile has it in the table before the DELETE looks, and keeps its device, or
    # waits and is refused. Unlocked, the DELETE could go by what it saw before, and its
    # cascade take that new roster from the browser's "my rosters".
    lock_devices(session, col(Device.id).in_(theirs))
    session.exec(delete(Device).where(  # type: ignore[call-overload]
        col(Device.id).in_(theirs), ~elsewhere.exists()))


def copy_roster(session: Session, roster_id: str, *, lang: Lang = "en") -> Created:
    """A new roster (new id, new key) holding the current document of a readable one."""
    source = get_roster(session, roster_id)
    return create_roster(session, source.document, lang=lang,
                         copied_from=(source.id, source.version))
