"""transcripts.tools: the tools a transcript declares (name → JSON schema of its parameters), for the debug view.

Revision ID: 0004
Revises: 0003
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: Union[str, Sequence[str], None] = "0003"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    # Nullable: transcripts stored before this list no tools until they are parsed again (None reads as {}).
    op.add_column("transcripts", sa.Column("tools", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("transcripts") as batch:
        batch.drop_column("tools")
