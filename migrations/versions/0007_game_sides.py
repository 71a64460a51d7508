"""A game of two sides: the opponent joins with a key of the game's and plays a side of
their own. The columns are nullable: a game made before has no second side and none can
join it, so it opens as the game of one side it was.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (("join_key_hash", sa.String(64)), ("second_key_hash", sa.String(64)),
           ("second_roster_id", sa.String(16)), ("second_roster_version", sa.Integer()),
           ("second_setup", sa.Text()))


def upgrade() -> None:
    with op.batch_alter_table("game") as batch:
        for name, kind in COLUMNS:
            batch.add_column(sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    # A second side's play stays in the log, but without its army the game cannot read it:
    # going down keeps only games of one side.
    game = sa.table("game", sa.column("id", sa.String), sa.column("second_setup", sa.Text))
    entry = sa.table("game_entry", sa.column("game_id", sa.String))
    two_sided = sa.select(game.c.id).where(game.c.second_setup.is_not(None))
    op.execute(entry.delete().where(entry.c.game_id.in_(two_sided)))
    op.execute(game.delete().where(game.c.second_setup.is_not(None)))
    with op.batch_alter_table("game") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
