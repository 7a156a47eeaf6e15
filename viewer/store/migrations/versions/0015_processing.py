"""Uploads processed after they are answered: `transcripts.state` is "processing" from the moment an upload's
raw bytes are stored until its parse rows are, "failed" when processing could not store them, and None for
every upload that is readable (every existing one). `processing` keeps, per upload not yet done, the stage it
has reached, which process holds it and when that process last said it was alive, so that an upload whose
process died is processed again from its stored raw bytes (viewer/store/processing.py), and `stored_upto` how
many of its messages are stored once its first page can be served (viewer/store/staged.py).

An upload's raw chunks (`raw_chunks`, revision 0014) are stored uncompressed on PostgreSQL (`STORAGE
EXTERNAL`): pglz took most of the 0.2 s of storing 10 MB before an upload processed after its answer is
answered.

Revision ID: 0015
Revises: 0014
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: Union[str, Sequence[str], None] = "0014"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column("transcripts", sa.Column("state", sa.String(16), nullable=True))
    op.create_table(
        "processing",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("stage", sa.String(16), nullable=False),
        sa.Column("worker", sa.String(128), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("stored_upto", sa.Integer(), nullable=True),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE raw_chunks ALTER COLUMN data SET STORAGE EXTERNAL")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE raw_chunks ALTER COLUMN data SET STORAGE EXTENDED")
    op.drop_table("processing")
    op.drop_column("transcripts", "state")
