"""The limits a shared server puts on each client: `rate_counters` holds the fixed-window request counters
(uploads an hour, expensive reads a minute) that every serving process on the database shares, and
`client_uploads` the uploads each client is sending at this moment. Nothing to carry over: a counter lasts
its window, an upload's row its request.

Revision ID: 0018
Revises: 0017
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: Union[str, Sequence[str], None] = "0017"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "client_uploads",
        sa.Column("token", sa.String(32), primary_key=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("worker", sa.String(128), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_client_uploads_client", "client_uploads", ["client"])


def downgrade() -> None:
    op.drop_index("ix_client_uploads_client", "client_uploads")
    op.drop_table("client_uploads")
    op.drop_table("rate_counters")
