"""Counters of rosters created per client address and time window (the creation limit).

Revision ID: 0003
Revises: 0002
Create Date: 2025-01-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "creation_window",
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("window_index", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("client", "window_index"),
    )


def downgrade() -> None:
    op.drop_table("creation_window")
