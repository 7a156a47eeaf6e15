"""Datasets: a file of many conversations is one upload (the parent row) with one row per conversation.

transcripts.parent_id and .conversation place a conversation in its dataset, .conversation_count counts a
dataset's conversations, .snippet holds the first user message the default view shows (for the index).

Revision ID: 0005
Revises: 0004
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # All nullable: every existing upload is a single conversation (no parent, no count, no snippet).
    op.add_column("transcripts", sa.Column("parent_id", sa.String(64), nullable=True))
    op.add_column("transcripts", sa.Column("conversation", sa.Integer(), nullable=True))
    op.add_column("transcripts", sa.Column("conversation_count", sa.Integer(), nullable=True))
    op.add_column("transcripts", sa.Column("snippet", sa.Text(), nullable=True))
    op.create_index("transcripts_by_parent", "transcripts", ["parent_id", "conversation"])


def downgrade() -> None:
    op.drop_index("transcripts_by_parent", table_name="transcripts")
    with op.batch_alter_table("transcripts") as batch:
        for column in ("snippet", "conversation_count", "conversation", "parent_id"):
            batch.drop_column(column)
