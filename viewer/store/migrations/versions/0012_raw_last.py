"""The raw bytes last in SQLite's `transcripts` rows: `raw` and `masked_raw` become the table's last columns.

SQLite stores a row's columns in order, and a value too long for its page continues in a chain of overflow pages;
reading any column after a long one walks that chain. With `raw` second, every read of an upload's record (its
counts, name, permissions: every page of it, and of each conversation of a dataset) walked the whole upload:
90 ms a read for a 222 MB chat export (bench/exports.py). Last, the record's other columns are read from the
row's first page. PostgreSQL keeps long values out of line (TOAST) and is left as it is. The order of columns
means nothing else, so the downgrade leaves it.

Revision ID: 0012
Revises: 0011
"""
from typing import Sequence, Union

from alembic import op

revision: str = "0012"
down_revision: Union[str, Sequence[str], None] = "0011"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLUMNS = ("id", "sha256", "size", "name", "requested_dialect", "dialect", "created_at", "debug_allowed",
           "manage_hash", "is_sample", "parser_version", "header", "tools", "message_count", "visible_count",
           "hidden_count", "diagnostic_count", "error_count", "pair_count", "deleted_at", "claimed_at", "expires_at",
           "parent_id", "conversation", "conversation_count", "snippet", "secret_kinds", "secrets_unmasked", "live",
           "raw", "masked_raw")
"""Every column of `transcripts` at revision 0011, in the new order."""


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table("transcripts", recreate="always", partial_reordering=[COLUMNS]):
        pass


def downgrade() -> None:
    pass
