"""Public pages: a club's secret link token, set while its pages are on (INTERFACE §6).

Revision ID: 0009
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("web_token", sa.String(), nullable=True))
        batch.create_unique_constraint(batch.f("uq_clubs_web_token"), ["web_token"])


def downgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.drop_constraint(batch.f("uq_clubs_web_token"), type_="unique")
        batch.drop_column("web_token")
