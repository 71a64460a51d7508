"""The session dependency under its old name, for app/web/editor.py alone until it imports it
from app.http.deps (the dependencies' module); nothing else may import this."""

from __future__ import annotations

from app.http.deps import SessionDep

__all__ = ["SessionDep"]
