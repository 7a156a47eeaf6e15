"""Owners: which browsers (or tools) hold an upload in their "your transcripts" list.

`transcript_owners` pairs the hash of an owner key (a random secret in the owner's cookie or a tool's header,
stored as manage keys are: its SHA-256 alone) with the uploads it owns; an upload may have several owners (the
browser that uploaded it, and each browser that opened its manage link). `uploaded_at` is the upload's
`created_at`, copied so that an owner's list is read newest first from the index `transcript_owners_by_time`;
`transcript_owners_by_transcript` finds an upload's owners when it is deleted.

Existing uploads have no owner rows: a browser that uploaded or managed one is remembered by the signed session
cookie's list of ids, which viewer/web/ownership.py turns into owner rows for that browser's new key on its
first request after this revision.

Revision ID: 0011
Revises: 0010
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: Union[str, Sequence[str], None] = "0010"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "transcript_owners",
        sa.Column("owner_hash", sa.String(64), primary_key=True),
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("uploaded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("transcript_owners_by_transcript", "transcript_owners", ["transcript_id"])
    op.create_index("transcript_owners_by_time", "transcript_owners", ["owner_hash", "uploaded_at"])


def downgrade() -> None:
    op.drop_index("transcript_owners_by_time", table_name="transcript_owners")
    op.drop_index("transcript_owners_by_transcript", table_name="transcript_owners")
    op.drop_table("transcript_owners")
