"""Images: pasted images stored once each, content-addressed, and the messages that hold them.

`messages.media` and `unmasked_messages.media` keep each message's image references (JSON); `media_blobs` keeps
each image once by the SHA-256 of its uploaded bytes (re-encoded without metadata, and its thumbnail);
`transcript_media` names the messages holding each image and whether the default view shows them.

Revision ID: 0013
Revises: 0012
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: Union[str, Sequence[str], None] = "0012"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    for table in ("messages", "unmasked_messages"):
        op.add_column(table, sa.Column("media", sa.Text(), nullable=True))
    op.create_table(
        "media_blobs",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("source_type", sa.String(32), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("width", sa.Integer, nullable=False),
        sa.Column("height", sa.Integer, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("thumbnail", sa.LargeBinary, nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "transcript_media",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("visible", sa.Boolean, nullable=False),
    )
    op.create_index("transcript_media_by_image", "transcript_media", ["sha256"])
    op.create_index("transcript_media_lookup", "transcript_media", ["transcript_id", "sha256"])


def downgrade() -> None:
    op.drop_index("transcript_media_lookup", table_name="transcript_media")
    op.drop_index("transcript_media_by_image", table_name="transcript_media")
    op.drop_table("transcript_media")
    op.drop_table("media_blobs")
    for table in ("unmasked_messages", "messages"):
        op.drop_column(table, "media")
