"""What the store keeps of the secrets found in an upload: the unmasked rows only the uploader (or, if they
allow it, debug-view link holders) reads, the masked raw text every other link holder downloads, and the
`W-SECRET` findings the manage page lists.

Every other read (pages, JSON twins, exports, search) gets the masked rows in `messages`: a reader sees a
secret only through `unmasked` here, asked for by name.
"""
from __future__ import annotations

from typing import Iterator

from sqlalchemy import Table, and_, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import Select

from viewer.store import raw, rows
from viewer.store.schema import (
    diagnostics,
    message_kinds,
    messages,
    transcripts,
    unmasked_messages,
)
from viewer.store.types import Entry, Located

FINDINGS_LIMIT = 500
"""Findings the manage page lists; a dataset may have many more, and the count says how many."""


def entries(table: Table = messages) -> Select:
    """Message rows (masked, or the unmasked ones) joined to their kinds, as `rows.entry` reads them."""
    return select(*rows.entry_columns(table)).join(
        message_kinds, and_(message_kinds.c.transcript_id == table.c.transcript_id,
                            message_kinds.c.number == table.c.kind))


def unmasked(conn: Connection, id: str, found: list[Entry]) -> list[Entry]:
    """`found` (entries of transcript `id` in order) with each row that masking changed as written."""
    if not found:
        return found
    first, last = min(entry.index for entry in found), max(entry.index for entry in found)
    query = entries(unmasked_messages).where(unmasked_messages.c.transcript_id == id,
                                             unmasked_messages.c.idx.between(first, last))
    written = {entry.index: entry for entry in map(rows.entry, conn.execute(query))}
    return [written.get(entry.index, entry) for entry in found] if written else found


class Secrets:
    """The store's secrets of each upload (`Store.secrets`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def shared_raw(self, id: str) -> bytes | None:
        """The raw download a link holder gets: the text with its secrets masked, or the raw bytes unchanged
        when none were found."""
        with self.engine.connect() as conn:
            row = conn.execute(select(transcripts.c.masked_raw, transcripts.c.raw).where(transcripts.c.id == id)).first()
            if row is None or row.raw is None:
                return None
            if row.masked_raw is not None:
                return raw.whole(conn, id, row.masked_raw, masked=True)
            return raw.whole(conn, id, row.raw)

    def shared_raw_stream(self, id: str) -> Iterator[bytes] | None:
        """`shared_raw` a chunk at a time."""
        with self.engine.connect() as conn:
            row = conn.execute(select(transcripts.c.masked_raw, transcripts.c.raw).where(transcripts.c.id == id)).first()
        if row is None or row.raw is None:
            return None
        return raw.stream(self.engine, id, masked=row.masked_raw is not None)

    def head(self, id: str, size: int = 64) -> bytes:
        """The first `size` bytes of upload `id` as sent (what tells an archive or a database by its magic)."""
        with self.engine.connect() as conn:
            whole = conn.execute(select(transcripts.c.raw).where(transcripts.c.id == id)).scalar()
            for chunk in raw.chunks(conn, id, whole):
                return chunk[:size]
        return b""

    def set_unmasked(self, id: str, unmasked: bool) -> None:
        """Whether link holders of the debug view of upload `id` (and its conversations) read its secrets."""
        with self.engine.begin() as conn:
            conn.execute(update(transcripts).where(or_(transcripts.c.id == id, transcripts.c.parent_id == id))
                         .values(secrets_unmasked=unmasked))

    def findings(self, id: str, limit: int = FINDINGS_LIMIT) -> list[tuple[int | None, Located]]:
        """The `W-SECRET` warnings of upload `id` (each with its conversation number for a dataset), in order."""
        conversations = select(transcripts.c.id, transcripts.c.conversation).where(
            or_(transcripts.c.id == id, transcripts.c.parent_id == id)).subquery()
        query = (select(diagnostics, conversations.c.conversation)
                 .join(conversations, conversations.c.id == diagnostics.c.transcript_id)
                 .where(diagnostics.c.code == "W-SECRET")
                 .order_by(conversations.c.conversation.nulls_first(), diagnostics.c.seq).limit(limit))
        with self.engine.connect() as conn:
            return [(row.conversation, rows.located(row)) for row in conn.execute(query)]
