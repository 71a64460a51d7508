"""Roster use-cases: store, read, replace, delete, restore and copy rosters; remembered devices.

Every function takes a SQLModel `Session` first and plain values otherwise, and owns its
transaction: it commits what it did or rolls all of it back. Authorisation is the caller's:
`check_edit_key` (the API) or `can_edit` / `editable_roster` (the pages) come before a change,
and the editor's change also passes its browser's device token to `replace_roster`, whose
write itself then requires that browser's right to edit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel
from sqlalchemy import Executable, bindparam, case, delete, func, insert, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from app.domain import Evaluation, get_ruleset
from app.domain.stored_documents import DOCUMENT as _DOCUMENT
from app.domain.stored_documents import read_stored
from app.storage.db import transaction as _transaction
from app.storage.tables import (
    NAME_LENGTH,
    Device,
    DeviceRoster,
    Roster,
    utcnow,
)
from app.storage.tables import Revision as RevisionRow

RESTORE_DAYS = 30
KEY_BYTES = 16  # edit keys: 128 random bits
# "My rosters" sorts by last change, not by last opening: when a roster was last opened is
# kept only this precisely.
REMEMBER_AGAIN_AFTER = timedelta(minutes=10)
# Browsers one roster is remembered by, the latest-opened: those that may edit it, by its edit
# link (open_with_key), and those that keep it in "my rosters" only to read (_bound_readers).
# The defaults of MUSTER_MAX_EDITING_BROWSERS and MUSTER_MAX_READING_BROWSERS, which a
# request's session carries (as it does max_revisions); a session made without them uses these.
MAX_EDITING_BROWSERS = 32
MAX_READING_BROWSERS = 300
MAX_VERSION = 2**31 - 1  # the version column is a 32-bit integer on PostgreSQL

SortKey = Literal["name", "nation", "points", "updated"]
SORT_KEYS: tuple[SortKey, ...] = ("name", "nation", "points", "updated")


@dataclass(frozen=True)
class StoredRoster:
    id: str
    version: int
    document: BaseModel  # a validated RosterDocument instance
    ruleset: str
    name: str
    created_at: datetime
    updated_at: datetime
    copied_from_id: str | None
    copied_from_version: int | None


@dataclass(frozen=True)
class Created:
    roster: StoredRoster
    edit_key: str  # shown once; only its hash is stored


@dataclass(frozen=True)
class RevisionInfo:
    version: int
    created_at: datetime


@dataclass(frozen=True)
class Revision:
    version: int
    created_at: datetime
    document: BaseModel


@dataclass(frozen=True)
class MyRoster:
    id: str
    name: str
    ruleset: str
    nation: str | None
    total: float
    points_limit: int | None
    updated_at: datetime
    can_edit: bool


@dataclass(frozen=True)
class DeletedRoster:
    """A roster this browser could edit, deleted and still restorable (the home page)."""

    id: str
    name: str
    restorable_until: datetime


class RosterNotFound(Exception):
    """No roster by this id: never stored, deleted, or purged."""

    def __init__(self, roster_id: str) -> None:
        super().__init__(f"no roster {roster_id!r}")
        self.roster_id = roster_id


class RosterDeleted(RosterNotFound):
    """The roster was deleted; its owner can restore it until `restorable_until`."""

    def __init__(self, roster_id: str, restorable_until: datetime) -> None:
        super().__init__(roster_id)
        self.restorable_until = restorable_until


class KeyRejected(Exception):
    """The edit key does not belong to this roster."""


class VersionConflict(Exception):
    """The roster changed since the version the caller read; `current` is how it stands now."""

    def __init__(self, current: StoredRoster) -> None:
        super().__init__(f"roster {current.id!r} is at version {current.version}")
        self.current = current


class RevisionNotFound(Exception):
    def __init__(self, roster_id: str, version: int) -> None:
        super().__init__(f"roster {roster_id!r} has no version {version}")
        self.roster_id = roster_id
        self.version = version


class DocumentTooLarge(ValueError):
    """The document, as stored (every field written out), is larger than the app lets a
    request carry: it could be stored but never sent back as read or exported."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"the roster would be {size} bytes once stored, over the {limit} a "
                         "request may carry: it could not be sent back as read or exported")
        self.size, self.limit = size, limit


