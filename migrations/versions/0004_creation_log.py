"""The creation limit as an exact sliding window: a log of the creations each client address made
in the last window, in place of the counters per fixed window.

The counters cannot be turned into times, so a client's creations before the upgrade are
forgotten: for one window after it, an address may create up to the limit again.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "creation_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_creation_log_client_created_ms", "creation_log",
                    ["client", "created_ms"])
    op.drop_table("creation_window")


def downgrade() -> None:
    op.create_table(
        "creation_window",
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("window_index", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("client", "window_index"),
    )
    op.drop_index("ix_creation_log_client_created_ms", table_name="creation_log")
    op.drop_table("creation_log")
