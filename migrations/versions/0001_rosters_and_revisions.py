"""Rosters behind capability links, and the immutable revisions of their documents.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "roster",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("edit_key_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("nation", sa.String(32), nullable=True),
        sa.Column("total", sa.Double(), nullable=False),
        sa.Column("points_limit", sa.Integer(), nullable=True),
        sa.Column("valid", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("copied_from_id", sa.String(16), nullable=True),
        sa.Column("copied_from_version", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_roster_deleted_at", "roster", ["deleted_at"])
    op.create_table(
        "revision",
        sa.Column("roster_id", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["roster_id"], ["roster.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("roster_id", "version"),
    )


def downgrade() -> None:
    op.drop_table("revision")
    op.drop_index("ix_roster_deleted_at", table_name="roster")
    op.drop_table("roster")
