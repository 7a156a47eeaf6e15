"""transcripts.expires_at: when a share link stops working and its content is deleted (VIEWER_RETENTION_DAYS).

Revision ID: 0003
Revises: 0002
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: Union[str, Sequence[str], None] = "0002"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Nullable: existing uploads keep working until pruned by age (None: no expiry was set).
    op.add_column("transcripts", sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("transcripts") as batch:
        batch.drop_column("expires_at")
