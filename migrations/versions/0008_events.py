"""Events: an organiser's rules, and the lists players hand in (each a roster version's
document, kept as it was).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "event",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("organiser_key_hash", sa.String(64), nullable=False),
        sa.Column("hand_in_key_hash", sa.String(64), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("rules", sa.Text(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "event_list",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("event_id", sa.String(16), sa.ForeignKey("event.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("player_key", sa.String(120), nullable=False),
        sa.Column("player", sa.String(120), nullable=False),
        sa.Column("roster_id", sa.String(16), nullable=True),
        sa.Column("roster_version", sa.Integer(), nullable=True),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("handed_in_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("event_id", "player_key", name="uq_event_list_event_id_player_key"),
    )


def downgrade() -> None:
    op.drop_table("event_list")
    op.drop_table("event")
