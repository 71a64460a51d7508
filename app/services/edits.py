"""A roster's changes by edits, its undo, and "Make it legal"'s suggestion: the one way the
editor's page and `PATCH /api/v1/rosters/{id}` change a roster.

Authorisation is the caller's, as for rosters.replace_roster: the API checks the edit key
first; the page passes its browser's device token, and the write itself then requires that
browser's right to edit (EditRefused otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from app.domain.base import Lang
from app.domain.edits import apply_edits
from app.services import revisions
from app.services.devices import editable_roster
from app.services.errors import NoSuggestion, RevisionNotFound, VersionConflict
from app.services.rosters import get_roster, replace_roster
from app.services.stored_rosters import StoredRoster
from app.systems import SYSTEMS


@dataclass(frozen=True)
class Edited:
    """A roster after a change: as stored now (the same version when the edits changed
    nothing), its evaluation in the caller's language kept (kept_evaluations)."""

    roster: StoredRoster
    changed: bool


def _current(session: Session, roster_id: str, expected: int,
             device_token: str | None) -> StoredRoster:
    """The roster to change, at `expected`; VersionConflict with it as it is otherwise."""
    stored = (get_roster(session, roster_id) if device_token is None
              else editable_roster(session, device_token, roster_id))
    if stored.version != expected:
        raise VersionConflict(stored)
    return stored


def _stored(session: Session, stored: StoredRoster, document: Any, lang: Lang,
            device_token: str | None) -> Edited:
    """`document` stored as the roster's next version, unless it is the roster's own."""
    if document == stored.document:
        # Nothing changed (Save pressed again): no new version for undo to step over.
        return Edited(stored, False)
    written = replace_roster(session, stored.id, document, stored.version, lang=lang,
                             device_token=device_token)
    return Edited(written, True)


def edit_roster(session: Session, roster_id: str, edits: Sequence[Any], expected: int,
                lang: Lang, *, device_token: str | None = None) -> Edited:
    """Make `edits` (the roster's system's edits, as values or as JSON data) in order, as one
    new version, or none of them: pydantic's ValidationError for an edit that is no edit of
    this system, EditError for one that cannot be made, each saying which one (`edits.<i>`)."""
    stored = _current(session, roster_id, expected, device_token)
    system = SYSTEMS[stored.ruleset]
    made = system.edits.validate_python(list(edits))
    document = apply_edits(stored.document, made, lang)
    return _stored(session, stored, document, lang, device_token)


def revert_to(session: Session, roster_id: str, version: int | None, expected: int,
              lang: Lang, *, device_token: str | None = None) -> Edited:
    """The document of an earlier `version` (None: the one before `expected`) stored again as
    the next version, so that an undo can itself be undone and no version is lost.
    RevisionNotFound when there is no such version to go back to (or it is no longer kept)."""
    stored = _current(session, roster_id, expected, device_token)
    target = stored.version - 1 if version is None else version
    if not 1 <= target < stored.version:
        raise RevisionNotFound(roster_id, target)
    revision = revisions.get_revision(session, roster_id, target)
    return _stored(session, stored, revision.document, lang, device_token)


def suggestion(roster: StoredRoster, lang: Lang, *, fill: bool = False
               ) -> tuple[Any, list[Any]]:
    """What "Make it legal" (`fill`: "Fill to the limit") would change, and the edits that
    make it; NoSuggestion for a rule system that offers none."""
    suggest = SYSTEMS[roster.ruleset].suggest
    if suggest is None:
        raise NoSuggestion(roster.ruleset)
    return suggest(roster.document, lang, fill)
