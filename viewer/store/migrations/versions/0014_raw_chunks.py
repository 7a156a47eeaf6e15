"""Raw chunks: an upload's bytes stored as rows of at most 4 MiB (`raw_chunks`), written from the upload's spool
file a chunk at a time and read back the same way, so that neither storing nor downloading a big upload holds
it whole (and no value comes near SQLite's limit of 1e9 bytes).

`transcripts.raw` is then empty (b""): its bytes are the upload's chunks. The text a link holder downloads when
secrets were masked is kept the same way (`masked` chunks; `transcripts.masked_raw` b""): a big upload's masked
text passed SQLite's limit as one value. Uploads stored before this revision keep their bytes in
`transcripts.raw` and `masked_raw` and are read from there, unchanged.

Revision ID: 0014
Revises: 0013
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: Union[str, Sequence[str], None] = "0013"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "raw_chunks",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("masked", sa.Boolean, primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("raw_chunks")
