"""Create every table: clubs, players, tournaments and their facts, outbox, audit.

Revision ID: 0001
Revises:
Create Date: 2026-01-31
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Plain types, not the models' decorators: a migration must not change when they do.
TIME = sa.DateTime(timezone=True)
JSON = sa.JSON(none_as_null=True).with_variant(postgresql.JSONB(none_as_null=True), "postgresql")


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("timezone", sa.String(), nullable=False),
        sa.Column("language", sa.String(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clubs")),
    )
    op.create_table(
        "meta",
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("value", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_meta")),
    )
    op.create_table(
        "processed_updates",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("update_id", sa.String(), nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_processed_updates")),
        sa.UniqueConstraint(
            "platform", "update_id", name=op.f("uq_processed_updates_platform_update_id")
        ),
    )
    op.create_index(op.f("ix_processed_updates_at"), "processed_updates", ["at"], unique=False)

    op.create_table(
        "chats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("chat", sa.String(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_chats_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chats")),
        sa.UniqueConstraint("platform", "chat", name=op.f("uq_chats_platform_chat")),
    )
    op.create_index(op.f("ix_chats_club_id"), "chats", ["club_id"], unique=False)

    op.create_table(
        "directors",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("external_id", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_directors_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_directors")),
        sa.UniqueConstraint(
            "club_id",
            "platform",
            "external_id",
            name=op.f("uq_directors_club_id_platform_external_id"),
        ),
    )
    op.create_table(
        "link_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", TIME, nullable=False),
        sa.Column("used_at", TIME, nullable=True),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_link_codes_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_link_codes")),
        sa.UniqueConstraint("code", name=op.f("uq_link_codes_code")),
    )
    op.create_index(op.f("ix_link_codes_club_id"), "link_codes", ["club_id"], unique=False)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("chat", sa.String(), nullable=False),
        sa.Column("payload", JSON, nullable=False),
        sa.Column("coalesce_key", sa.String(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("expires_at", TIME, nullable=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", TIME, nullable=False),
        sa.Column("leased_until", TIME, nullable=True),
        sa.Column("last_attempt_at", TIME, nullable=True),
        sa.Column("sent_at", TIME, nullable=True),
        sa.Column("platform_message_id", sa.String(), nullable=True),
        sa.Column("last_error", sa.String(), nullable=True),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_outbox_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    op.create_index(op.f("ix_outbox_club_id"), "outbox", ["club_id"], unique=False)
    op.create_index(
        op.f("ix_outbox_platform_chat_coalesce_key_status"),
        "outbox",
        ["platform", "chat", "coalesce_key", "status"],
        unique=False,
    )
    op.create_index(
        op.f("ix_outbox_platform_status_next_attempt_at"),
        "outbox",
        ["platform", "status", "next_attempt_at"],
        unique=False,
    )

    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("name_key", sa.String(), nullable=False),
        sa.Column("born", sa.Date(), nullable=True),
        sa.Column("member", sa.Boolean(), nullable=False),
        sa.Column("novice", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_players_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_index(
        op.f("ix_players_club_id_name_key"), "players", ["club_id", "name_key"], unique=False
    )

    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("name_key", sa.String(), nullable=False),
        sa.Column("preset_name", sa.String(), nullable=False),
        sa.Column("overrides", JSON, nullable=False),
        sa.Column("start", TIME, nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("official", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIME, nullable=True),
        sa.Column("finished_at", TIME, nullable=True),
        sa.Column("draw", JSON, nullable=True),
        sa.Column("groups", JSON, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
            name=op.f("fk_tournaments_club_id_clubs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index(
        op.f("ix_tournaments_club_id_name_key"),
        "tournaments",
        ["club_id", "name_key"],
        unique=False,
    )
    op.create_index(
        op.f("ix_tournaments_club_id_status_start"),
        "tournaments",
        ["club_id", "status", "start"],
        unique=False,
    )

    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(), nullable=False),
        sa.Column("external_id", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_accounts_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_accounts_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_accounts")),
        sa.UniqueConstraint(
            "club_id",
            "platform",
            "external_id",
            name=op.f("uq_accounts_club_id_platform_external_id"),
        ),
    )
    op.create_index(op.f("ix_accounts_player_id"), "accounts", ["player_id"], unique=False)
    op.create_index(
        op.f("ix_accounts_platform_external_id"),
        "accounts",
        ["platform", "external_id"],
        unique=False,
    )

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("detail", JSON, nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_audit_log_club_id_clubs"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_audit_log_tournament_id_tournaments"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index(op.f("ix_audit_log_club_id_at"), "audit_log", ["club_id", "at"], unique=False)
    op.create_index(
        op.f("ix_audit_log_tournament_id"), "audit_log", ["tournament_id"], unique=False
    )

    op.create_table(
        "done_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("due", TIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_done_actions_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_done_actions")),
        sa.UniqueConstraint(
            "tournament_id", "key", name=op.f("uq_done_actions_tournament_id_key")
        ),
    )
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("registered_at", TIME, nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("approved", sa.Boolean(), nullable=False),
        sa.Column("confirmed_at", TIME, nullable=True),
        sa.Column("withdrawn_at", TIME, nullable=True),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("born", sa.Date(), nullable=True),
        sa.Column("novice", sa.Boolean(), nullable=False),
        sa.Column("knockout_forfeit", sa.Boolean(), nullable=False),
        sa.Column("presence", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_entries_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_entries_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entries")),
        sa.UniqueConstraint(
            "tournament_id", "player_id", name=op.f("uq_entries_tournament_id_player_id")
        ),
    )
    op.create_index(op.f("ix_entries_player_id"), "entries", ["player_id"], unique=False)

    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("white", sa.Integer(), nullable=True),
        sa.Column("black", sa.Integer(), nullable=True),
        sa.Column("start", TIME, nullable=True),
        sa.Column("group_name", sa.String(), nullable=True),
        sa.Column("bracket_key", sa.String(), nullable=True),
        sa.Column("round_name", sa.String(), nullable=True),
        sa.Column("bracket_index", sa.Integer(), nullable=False),
        sa.Column("white_from", sa.String(), nullable=True),
        sa.Column("black_from", sa.String(), nullable=True),
        sa.Column("created_at", TIME, nullable=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("white_score", sa.Integer(), nullable=False),
        sa.Column("black_score", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("forfeited_by", JSON, nullable=False),
        sa.Column("finished_at", TIME, nullable=True),
        sa.Column("report", JSON, nullable=True),
        sa.Column("disputed_by", sa.Integer(), nullable=True),
        sa.Column("games", JSON, nullable=False),
        sa.Column("tiebreaks", JSON, nullable=False),
        sa.Column("lot_winner", sa.String(), nullable=True),
        sa.Column("pauses", JSON, nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_matches_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_matches_tournament_id_number")
        ),
    )
    op.create_table(
        "penalties",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("against", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("at", TIME, nullable=False),
        sa.Column("cancelled", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_penalties_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalties")),
        sa.UniqueConstraint("tournament_id", "key", name=op.f("uq_penalties_tournament_id_key")),
    )
    op.create_table(
        "placements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("ordinal", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("points", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_placements_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_placements_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_placements")),
        sa.UniqueConstraint(
            "tournament_id", "player_id", name=op.f("uq_placements_tournament_id_player_id")
        ),
    )
    op.create_index(op.f("ix_placements_player_id"), "placements", ["player_id"], unique=False)

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

    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("origin", sa.Integer(), nullable=True),
        sa.Column("applies_to", sa.Integer(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("note", sa.String(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("ended_at", TIME, nullable=True),
        sa.Column("ended_by", sa.String(), nullable=False),
        sa.Column("ended_note", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(
            ["applies_to"],
            ["tournaments.id"],
            name=op.f("fk_sanctions_applies_to_tournaments"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["club_id"], ["clubs.id"], name=op.f("fk_sanctions_club_id_clubs"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["origin"],
            ["tournaments.id"],
            name=op.f("fk_sanctions_origin_tournaments"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_sanctions_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sanctions")),
    )
    op.create_index(op.f("ix_sanctions_club_id"), "sanctions", ["club_id"], unique=False)
    op.create_index(op.f("ix_sanctions_player_id"), "sanctions", ["player_id"], unique=False)


def downgrade() -> None:
    # Children first; a table's indexes go with it.
    for table in (
        "sanctions",
        "ranking_imports",
        "placements",
        "penalties",
        "matches",
        "entries",
        "done_actions",
        "audit_log",
        "accounts",
        "tournaments",
        "players",
        "outbox",
        "link_codes",
        "directors",
        "chats",
        "processed_updates",
        "meta",
        "clubs",
    ):
        op.drop_table(table)
