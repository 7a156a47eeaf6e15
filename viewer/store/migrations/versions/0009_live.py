"""Live uploads: a transcript an agent appends to while it runs (viewer/store/live.py).

`transcripts.live` is "open" while appends come, "finished" or "truncated" (finished without a stop) after, and
None for every other upload. `live_tails` keeps an open upload's unfinished tail (its bytes from the first
message that may still change, and where its rows start), so an append parses that tail alone; `live_chunks`
keeps its bytes, one row per append, until it is finished and they are joined into `transcripts.raw`.

Existing transcripts were never live: nothing to fill in.

Revision ID: 0009
Revises: 0008
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: Union[str, Sequence[str], None] = "0008"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column("transcripts", sa.Column("live", sa.String(16), nullable=True))
    op.create_table(
        "live_tails",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("head", sa.Text(), nullable=False),
        sa.Column("tail", sa.LargeBinary(), nullable=False),
        sa.Column("checkpoint", sa.Text(), nullable=True),
    )
    op.create_table(
        "live_chunks",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("live_chunks")
    op.drop_table("live_tails")
    with op.batch_alter_table("transcripts") as batch:
        batch.drop_column("live")
