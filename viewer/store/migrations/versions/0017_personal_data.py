"""Personal data masked for link holders, and passages the uploader redacted: `personal_findings` (what the scan
found, for the uploader's manage page) and `personal_choices` (what the uploader released, showed or redacted).
How many of each kind are masked is kept in `transcripts.secret_kinds` beside the secrets, under `personal:`
keys. Nothing to carry over: uploads stored before are parsed again by the new stored version, which finds it.

Revision ID: 0017
Revises: 0016
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: Union[str, Sequence[str], None] = "0016"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def _owner() -> sa.Column:
    return sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                     primary_key=True)


def upgrade() -> None:
    op.create_table(
        "personal_findings", _owner(),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("places", sa.Integer(), nullable=False),
        sa.Column("conversation", sa.Integer(), nullable=True),
        sa.Column("message_index", sa.Integer(), nullable=True),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("col", sa.Integer(), nullable=False),
    )
    op.create_table(
        "personal_choices", _owner(),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("choice", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(32), nullable=True),
        sa.Column("value", sa.Text(), nullable=True),
        sa.Column("conversation", sa.Integer(), nullable=True),
        sa.Column("message_index", sa.Integer(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("personal_choices")
    op.drop_table("personal_findings")
