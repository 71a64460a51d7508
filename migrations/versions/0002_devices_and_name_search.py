"""Remembered devices ("my rosters") and a case-folded name to search rosters by.

SQL's lower() folds only ASCII on SQLite, so Cyrillic names are folded in Python; existing rows
are filled in here before the column becomes required.

Revision ID: 0002
Revises: 0001
Create Date: 2025-01-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("roster") as batch:
        batch.add_column(sa.Column("search_name", sa.String(120), nullable=True))
    roster = sa.table("roster", sa.column("id", sa.String), sa.column("name", sa.String),
                      sa.column("search_name", sa.String))
    connection = op.get_bind()
    for roster_id, name in connection.execute(sa.select(roster.c.id, roster.c.name)).all():
        connection.execute(roster.update().where(roster.c.id == roster_id)
                           .values(search_name=name.casefold()[:120]))
    with op.batch_alter_table("roster") as batch:
        batch.alter_column("search_name", existing_type=sa.String(120), nullable=False)
        batch.create_index("ix_roster_search_name", ["search_name"])

    op.create_table(
        "device",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "device_roster",
        sa.Column("device_id", sa.Integer(), nullable=False),
        sa.Column("roster_id", sa.String(16), nullable=False),
        sa.Column("can_edit", sa.Boolean(), nullable=False),
        sa.Column("last_opened", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["device_id"], ["device.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["roster_id"], ["roster.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("device_id", "roster_id"),
    )
    op.create_index("ix_device_roster_roster_id", "device_roster", ["roster_id"])


def downgrade() -> None:
    op.drop_index("ix_device_roster_roster_id", table_name="device_roster")
    op.drop_table("device_roster")
    op.drop_table("device")
    with op.batch_alter_table("roster") as batch:
        batch.drop_index("ix_roster_search_name")
        batch.drop_column("search_name")
