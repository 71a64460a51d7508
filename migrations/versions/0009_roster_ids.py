"""Stable ids in every stored roster document: each unit `u1`, `u2` … in list order, each line
`l1`, `l2` … within its unit (Chainmail and Formation Density; Line and Square units have no
lines), each Chainmail engine `e1` …. An id already there is kept; a missing one takes the
next number after the highest in use, as the app gives them when it reads a document
(app/domain/ids.py), so a document reads the same before and after.

Every table that keeps a roster document: the rosters (deleted ones too), their revisions,
and the lists handed in to events. A game keeps no roster document but its own setup (the
units' names and figures, app/systems/game/setup.py), which names no unit by id: it stays.

The rule is written out here rather than imported: this migration must mean the same
whatever the app's code becomes. A document that is no JSON object, of no known rule system,
or with the same id twice (which the app refuses) is left as it is. Rows are read and written
a batch at a time, in the compact form the app writes (pydantic's model_dump_json), with `id`
first as the models declare it. Going down takes the ids out again, the form the code before
them reads (it refused unknown keys).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500  # rows read, changed and written at a time: memory stays bounded on any table

# The rule systems of 0009, those whose units have lines, and those with engines.
KNOWN = frozenset({"chainmail", "line_and_square", "formation_density"})
WITH_LINES = frozenset({"chainmail", "formation_density"})
WITH_ENGINES = frozenset({"chainmail"})

Key = tuple[tuple[str, Any], ...]  # a primary key's columns: (name, type) each
# Each table holding a roster document, and its primary key.
TABLES: tuple[tuple[str, Key], ...] = (
    ("roster", (("id", sa.String),)),
    ("revision", (("roster_id", sa.String), ("version", sa.Integer))),
    ("event_list", (("id", sa.String),)))


class _Repeated(Exception):
    """The same id twice in one list: the app refuses such a document; it stays as it is."""


def _next(prefix: str, taken: set[str]) -> str:
    numbers = [int(m.group(1)) for t in taken
               for m in [re.fullmatch(re.escape(prefix) + r"(\d{1,9})", t)] if m]
    return f"{prefix}{max(numbers, default=0) + 1}"


def _numbered(items: Any, prefix: str) -> Any:
    if not isinstance(items, list):
        return items
    seen: set[str] = set()
    for item in items:
        found = item.get("id") if isinstance(item, dict) else None
        if isinstance(found, str):
            if found in seen:
                raise _Repeated(found)
            seen.add(found)
    given = []
    for item in items:
        if isinstance(item, dict) and item.get("id") is None:
            new = _next(prefix, seen)
            seen.add(new)
            item = {"id": new, **{k: v for k, v in item.items() if k != "id"}}
        given.append(item)
    return given


def with_ids(doc: dict[str, Any]) -> dict[str, Any]:
    doc = dict(doc)
    ruleset = doc.get("ruleset")
    units = _numbered(doc.get("units"), "u")
    if ruleset in WITH_LINES and isinstance(units, list):
        units = [{**unit, "lines": _numbered(unit["lines"], "l")}
                 if isinstance(unit, dict) and "lines" in unit else unit for unit in units]
    if "units" in doc:
        doc["units"] = units
    if ruleset in WITH_ENGINES and "engines" in doc:
        doc["engines"] = _numbered(doc["engines"], "e")
    return doc


def _bare(items: Any) -> Any:
    if not isinstance(items, list):
        return items
    return [{k: v for k, v in item.items() if k != "id"} if isinstance(item, dict) else item
            for item in items]


def without_ids(doc: dict[str, Any]) -> dict[str, Any]:
    doc = dict(doc)
    ruleset = doc.get("ruleset")
    units = _bare(doc.get("units"))
    if ruleset in WITH_LINES and isinstance(units, list):
        units = [{**unit, "lines": _bare(unit["lines"])}
                 if isinstance(unit, dict) and "lines" in unit else unit for unit in units]
    if "units" in doc:
        doc["units"] = units
    if ruleset in WITH_ENGINES and "engines" in doc:
        doc["engines"] = _bare(doc["engines"])
    return doc


def rewritten(text: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> str | None:
    """The document `text` changed by `change`, as JSON text; None when it stays as it is
    (a document with nothing to change keeps its text as it was written)."""
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict) or doc.get("ruleset") not in KNOWN:
            return None
        changed = change(doc)
        if changed == doc:
            return None
        new = json.dumps(changed, ensure_ascii=False, separators=(",", ":"))
        new.encode("utf-8")  # a lone surrogate the JSON escaped cannot be stored unescaped
    except (ValueError, RecursionError, _Repeated):  # not JSON, or refused by the app anyway
        return None
    return new


def _each_batch(name: str, keys: Key,
                change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    table = sa.table(name, *(sa.column(k, kind) for k, kind in keys),
                     sa.column("document", sa.Text))
    key_columns = [table.c[k] for k, _ in keys]
    where = sa.and_(*(column == sa.bindparam(f"key_{column.name}") for column in key_columns))
    update = table.update().where(where).values(document=sa.bindparam("new_document"))
    connection = op.get_bind()
    last: tuple[Any, ...] | None = None
    while True:
        # By primary key, from the last row done: each batch is one indexed range.
        query = sa.select(*key_columns, table.c.document).order_by(*key_columns).limit(BATCH)
        if last is not None:
            query = query.where(sa.tuple_(*key_columns) > sa.tuple_(*last))
        rows = connection.execute(query).all()
        if not rows:
            return
        changed = [{**{f"key_{c.name}": v for c, v in zip(key_columns, row[:-1], strict=True)},
                    "new_document": new}
                   for row in rows if (new := rewritten(row.document, change)) is not None]
        if changed:
            connection.execute(update, changed)
        last = tuple(rows[-1][:-1])


def upgrade() -> None:
    for name, keys in TABLES:
        _each_batch(name, keys, with_ids)


def downgrade() -> None:
    for name, keys in TABLES:
        _each_batch(name, keys, without_ids)
