"""Issue 16: a match's last report number, so report ids are never reused within a
match (an Accept button names the report it answers).

Revision ID: 0008
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "matches",
        sa.Column("report_seq", sa.Integer(), nullable=False, server_default="0"),
    )
    # A report waiting now keeps its number; the next one gets a higher one.
    conn = op.get_bind()
    matches = sa.table(
        "matches", sa.column("id"), sa.column("report", sa.JSON()), sa.column("report_seq")
    )
    for row in conn.execute(sa.select(matches.c.id, matches.c.report)).all():
        if isinstance(row.report, dict) and isinstance(row.report.get("seq"), int):
            conn.execute(
                matches.update().where(matches.c.id == row.id).values(report_seq=row.report["seq"])
            )


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("report_seq")
