"""The schema as it was before migrations: what `metadata.create_all` made until then.

Frozen: written out here rather than imported from `viewer.store.schema`, so that later changes to the schema
never change what this revision creates. Databases made before migrations existed are stamped at this revision
(`viewer.store.migrate`) and upgraded from here.

Revision ID: 0001
Revises:
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "transcripts",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("raw", sa.LargeBinary, nullable=True),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("name", sa.String(255), nullable=True),
        sa.Column("requested_dialect", sa.String(16), nullable=False),
        sa.Column("dialect", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("debug_allowed", sa.Boolean, nullable=False),
        sa.Column("manage_hash", sa.String(64), nullable=True),
        sa.Column("is_sample", sa.Boolean, nullable=False),
        sa.Column("parser_version", sa.String(32), nullable=False),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("message_count", sa.Integer, nullable=False),
        sa.Column("visible_count", sa.Integer, nullable=False),
        sa.Column("hidden_count", sa.Integer, nullable=False),
        sa.Column("diagnostic_count", sa.Integer, nullable=False),
        sa.Column("error_count", sa.Integer, nullable=False),
        sa.Column("pair_count", sa.Integer, nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "message_kinds",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("role", sa.String(64), nullable=False),
        sa.Column("name", sa.Text),
        sa.Column("recipient", sa.Text),
        sa.Column("channel", sa.String(64), nullable=False),
        sa.Column("channel_explicit", sa.Boolean, nullable=False),
        sa.Column("content_type", sa.Text),
        sa.Column("constrained", sa.Boolean, nullable=False),
        sa.Column("intent", sa.String(64)),
        sa.Column("end", sa.String(16), nullable=False),
        sa.Column("show_as", sa.String(16), nullable=False),
        sa.Column("rule", sa.String(64), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
    )
    op.create_table(
        "messages",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("vrank", sa.Integer, nullable=True),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.Integer, nullable=False),
        sa.Column("call_id", sa.Text),
        sa.Column("span_start", sa.Integer, nullable=False),
        sa.Column("span_end", sa.Integer, nullable=False),
        sa.Column("header_start", sa.Integer),
        sa.Column("header_end", sa.Integer),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("col", sa.Integer, nullable=False),
        sa.Column("body_start", sa.Integer),
        sa.Column("body_end", sa.Integer),
        sa.Column("content", sa.Text, nullable=True),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("segments", sa.Text, nullable=False),
        sa.Column("pair", sa.Integer),
        sa.Column("partner", sa.Integer),
    )
    op.create_index("messages_by_rank", "messages", ["transcript_id", "vrank"])
    op.create_table(
        "diagnostics",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("severity", sa.String(16), nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("span_start", sa.Integer, nullable=False),
        sa.Column("span_end", sa.Integer, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("col", sa.Integer, nullable=False),
        sa.Column("message_index", sa.Integer),
    )
    op.create_index("diagnostics_by_message", "diagnostics", ["transcript_id", "message_index"])
    op.create_table(
        "pairs",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("call", sa.Integer, nullable=False),
        sa.Column("reply", sa.Integer, nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
    )


def downgrade() -> None:
    for table in ("pairs", "diagnostics", "messages", "message_kinds", "transcripts"):
        op.drop_table(table)  # their indexes go with them
