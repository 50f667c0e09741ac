"""Mock interviews, and per-point memory (when each marking point was last covered or missed).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "interviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("topics", sa.JSON(), nullable=False),
        sa.Column("plan", sa.JSON(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=False),
        sa.Column("soft_limit_s", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("extra", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_interviews_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_interviews")),
        sa.UniqueConstraint("key", name=op.f("uq_interviews_key")),
    )
    op.create_index("ix_interviews_user_started", "interviews", ["user_id", "started_at"], unique=False)
    op.create_table(
        "point_memory",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.String(length=200), nullable=False),
        sa.Column("point_id", sa.String(length=200), nullable=False),
        sa.Column("core", sa.Boolean(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("times_covered", sa.Integer(), nullable=False),
        sa.Column("times_missed", sa.Integer(), nullable=False),
        sa.Column("last_covered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_missed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_point_memory_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_point_memory")),
        sa.UniqueConstraint(
            "user_id", "question_id", "point_id", name=op.f("uq_point_memory_user_id_question_id_point_id")
        ),
    )


def downgrade() -> None:
    op.drop_table("point_memory")
    op.drop_index("ix_interviews_user_started", table_name="interviews")
    op.drop_table("interviews")
