"""Each list handed in to an event is its player's: its own key (kept as a hash) replaces or
withdraws it, and the organiser sees what it replaced. The player's key becomes a digest of
the name's case-folded form: folding can make a name longer (ß → ss, ﬃ → ffi), and the
folded name itself overflowed its column on PostgreSQL. The organiser may close hand-ins.

Lists handed in before have no key: nobody can replace or withdraw them (they stay as handed
in). The digest is written out here (sha256 of the folded name as UTF-8, hex) rather than
imported, so that this migration means the same whatever the app's code becomes. Going down
folds the names again (cut to the old column's 120 characters) and drops what the lists'
keys and history were.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 500
LIST = sa.table("event_list", sa.column("id", sa.String), sa.column("player", sa.String),
                sa.column("player_key", sa.String))


def _folded(player: str) -> str:
    return player.replace("\x00", "").casefold()


def _digest(player: str) -> str:
    return hashlib.sha256(_folded(player).encode("utf-8")).hexdigest()


def _rewrite(key_of: Callable[[str], str]) -> None:
    """Every list's player_key from its player's name, a batch at a time by id."""
    connection, after = op.get_bind(), ""
    while True:
        rows = connection.execute(sa.select(LIST.c.id, LIST.c.player).where(LIST.c.id > after)
                                  .order_by(LIST.c.id).limit(BATCH)).all()
        if not rows:
            return
        for list_id, player in rows:
            connection.execute(LIST.update().where(LIST.c.id == list_id)
                               .values(player_key=key_of(player)))
        after = rows[-1][0]


def upgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("hand_ins_closed_at", sa.DateTime(timezone=True),
                                   nullable=True))
    _rewrite(_digest)
    with op.batch_alter_table("event_list") as batch:
        batch.alter_column("player_key", type_=sa.String(64), existing_type=sa.String(120),
                           existing_nullable=False)
        batch.add_column(sa.Column("key_hash", sa.String(64), nullable=True))
    op.create_table(
        "event_list_history",
        sa.Column("list_id", sa.String(16), sa.ForeignKey("event_list.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("player", sa.String(120), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("nation", sa.String(32), nullable=True),
        sa.Column("roster_version", sa.Integer(), nullable=True),
        sa.Column("handed_in_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("replaced_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("event_list_history")
    with op.batch_alter_table("event_list") as batch:
        batch.drop_column("key_hash")
        batch.alter_column("player_key", type_=sa.String(120), existing_type=sa.String(64),
                           existing_nullable=False)
    _rewrite(lambda player: _folded(player)[:120])
    with op.batch_alter_table("event") as batch:
        batch.drop_column("hand_ins_closed_at")
