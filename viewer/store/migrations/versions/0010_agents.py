"""Agent sessions: what a Claude Code or Codex log records of a message (its sub-agent thread and the call that
started it, its parent in the log's tree, its time, model, stop reason and token usage, whether it is on a
branch the view does not follow) is kept as JSON in `messages.agent` and `unmasked_messages.agent`.

Existing messages come from logs that record none of it: nothing to fill in (None).

Revision ID: 0010
Revises: 0009
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: Union[str, Sequence[str], None] = "0009"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

TABLES = ("messages", "unmasked_messages")


def upgrade() -> None:
    for table in TABLES:
        op.add_column(table, sa.Column("agent", sa.Text(), nullable=True))


def downgrade() -> None:
    # A plain DROP COLUMN (SQLite 3.35 and later have it): a batch copy of `messages` would fail on SQLite, whose
    # search view (0007) reads that table while the copy stands in its place.
    for table in TABLES:
        op.drop_column(table, "agent")
