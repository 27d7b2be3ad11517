"""Security: unique folded player names, pending chat links, hashed link codes, button
tokens with a date (so they can be pruned), no auto-stored director rights.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    conn = op.get_bind()
    # Two players of a club may share a folded name from before the unique index (the
    # race it closes): the later ones get their id appended, so nobody is lost.
    players = sa.table(
        "players", sa.column("id"), sa.column("club_id"), sa.column("name"), sa.column("name_key")
    )
    seen: set[tuple[int, str]] = set()
    rows = conn.execute(sa.select(players).order_by(players.c.id)).all()
    for row in rows:
        key = (row.club_id, row.name_key)
        if key in seen:
            conn.execute(
                players.update()
                .where(players.c.id == row.id)
                .values(name=f"{row.name} #{row.id}", name_key=f"{row.name_key} #{row.id}")
            )
        seen.add(key)
    op.drop_index(op.f("ix_players_club_id_name_key"), table_name="players")
    op.create_index(
        op.f("ix_players_club_id_name_key"), "players", ["club_id", "name_key"], unique=True
    )

    op.add_column(
        "chats", sa.Column("status", sa.String(), nullable=False, server_default="active")
    )
    # Old codes were 24 bits and stored as typed: they cannot be trusted any more.
    op.execute("DELETE FROM link_codes")
    op.add_column(
        "link_codes", sa.Column("created_by", sa.String(), nullable=False, server_default="")
    )
    # Rights copied from CLUBTD_DIRECTORS by the first command outlived the setting;
    # rights are now stored only by /director add. (The console's come from @director.)
    op.execute("DELETE FROM directors WHERE platform <> 'console'")

    op.create_table(
        "button_tokens",
        sa.Column("token", sa.String(), nullable=False),
        sa.Column("command", sa.String(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_button_tokens")),
    )
    op.create_index(
        op.f("ix_button_tokens_created_at"), "button_tokens", ["created_at"], unique=False
    )
    op.execute("DELETE FROM meta WHERE key LIKE 'telegram.button.%'")


def downgrade() -> None:
    op.drop_index(op.f("ix_button_tokens_created_at"), table_name="button_tokens")
    op.drop_table("button_tokens")
    with op.batch_alter_table("link_codes") as batch:
        batch.drop_column("created_by")
    with op.batch_alter_table("chats") as batch:
        batch.drop_column("status")
    op.drop_index(op.f("ix_players_club_id_name_key"), table_name="players")
    op.create_index(
        op.f("ix_players_club_id_name_key"), "players", ["club_id", "name_key"], unique=False
    )
