"""What the roster and device use-cases refuse with: each a case the callers answer (404, 403,
409, 413…)."""

from __future__ import annotations

from datetime import datetime
from typing import Any


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
    """The roster changed since the version the caller read; `current` is how it stands now
    (a StoredRoster: not imported, as app/services/stored_rosters.py raises the refusals
    above)."""

    def __init__(self, current: Any) -> None:
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


class EditRefused(Exception):
    """This browser holds no right to edit the roster."""


class UnknownDevice(Exception):
    def __init__(self, device_id: int) -> None:
        super().__init__(f"no device {device_id}")
        self.device_id = device_id


class NoSuggestion(Exception):
    """The roster's rule system offers no "Make it legal"."""

    def __init__(self, ruleset: str) -> None:
        super().__init__(f"{ruleset} offers no suggestion")
        self.ruleset = ruleset
