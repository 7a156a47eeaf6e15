"""Search inside a transcript: a full-text index of each message's body and header, filled at upload.

Every indexed message has a search key: its transcript row's `start` in `message_search_ranges` plus its
index. An upload's keys are one block of 2**32 (`block << 32`), its conversations one after another in it, so
a transcript, a conversation or a whole dataset is one key range, and results in key order are in reading
order. viewer/store/search.py fills and queries the index.

SQLite: an FTS5 table over the view `message_search_source` (external content, so no text is stored twice:
the view reads the bodies from `messages`). `shown` holds the bodies the default view shows (`show_as`
message or preamble), `hidden` every other body, `header` role, name, recipient, channel, content type and
call id; the default view's queries name `shown` alone. Rows are added and deleted with the values the view
gives, so the view is the index's contract: change it only in a revision that rebuilds the index.

PostgreSQL: a table with one `tsvector` per message (the `simple` configuration: no stemming, transcripts are
multilingual and code) and a GIN index on it; the bodies the default view shows are weighted A, other bodies B,
headers D, and the default view's queries ask for weight A. Blocks come from a sequence, so concurrent uploads
never share one.

Existing transcripts have no index rows: they are marked as stored by another parser version, so that they
are parsed again (and indexed) on their next open or by `viewer reparse`.

Revision ID: 0007
Revises: 0006
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

STALE = "unindexed"
"""A parser version no release writes: viewer.ingest.up_to_date parses such a transcript again."""

SQLITE_BODY = ("coalesce(m.content, substr(m.source, m.body_start - m.span_start + 1, m.body_end - m.body_start))")
SQLITE_SHOWN = "k.show_as IN ('message', 'preamble')"
SQLITE_VIEW = f"""
CREATE VIEW message_search_source AS
SELECT r.start + m.idx AS sid, m.transcript_id AS transcript_id,
       CASE WHEN {SQLITE_SHOWN} THEN {SQLITE_BODY} END AS shown,
       CASE WHEN {SQLITE_SHOWN} THEN NULL ELSE {SQLITE_BODY} END AS hidden,
       k.role || ' ' || coalesce(k.name, '') || ' ' || coalesce(k.recipient, '') || ' ' || k.channel || ' '
         || coalesce(k.content_type, '') || ' ' || coalesce(m.call_id, '') AS header
FROM message_search_ranges AS r
JOIN messages AS m ON m.transcript_id = r.transcript_id
JOIN message_kinds AS k ON k.transcript_id = m.transcript_id AND k.number = m.kind
"""
# columnsize=0: no per-row size table, which only ranking (not used) reads; one write less per message.
SQLITE_INDEX = ("CREATE VIRTUAL TABLE message_search USING fts5(shown, hidden, header, "
                "content='message_search_source', content_rowid='sid', columnsize=0, "
                "tokenize='unicode61 remove_diacritics 2')")

POSTGRESQL = (
    "CREATE SEQUENCE message_search_blocks",
    "CREATE TABLE message_search (sid BIGINT PRIMARY KEY, words TSVECTOR NOT NULL)",
    "CREATE INDEX message_search_words ON message_search USING gin (words)",
    # The default view's: weight A alone, so that its queries need no recheck of weights on the table (a word
    # frequent in hidden text would have every row holding it read, only to find none shown).
    "CREATE INDEX message_search_shown ON message_search USING gin (ts_filter(words, '{a}'))",
)


def upgrade() -> None:
    op.create_table(
        "message_search_ranges",
        sa.Column("transcript_id", sa.String(64), sa.ForeignKey("transcripts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("start", sa.BigInteger(), nullable=False),
        sa.Column("stop", sa.BigInteger(), nullable=False),
    )
    # Unique: two transcripts never share keys (a transcript without messages gets no range).
    op.create_index("message_search_ranges_by_start", "message_search_ranges", ["start"], unique=True)
    if op.get_bind().dialect.name == "sqlite":
        op.execute(SQLITE_VIEW)
        op.execute(SQLITE_INDEX)
    else:
        for statement in POSTGRESQL:
            op.execute(statement)
    op.execute(sa.text("UPDATE transcripts SET parser_version = :stale").bindparams(stale=STALE))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        op.execute("DROP TABLE message_search")
        op.execute("DROP VIEW message_search_source")
    else:
        op.execute("DROP TABLE message_search")
        op.execute("DROP SEQUENCE message_search_blocks")
    op.drop_index("message_search_ranges_by_start", table_name="message_search_ranges")
    op.drop_table("message_search_ranges")
