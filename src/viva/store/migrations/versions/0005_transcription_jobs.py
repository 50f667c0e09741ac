"""Transcription jobs handed from web workers to queue workers through the database.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "transcription_jobs",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("question_id", sa.String(length=200), nullable=False),
        sa.Column("hotwords", sa.JSON(), nullable=False),
        sa.Column("audio", sa.LargeBinary(), nullable=False),
        sa.Column("mime", sa.String(length=100), nullable=False),
        sa.Column("keep", sa.Boolean(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("transcript", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_transcription_jobs_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_transcription_jobs")),
    )
    op.create_index(op.f("ix_transcription_jobs_user_id"), "transcription_jobs", ["user_id"], unique=False)
    op.create_index(
        op.f("ix_transcription_jobs_created_at"), "transcription_jobs", ["created_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_transcription_jobs_created_at"), table_name="transcription_jobs")
    op.drop_index(op.f("ix_transcription_jobs_user_id"), table_name="transcription_jobs")
    op.drop_table("transcription_jobs")
