"""A roster's verdict in three words (legal, warnings, broken) in place of legal or not.

"My rosters" tells a list with only warnings from a legal one and sorts by it. The verdict is
worked out from each stored document by the rule systems, a batch of rows at a time; it says
all that `valid` said (broken exactly when not valid), so `valid` goes. A document that no
longer reads keeps what `valid` said: legal or broken.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500  # rows read, judged and written at a time: memory stays bounded on any table

roster = sa.table("roster", sa.column("id", sa.String), sa.column("document", sa.Text),
                  sa.column("valid", sa.Boolean), sa.column("verdict", sa.String))


def _verdict(document: str, valid: bool) -> str:
    from pydantic import ValidationError

    # The rule systems judge as this release does: the column must agree with what the
    # next change of the roster would write.
    from app.systems import SYSTEMS
    from app.systems.stored_documents import read_stored

    try:
        doc = read_stored(document)
    except (ValidationError, ValueError):  # ValueError: not JSON at all
        return "legal" if valid else "broken"
    return SYSTEMS[str(doc.ruleset)].evaluate(doc, "en").verdict.value  # type: ignore[attr-defined]


def upgrade() -> None:
    with op.batch_alter_table("roster") as batch:
        batch.add_column(sa.Column("verdict", sa.String(8), nullable=True))
    connection = op.get_bind()
    last = ""
    while True:
        # By id, from the last one done: each batch is one indexed range, however many rows.
        rows = connection.execute(
            sa.select(roster.c.id, roster.c.document, roster.c.valid)
            .where(roster.c.id > last).order_by(roster.c.id).limit(BATCH)).all()
        if not rows:
            break
        connection.execute(
            roster.update().where(roster.c.id == sa.bindparam("roster_id"))
            .values(verdict=sa.bindparam("judged")),
            [{"roster_id": row.id, "judged": _verdict(row.document, bool(row.valid))}
             for row in rows])
        last = rows[-1].id
    with op.batch_alter_table("roster") as batch:
        batch.alter_column("verdict", existing_type=sa.String(8), nullable=False)
        batch.drop_column("valid")


def downgrade() -> None:
    with op.batch_alter_table("roster") as batch:
        batch.add_column(sa.Column("valid", sa.Boolean(), nullable=True))
    connection = op.get_bind()
    connection.execute(roster.update().values(valid=roster.c.verdict != "broken"))
    with op.batch_alter_table("roster") as batch:
        batch.alter_column("valid", existing_type=sa.Boolean(), nullable=False)
        batch.drop_column("verdict")
