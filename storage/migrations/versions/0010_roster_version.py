"""A club's roster version: bumped by every change to its players, accounts or stored
directors, so each process may cache the roster and check one number (issue 17).

Revision ID: 0010_roster
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_roster"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(
            sa.Column("roster_version", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("roster_version")
