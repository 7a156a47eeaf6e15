"""message_kinds.role, .channel and .intent as TEXT: they are what the upload's headers say, of any length.

As VARCHAR(64) they refused a longer role or channel on PostgreSQL (the upload failed with a 500); SQLite never
enforced the length. On PostgreSQL VARCHAR to TEXT changes only the catalog; on SQLite batch mode copies
message_kinds, a small table (one row per distinct header of a transcript).

Revision ID: 0006
Revises: 0005
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLUMNS = (("role", False), ("channel", False), ("intent", True))
"""The columns and whether each is nullable."""


def upgrade() -> None:
    with op.batch_alter_table("message_kinds") as batch:
        for name, nullable in COLUMNS:
            batch.alter_column(name, type_=sa.Text(), existing_type=sa.String(64), existing_nullable=nullable)


def downgrade() -> None:
    # Fails on PostgreSQL if a stored value is longer than 64 characters.
    with op.batch_alter_table("message_kinds") as batch:
        for name, nullable in COLUMNS:
            batch.alter_column(name, type_=sa.String(64), existing_type=sa.Text(), existing_nullable=nullable)
