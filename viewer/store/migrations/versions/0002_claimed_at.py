"""transcripts.claimed_at: when a reader claimed a transcript to parse it again (viewer.ingest.up_to_date).

Revision ID: 0002
Revises: 0001
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0002"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Nullable, so existing rows need no value (None: no one has claimed them) and SQLite adds it in place.
    op.add_column("transcripts", sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # Batch mode: SQLite copies the table (safe: `viewer.store.migrate` turns foreign keys off around migrations,
    # or dropping the old table would cascade to every message row); other databases drop the column in place.
    with op.batch_alter_table("transcripts") as batch:
        batch.drop_column("claimed_at")
