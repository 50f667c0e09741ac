"""Spoken answers' check tokens that have been marked, so each is marked only once.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "spent_transcripts",
        sa.Column("nonce", sa.String(length=64), nullable=False),
        sa.Column("spent_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("nonce", name=op.f("pk_spent_transcripts")),
    )
    op.create_index(op.f("ix_spent_transcripts_spent_at"), "spent_transcripts", ["spent_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_spent_transcripts_spent_at"), table_name="spent_transcripts")
    op.drop_table("spent_transcripts")
