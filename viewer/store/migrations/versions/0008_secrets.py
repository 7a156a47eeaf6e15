"""Secrets masked for link holders: what was found, the unmasked rows the uploader reads, the masked raw text.

`transcripts.secret_kinds`: JSON, kind → how many secrets of it were found (None: none). `secrets_unmasked`:
the uploader lets link holders of the debug view read them. `masked_raw`: the raw download link holders get
(the source with every secret masked; None when nothing was masked). `unmasked_messages`: for each message
row that masking changed, the row as written, with the columns of `messages`.

Existing transcripts were never scanned: the stored version changes with this revision (viewer.ingest's
`SECRETS_VERSION`), so each is parsed, scanned and masked again on its next open or by `viewer reparse`.

Revision ID: 0008
Revises: 0007
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column("transcripts", sa.Column("secret_kinds", sa.Text(), nullable=True))
    op.add_column("transcripts", sa.Column("secrets_unmasked", sa.Boolean(), nullable=False,
                                           server_default=sa.false()))
    op.add_column("transcripts", sa.Column("masked_raw", sa.LargeBinary(), nullable=True))
    op.create_table(
        "unmasked_messages",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("vrank", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("kind", sa.Integer(), nullable=False),
        sa.Column("call_id", sa.Text()),
        sa.Column("span_start", sa.Integer(), nullable=False), sa.Column("span_end", sa.Integer(), nullable=False),
        sa.Column("header_start", sa.Integer()), sa.Column("header_end", sa.Integer()),
        sa.Column("line", sa.Integer(), nullable=False), sa.Column("col", sa.Integer(), nullable=False),
        sa.Column("body_start", sa.Integer()), sa.Column("body_end", sa.Integer()),
        sa.Column("content", sa.Text(), nullable=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("segments", sa.Text(), nullable=False),
        sa.Column("pair", sa.Integer()), sa.Column("partner", sa.Integer()),
    )


def downgrade() -> None:
    op.drop_table("unmasked_messages")
    with op.batch_alter_table("transcripts") as batch:
        batch.drop_column("masked_raw")
        batch.drop_column("secrets_unmasked")
        batch.drop_column("secret_kinds")