def _prune_to(limits: dict[str, Any], version: int) -> int:
    """The newest revision to remove when `version` is stored, or 0 for none. A roster keeps
    its latest `max_revisions` revisions (none: all), pruned every few versions rather than
    at each, so that few changes carry the pruning's statement (written with the change, in
    its transaction): up to a quarter more (at most 25) may be kept between two prunings."""
    keep = limits.get("max_revisions") or 0
    if keep <= 0 or version <= keep or version % max(1, min(25, keep // 4)):
        return 0
    return version - keep


def _fits(limits: dict[str, Any], text: str) -> None:
    limit = limits.get("max_document_bytes")
    if limit is not None and len(text) > limit // 4:  # a character is 1 to 4 bytes
        size = len(text.encode())
        if size > limit:
            raise DocumentTooLarge(size, limit)


class EditRefused(Exception):
    """This browser holds no right to edit the roster."""


class UnknownDevice(Exception):
    def __init__(self, device_id: int) -> None:
        super().__init__(f"no device {device_id}")
        self.device_id = device_id


def digest(secret: str) -> str:
    # A plain hash is enough: keys and tokens are ≥128 random bits, not guessable passwords.
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _utc(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything stored is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _document(document: Any) -> BaseModel:
    return _DOCUMENT.validate_python(document)


SUMMARY_COLUMNS = ("name", "search_name", "ruleset", "nation", "total", "points_limit", "valid")


def _summary(document: BaseModel, evaluation: Evaluation | None = None) -> dict[str, Any]:
    """The columns a list sorts and searches by, derived from the document (and from its
    evaluation in any language, when the caller has one already)."""
    ruleset = str(document.ruleset)  # type: ignore[attr-defined]
    system = get_ruleset(ruleset)
    if system is None:  # the document type only admits known rule systems
        raise ValueError(f"unknown ruleset {ruleset!r}")
    result = (evaluation or system.evaluate(document, "en")).result
    name = _column_text(str(document.name))  # type: ignore[attr-defined]
    return {
        "name": name[:NAME_LENGTH],
        "search_name": searched(name)[:NAME_LENGTH],
        "ruleset": ruleset,
        "nation": getattr(document, "nation", None),
        "total": float(result["total"]),
        "points_limit": result["points_limit"],
        "valid": bool(result["valid"]),
    }


def _column_text(text: str) -> str:
    # PostgreSQL text cannot hold NUL; the JSON document keeps it escaped, the columns drop it.
    return text.replace("\x00", "")


def searched(text: str) -> str:
    """Text as "my rosters" searches it: as names are stored for it (search_name)."""
    return _column_text(text).casefold()


def _stored(row: Roster | _RosterRow) -> StoredRoster:
    return StoredRoster(
        id=row.id, version=row.version, document=read_stored(row.document),
        ruleset=row.ruleset, name=row.name, created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at), copied_from_id=row.copied_from_id,
        copied_from_version=row.copied_from_version)


def _fetch(session: Session, roster_id: str) -> Roster | None:
    return session.exec(_BY_ID, params={"roster_id": roster_id}).first()  # type: ignore[call-overload,no-any-return]


def _live(session: Session, roster_id: str, days: int = RESTORE_DAYS) -> Roster:
    row = _fetch(session, roster_id)
    if row is None:
        raise RosterNotFound(roster_id)
    if row.deleted_at is not None:
        raise RosterDeleted(roster_id, _utc(row.deleted_at) + timedelta(days=days))
    return row


def create_roster(session: Session, document: Any, *,
                  copied_from: tuple[str, int] | None = None,
                  admit: Callable[[], None] | None = None) -> Created:
    """Store a new roster. `admit` runs once the document is accepted, just before it is
    stored, and stops the creation by raising: the creation limit (app/ratelimit.py) counts
    there, so a document refused for its content or size costs the client nothing."""
    doc = _document(document)
    text = doc.model_dump_json()
    _fits(session.info, text)
    if admit is not None:
        admit()
    now = utcnow()
    key = secrets.token_urlsafe(KEY_BYTES)
    row = Roster(id=secrets.token_urlsafe(12), edit_key_hash=digest(key), version=1,
                 document=text, created_at=now, updated_at=now,
                 copied_from_id=copied_from[0] if copied_from else None,
                 copied_from_version=copied_from[1] if copied_from else None,
                 **_summary(doc))
    with _transaction(session, write=True):
        session.add(row)
        session.flush()  # the roster row first: the revision refers to it
        session.add(RevisionRow(roster_id=row.id, version=1, created_at=now, document=text))
        stored = _stored(row)
    return Created(stored, key)


def get_roster(session: Session, roster_id: str) -> StoredRoster:
    # The columns, not the ORM's object: the commonest read of all needs no identity map.
    with _transaction(session):
        found = session.exec(_ROW, params={"roster_id": roster_id}).first()  # type: ignore[call-overload]
    if found is None:
        raise RosterNotFound(roster_id)
    row = _RosterRow(*found)
    if row.deleted_at is not None:
        raise RosterDeleted(roster_id, _utc(row.deleted_at) + timedelta(days=RESTORE_DAYS))
    return _stored(row)


def is_live(session: Session, roster_id: str) -> bool:
    """Whether the roster is there to read: stored and not deleted."""
    with _transaction(session):
        return session.exec(select(Roster.id).where(
            Roster.id == roster_id, col(Roster.deleted_at).is_(None))).first() is not None


def check_edit_key(session: Session, roster_id: str, key: str) -> None:
    """Raise unless `key` is the roster's edit key. Deleted rosters still know their key."""
    with _transaction(session):
        row = _fetch(session, roster_id)
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
        row = _live(session, roster_id)
        row.edit_key_hash = digest(key)
        session.add(row)
        others = [col(DeviceRoster.roster_id) == roster_id, col(DeviceRoster.can_edit)]
        if keep_device is not None:
            others.append(col(DeviceRoster.device_id) != keep_device)
        session.exec(update(DeviceRoster).where(*others).values(can_edit=False))  # type: ignore[call-overload]
    # Those browsers are readers now: renewing the link after opening it from new browsers,
    # again and again, must not grow the roster's readers without end.
    _bound_readers(session, roster_id, keep=keep_device)
    return key


def replace_roster(session: Session, roster_id: str, document: Any,
                   expected_version: int, *, evaluation: Evaluation | None = None,
                   device_token: str | None = None) -> StoredRoster:
    """Store `document` as the next version if the roster is still at `expected_version`.

    The version check and the write are one UPDATE, so of writers racing from the same version
    exactly one wins; the others get VersionConflict with the winner's state. A caller that has
    evaluated `document` already (in any language) passes that `evaluation` to spare another.
    With `device_token`, the same UPDATE also requires that browser's right to edit, so the
    right is proved at the moment of writing; without it, EditRefused (as editable_roster).
    """
    change = _Change.of(session.info, roster_id, document, expected_version, evaluation,
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
        return change.stored(tuple(moved))
    if device_token is not None:
        raise VersionConflict(editable_roster(session, device_token, roster_id))
    with _transaction(session):
        current = _live(session, roster_id)
    raise VersionConflict(_stored(current))


@dataclass
class _Change:
    """A change worked out before its transaction begins: on SQLite the write lock is held
    from BEGIN to COMMIT, so only the statements run inside it."""

    roster_id: str
    version: int  # the version it makes
    document: BaseModel
    values: dict[str, Any]  # the statements' parameters
    update: Executable  # the UPDATE that checks the expected version
    writable: bool  # False: a version no change can follow, answered as a conflict

    @classmethod
    def of(cls, limits: dict[str, Any], roster_id: str, document: Any, expected: int,
           evaluation: Evaluation | None, device_token: str | None) -> _Change:
        doc = _document(document)
        text = doc.model_dump_json()
        _fits(limits, text)
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
        return cls(roster_id, expected + 1, doc, values, statement,
                   1 <= expected < MAX_VERSION)

    def stored(self, moved: tuple[Any, ...]) -> StoredRoster:
        """The roster as written (`moved` is what the UPDATE returned)."""
        created_at, copied_from_id, copied_from_version = moved
        return StoredRoster(
            id=self.roster_id, version=self.version, document=self.document,
            ruleset=self.values["new_ruleset"], name=self.values["new_name"],
            created_at=_utc(created_at), updated_at=self.values["new_updated_at"],
            copied_from_id=copied_from_id, copied_from_version=copied_from_version)


# A change's statements, built once with their parameters named.
_ROSTER = Roster.__table__
_GRANT, _DEVICE = DeviceRoster.__table__, Device.__table__
# The browser holding the device token `token_hash` may edit the roster `roster_id`.
_GRANTED = (
    sa_select(_GRANT.c.roster_id)
    .join(_DEVICE, _DEVICE.c.id == _GRANT.c.device_id)
    .where(_GRANT.c.roster_id == bindparam("roster_id"), _GRANT.c.can_edit.is_(True),
           _DEVICE.c.token_hash == bindparam("token_hash"))
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
        update(_ROSTER)
        .where(_ROSTER.c.id == bindparam("roster_id"),
               _ROSTER.c.version == bindparam("expected"), _ROSTER.c.deleted_at.is_(None),
               *conditions)
        .values({name: bindparam(f"new_{name}")
                 for name in ("version", "document", "updated_at", *SUMMARY_COLUMNS)})
        .returning(_ROSTER.c.created_at, _ROSTER.c.copied_from_id,
                   _ROSTER.c.copied_from_version))


_NEXT_VERSION = _next_version()
_NEXT_VERSION_GRANTED = _next_version(_GRANTED)


def delete_roster(session: Session, roster_id: str) -> None:
    """Hide the roster; it and its history stay restorable for RESTORE_DAYS days."""
    with _transaction(session, write=True):
        row = _fetch(session, roster_id)
        if row is None:
            raise RosterNotFound(roster_id)
        # Deleting twice keeps the first deletion's date, so the grace period is not extended.
        session.exec(update(Roster)
                     .where(col(Roster.id) == roster_id, col(Roster.deleted_at).is_(None))
                     .values(deleted_at=utcnow()))


def restore_roster(session: Session, roster_id: str, *, days: int = RESTORE_DAYS) -> StoredRoster:
    with _transaction(session, write=True):
        row = _fetch(session, roster_id)
        if row is None:
            raise RosterNotFound(roster_id)
        if row.deleted_at is not None:
            if _utc(row.deleted_at) + timedelta(days=days) < utcnow():
                raise RosterNotFound(roster_id)
            session.exec(update(Roster).where(col(Roster.id) == roster_id)
                         .values(deleted_at=None))
        return _stored(_live(session, roster_id, days))


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
    _lock_devices(session, col(Device.id).in_(theirs))
    session.exec(delete(Device).where(  # type: ignore[call-overload]
        col(Device.id).in_(theirs), ~elsewhere.exists()))


def _lock_devices(session: Session, which: Any) -> None:
    """Lock the devices about to be forgotten if they turn out to be remembered for nothing
    else (PostgreSQL; SQLite's writers take turns anyway). A browser noting another roster at
    that moment holds its device's key lock until it commits (the row's foreign key), so this
    waits for it, and the statements after it see its row and keep the device. Unlocked, a
    DELETE could go by what it saw before, and its cascade take that new roster from the
    browser's "my rosters"."""
    # In the order of their ids, as every caller locks them: two callers whose devices overlap
    # then wait for each other instead of each holding what the other waits for (a deadlock).
    session.exec(select(Device.id).where(which).order_by(col(Device.id))
                 .with_for_update()).all()


def copy_roster(session: Session, roster_id: str) -> Created:
    """A new roster (new id, new key) holding the current document of a readable one."""
    source = get_roster(session, roster_id)
    return create_roster(session, source.document, copied_from=(source.id, source.version))


def list_revisions(session: Session, roster_id: str) -> list[RevisionInfo]:
    with _transaction(session):
        _live(session, roster_id)
        rows = session.exec(select(RevisionRow.version, RevisionRow.created_at)
                            .where(RevisionRow.roster_id == roster_id)
                            .order_by(col(RevisionRow.version))).all()
        return [RevisionInfo(version, _utc(created)) for version, created in rows]


def get_revision(session: Session, roster_id: str, version: int) -> Revision:
    with _transaction(session):
        _live(session, roster_id)
        row = None
        if 1 <= version <= MAX_VERSION:
            row = session.exec(select(RevisionRow).where(RevisionRow.roster_id == roster_id,
                                                         RevisionRow.version == version)).first()
        if row is None:
            raise RevisionNotFound(roster_id, version)
        return Revision(row.version, _utc(row.created_at), read_stored(row.document))


# Devices: a browser remembered by an HttpOnly cookie, so "my rosters" needs no account.

def new_device(session: Session) -> tuple[int, str]:
    token = secrets.token_urlsafe(32)
    device = Device(token_hash=digest(token), created_at=utcnow())
    with _transaction(session, write=True):
        session.add(device)
        session.flush()
        assert device.id is not None
        device_id = device.id
    return device_id, token


def find_device(session: Session, token: str) -> int | None:
    with _transaction(session):
        return session.exec(select(Device.id).where(Device.token_hash == digest(token))).first()


def remember(session: Session, device_id: int, roster_id: str, can_edit: bool) -> None:
    """Note that the device opened the roster; once it could edit, it keeps that right. A
    browser noted to read may push the roster's readers past their bound (_bound_readers)."""
    if _note_opened(session, device_id, roster_id, can_edit) and not can_edit:
        _bound_readers(session, roster_id, keep=device_id)


def _note_opened(session: Session, device_id: int, roster_id: str, can_edit: bool) -> bool:
    """remember's note; False when there was nothing to write."""
    now = utcnow()
    # Most calls come from a browser reopening a roster it already knows: a read tells, and
    # saves a write (and, on SQLite, the database's one write lock) on every page view.
    with _transaction(session):
        seen = session.get(DeviceRoster, (device_id, roster_id))
        if (seen is not None and (seen.can_edit or not can_edit)
                and now - _utc(seen.last_opened) < REMEMBER_AGAIN_AFTER):
            return False
    table = DeviceRoster.__table__
    values = {"device_id": device_id, "roster_id": roster_id, "can_edit": can_edit,
              "last_opened": now}
    with _transaction(session, write=True):
        _live(session, roster_id)
        if session.get(Device, device_id) is None:
            raise UnknownDevice(device_id)
        dialect = session.get_bind().dialect.name
        if dialect in ("sqlite", "postgresql"):
            upsert = (sqlite.insert if dialect == "sqlite" else postgresql.insert)(table)
            statement = upsert.values(**values).on_conflict_do_update(
                index_elements=["device_id", "roster_id"],
                set_={"can_edit": or_(table.c.can_edit, upsert.excluded.can_edit),
                      "last_opened": upsert.excluded.last_opened})
            try:
                session.exec(statement)
            except IntegrityError as error:
                # Forgotten between the read above and this write (a bound or the purge,
                # which locked it first): its foreign key now names nothing.
                raise UnknownDevice(device_id) from error
            return True
        seen = session.get(DeviceRoster, (device_id, roster_id))
        if seen is None:
            session.exec(insert(table).values(**values))
        else:
            seen.can_edit = seen.can_edit or can_edit
            seen.last_opened = now
    return True


def open_with_key(session: Session, device_id: int, roster_id: str) -> None:
    """The device opened the roster with its edit key (the editor's link): it may edit it.

    A roster is edited by at most MUSTER_MAX_EDITING_BROWSERS browsers (the session's
    `max_editing_browsers`, else MAX_EDITING_BROWSERS): past that, the ones that opened it
    longest ago lose the right (a new edit link takes it from all of them at once). One whose
    "my rosters" holds other rosters keeps this one to read, as after a new link, within the
    readers' bound (_bound_readers); one that was remembered for this roster alone is
    forgotten. Without the bound, a script opening a link again and again, each time as a new
    browser, left a device and a grant behind every time. Callers check the key first
    (check_edit_key).
    """
    remember(session, device_id, roster_id, True)
    bound = _browsers(session, "max_editing_browsers", MAX_EDITING_BROWSERS)
    with _transaction(session):
        past = session.exec(
            select(DeviceRoster.device_id)
            .where(DeviceRoster.roster_id == roster_id, col(DeviceRoster.can_edit))
            .order_by(col(DeviceRoster.last_opened).desc(), col(DeviceRoster.device_id).desc())
            .offset(bound)).all()
    if past:
        _forget_editors(session, roster_id, list(past))
        _bound_readers(session, roster_id, keep=device_id)


def _browsers(session: Session, setting: str, default: int) -> int:
    """A bound on one roster's browsers: the app's setting, which its sessions carry."""
    return int(session.info.get(setting) or default)


def _bound_readers(session: Session, roster_id: str, keep: int | None = None) -> None:
    """Keep the roster in the "my rosters" of at most MUSTER_MAX_READING_BROWSERS readers
    (browsers that may not edit it; the session's `max_reading_browsers`, else
    MAX_READING_BROWSERS): `keep`, then those that opened it latest. The others forget it, and
    a browser that was remembered for it alone is forgotten, as past the editors' bound. The
    owner renewing the link may edit, so is no reader and stays as it was. Without the bound,
    opening the edit link from new browsers and renewing it, again and again (each renewal
    leaves those browsers as readers), or share links opened by ever new browsers, grew one
    roster's rows and the devices behind them without end."""
    bound = _browsers(session, "max_reading_browsers", MAX_READING_BROWSERS)
    readers = [col(DeviceRoster.roster_id) == roster_id, col(DeviceRoster.can_edit).is_(False)]
    # `keep` (the browser opening the roster now, or renewing its link) counts first, whatever
    # the clocks of the servers that noted the others.
    first = [] if keep is None else [case((col(DeviceRoster.device_id) == keep, 0), else_=1)]
    # A query, not a list of ids: rows stored before the bound may be more than one statement
    # can carry. Not correlated with the DELETE below, which is of the same table.
    past = (select(DeviceRoster.device_id).where(*readers)
            .order_by(*first, col(DeviceRoster.last_opened).desc(),
                      col(DeviceRoster.device_id).desc())
            .offset(bound).correlate(None))
    with _transaction(session):  # nearly always nobody is past it: a read, not a write
        if session.exec(past.limit(1)).first() is None:
            return
    elsewhere = select(DeviceRoster.device_id).where(
        DeviceRoster.device_id == Device.id, DeviceRoster.roster_id != roster_id)
    with _transaction(session, write=True):
        _lock_devices(session, col(Device.id).in_(past))
        # Browsers remembered for this roster alone go, their row with them (ON DELETE
        # CASCADE); that leaves the latest-opened readers as they were, so `past` still
        # finds the rest of those past the bound.
        session.exec(delete(Device).where(  # type: ignore[call-overload]
            col(Device.id).in_(past), ~elsewhere.exists()))
        session.exec(delete(DeviceRoster).where(  # type: ignore[call-overload]
            *readers, col(DeviceRoster.device_id).in_(past)))


def _forget_editors(session: Session, roster_id: str, device_ids: list[int]) -> None:
    with _transaction(session, write=True):
        _lock_devices(session, col(Device.id).in_(device_ids))
        alone = list(session.exec(
            select(DeviceRoster.device_id)
            .where(col(DeviceRoster.device_id).in_(device_ids))
            .group_by(col(DeviceRoster.device_id))
            .having(func.count() == 1)).all())
        if alone:
            # Only those still remembered for this roster alone (_lock_devices): their row goes
            # with them (ON DELETE CASCADE).
            elsewhere = select(DeviceRoster.device_id).where(
                DeviceRoster.device_id == Device.id, DeviceRoster.roster_id != roster_id)
            session.exec(delete(Device).where(  # type: ignore[call-overload]
                col(Device.id).in_(alone), ~elsewhere.exists()))
        session.exec(update(DeviceRoster).where(  # type: ignore[call-overload]
            DeviceRoster.roster_id == roster_id, col(DeviceRoster.device_id).in_(device_ids))
            .values(can_edit=False))


def can_edit(session: Session, device_id: int, roster_id: str) -> bool:
    with _transaction(session):
        granted = session.exec(select(DeviceRoster.can_edit)
                               .where(DeviceRoster.device_id == device_id,
                                      DeviceRoster.roster_id == roster_id)).first()
        return bool(granted)


def editable_roster(session: Session, device_token: str, roster_id: str) -> StoredRoster:
    """The roster, if the browser holding `device_token` may edit it, in one read: the
    editor's every change asks this first. EditRefused without that right (whether or not
    the roster exists, as the grant is asked first); RosterNotFound for a deleted roster."""
    if not device_token:
        raise EditRefused(roster_id)
    with _transaction(session):
        found = session.exec(_EDITABLE, params={  # type: ignore[call-overload]
            "roster_id": roster_id, "token_hash": digest(device_token)}).first()
    if found is None:
        raise EditRefused(roster_id)
    row = _RosterRow(*found)
    if row.deleted_at is not None:
        raise RosterDeleted(roster_id, _utc(row.deleted_at) + timedelta(days=RESTORE_DAYS))
    return _stored(row)


class _RosterRow(NamedTuple):
    id: str
    version: int
    document: str
    ruleset: str
    name: str
    created_at: datetime
    updated_at: datetime
    copied_from_id: str | None
    copied_from_version: int | None
    deleted_at: datetime | None


# A roster's columns, those of _RosterRow; alone (_ROW), and with the browser's right to edit
# it, in one read (_EDITABLE).
_COLUMNS = (_ROSTER.c.id, _ROSTER.c.version, _ROSTER.c.document, _ROSTER.c.ruleset,
            _ROSTER.c.name, _ROSTER.c.created_at, _ROSTER.c.updated_at,
            _ROSTER.c.copied_from_id, _ROSTER.c.copied_from_version, _ROSTER.c.deleted_at)
_ROW = sa_select(*_COLUMNS).where(_ROSTER.c.id == bindparam("roster_id"))
_BY_ID = (select(Roster).where(col(Roster.id) == bindparam("roster_id"))
          .execution_options(populate_existing=True))
_EDITABLE = (
    sa_select(*_COLUMNS)
    .select_from(_ROSTER.join(_GRANT, _GRANT.c.roster_id == _ROSTER.c.id)
                 .join(_DEVICE, _DEVICE.c.id == _GRANT.c.device_id))
    .where(_ROSTER.c.id == bindparam("roster_id"), _GRANT.c.can_edit.is_(True),
           _DEVICE.c.token_hash == bindparam("token_hash")))


def my_rosters(session: Session, device_id: int, *, query: str = "", sort: str = "updated",
               descending: bool = True) -> list[MyRoster]:
    """The live rosters this device opened, filtered by name and sorted."""
    order_by = {"name": Roster.search_name, "nation": Roster.nation, "points": Roster.total,
                "updated": Roster.updated_at}
    if sort not in order_by:
        raise ValueError(f"sort must be one of {', '.join(SORT_KEYS)}, not {sort!r}")
    column = col(order_by[sort])
    statement = (
        select(Roster.id, Roster.name, Roster.ruleset, Roster.nation, Roster.total,
               Roster.points_limit, Roster.updated_at, DeviceRoster.can_edit)
        .join(DeviceRoster, col(DeviceRoster.roster_id) == Roster.id)
        .where(DeviceRoster.device_id == device_id, col(Roster.deleted_at).is_(None))
        .order_by((column.desc() if descending else column.asc()).nulls_last(), col(Roster.id)))
    needle = searched(query).strip()
    if needle:
        statement = statement.where(col(Roster.search_name).contains(needle, autoescape=True))
    with _transaction(session):
        rows = session.exec(statement).all()
        return [MyRoster(id=r[0], name=r[1], ruleset=r[2], nation=r[3], total=float(r[4]),
                         points_limit=r[5], updated_at=_utc(r[6]), can_edit=bool(r[7]))
                for r in rows]


def deleted_rosters(session: Session, device_id: int, *,
                    days: int = RESTORE_DAYS) -> list[DeletedRoster]:
    """The rosters this device may edit that were deleted and can still be restored, the
    latest deleted first: the home page offers them back (their grants outlive the deletion
    until the purge)."""
    since = utcnow() - timedelta(days=days)
    statement = (
        select(Roster.id, Roster.name, Roster.deleted_at)
        .join(DeviceRoster, col(DeviceRoster.roster_id) == Roster.id)
        .where(DeviceRoster.device_id == device_id, col(DeviceRoster.can_edit),
               col(Roster.deleted_at).is_not(None), col(Roster.deleted_at) >= since)
        .order_by(col(Roster.deleted_at).desc(), col(Roster.id)))
    with _transaction(session):
        rows = session.exec(statement).all()
    return [DeletedRoster(id=r[0], name=r[1],
                          restorable_until=_utc(r[2]) + timedelta(days=days)) for r in rows]
