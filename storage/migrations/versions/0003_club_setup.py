"""Rankings per game with their import time; a player's own language for direct messages;
a club's own say on approving members (HGV-1.4).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    # A new table rather than ALTERs: the unique key gains the game, which SQLite can
    # only do by rebuilding the table anyway.
    op.create_table(
        "imported_rankings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("points", sa.String(length=32), nullable=False),
        sa.Column("imported_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
            name=op.f("fk_imported_rankings_club_id_clubs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_imported_rankings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_imported_rankings")),
        sa.UniqueConstraint(
            "club_id",
            "game",
            "player_id",
            name=op.f("uq_imported_rankings_club_id_game_player_id"),
        ),
    )
    op.create_index(
        op.f("ix_imported_rankings_player_id"), "imported_rankings", ["player_id"], unique=False
    )
    op.execute(
        "INSERT INTO imported_rankings (club_id, game, player_id, position, points) "
        "SELECT club_id, 'backgammon', player_id, position, points FROM ranking_imports"
    )
    op.drop_index(op.f("ix_ranking_imports_player_id"), table_name="ranking_imports")
    op.drop_table("ranking_imports")
    op.add_column("players", sa.Column("language", sa.String(), nullable=True))
    op.add_column("clubs", sa.Column("approval", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("approval")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
    op.create_table(
        "ranking_imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("points", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
            name=op.f("fk_ranking_imports_club_id_clubs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_ranking_imports_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ranking_imports")),
        sa.UniqueConstraint(
            "club_id", "player_id", name=op.f("uq_ranking_imports_club_id_player_id")
        ),
    )
    op.create_index(
        op.f("ix_ranking_imports_player_id"), "ranking_imports", ["player_id"], unique=False
    )
    op.execute(
        "INSERT INTO ranking_imports (club_id, player_id, position, points) "
        "SELECT club_id, player_id, position, points FROM imported_rankings "
        "WHERE game = 'backgammon'"
    )
    op.drop_index(op.f("ix_imported_rankings_player_id"), table_name="imported_rankings")
    op.drop_table("imported_rankings")
