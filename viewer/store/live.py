"""Live uploads: a transcript an agent appends to while it runs, and the rows of its unfinished tail.

An open upload keeps its bytes as chunks (`live_chunks`, one per append; `transcripts.raw` stays empty, since
SQLite rewrites a whole row, raw bytes included, on any update; they become its raw chunks, viewer/store/raw.py,
when it is finished) and its unfinished tail (`live_tails`): the
bytes from the first message that may still change, the text before the first message (a YAML header) and a
`Checkpoint` saying what the stored rows before the tail add up to. An append parses the head and the tail
alone (viewer.ingest), and `replace_tail` swaps the tail's rows, diagnostics, pairs and search index rows for
the new ones, shifted to the whole transcript's indexes and offsets: its cost follows the tail, not the upload.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from viewer.policy import Projection
from viewer.store import live_rows, raw, summaries
from viewer.store.bulk import delete_parse, insert_parse
from viewer.store.engine import bulk_transaction
from viewer.store.schema import diagnostics, live_chunks, live_tails, messages, pairs, transcripts

OPEN, FINISHED, TRUNCATED = "open", "finished", "truncated"
TRUNCATED_CODE = "E-STREAM-TRUNCATED"


class AppendConflict(Exception):
    """Another append to the same upload was stored first: the caller may send this one again."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Where an open upload's unfinished tail starts (the first message that may still change) and what the
    stored rows before it add up to."""

    index: int
    """The tail's first message index."""
    rank: int
    """Default-view entries before it."""
    turn: int
    """Its turn number."""
    seq: int
    """Diagnostics before it (they start before `char`)."""
    errors: int
    """Of those, errors."""
    pair: int
    """Pairs before it (their replies come before it)."""
    char: int
    """Its offset in the decoded text."""
    line: int
    column: int
    snippet: str | None = None
    """The start of the first user message the default view shows before it (the upload's snippet), if any."""


@dataclass(frozen=True, slots=True)
class Tail:
    """An open upload's unfinished tail. Without a checkpoint the whole upload is parsed at each append (its
    first message is not read yet, or its bytes are not clean UTF-8)."""

    head: str
    data: bytes
    at: Checkpoint | None
    chunks: int = 0
    """Chunks stored so far: the next append is chunk number `chunks`."""


@dataclass(frozen=True, slots=True)
class TailParse:
    """An append's parse of `head + tail` (in that text's own offsets), what it replaces, and the next tail."""

    projection: Projection
    head_chars: int
    at: Checkpoint
    next: Tail


def _summary(part: TailParse, counts: live_rows.Counts) -> dict:
    at, projection = part.at, part.projection
    message_count = at.index + len(projection.transcript.messages)
    hidden = at.index - at.rank + projection.hidden_count
    values: dict[str, Any] = {
        "message_count": message_count, "visible_count": message_count - hidden, "hidden_count": hidden,
        "diagnostic_count": at.seq + counts.diagnostics, "error_count": at.errors + counts.errors,
        "pair_count": at.pair + counts.pairs}
    first = projection.first_visible_user_message()
    values["snippet"] = at.snippet if at.snippet is not None or first is None else first.content[:summaries.SNIPPET_CHARS]
    return values


def _add_chunk(conn: Connection, id: str, number: int, data: bytes) -> None:
    """The append's bytes, as chunk `number`: a second append that read the same tail fails here."""
    stored = conn.execute(select(func.count()).where(live_chunks.c.transcript_id == id)).scalar()
    if stored != number:
        raise AppendConflict(id)
    conn.execute(insert(live_chunks).values(transcript_id=id, number=number, data=data))


def _set_tail(conn: Connection, id: str, tail: Tail) -> None:
    conn.execute(update(live_tails).where(live_tails.c.transcript_id == id).values(**_tail_values(tail)))


def _tail_values(tail: Tail) -> dict:
    return {"head": tail.head, "tail": tail.data,
            "checkpoint": json.dumps(asdict(tail.at)) if tail.at is not None else None}


def forget(conn: Connection, id: str) -> None:
    """Drop an upload's live chunks and tail (when it is finished or deleted)."""
    conn.execute(delete(live_chunks).where(live_chunks.c.transcript_id == id))
    conn.execute(delete(live_tails).where(live_tails.c.transcript_id == id))


class LiveUploads:
    """The store's live uploads (`Store.live`): each one's chunks as appended, and the tail its next append
    parses again."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def open_upload(self, id: str, tail: Tail) -> None:
        """Make a just stored upload live: its bytes become chunk 0, its tail is kept."""
        with self.engine.begin() as conn:
            value = conn.execute(select(transcripts.c.raw).where(transcripts.c.id == id)).scalar()
            data = raw.whole(conn, id, value) or b""
            raw.forget(conn, id)
            conn.execute(insert(live_chunks).values(transcript_id=id, number=0, data=data))
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(raw=raw.IN_CHUNKS, live=OPEN))
            conn.execute(insert(live_tails).values(transcript_id=id, **_tail_values(tail)))

    def tail(self, id: str) -> Tail | None:
        """An open upload's tail, or None when `id` is not open."""
        with self.engine.connect() as conn:
            row = conn.execute(select(live_tails).where(live_tails.c.transcript_id == id)).first()
            if row is None:
                return None
            chunks = conn.execute(select(func.count()).where(live_chunks.c.transcript_id == id)).scalar_one()
        at = Checkpoint(**json.loads(row.checkpoint)) if row.checkpoint else None
        return Tail(row.head, row.tail, at, chunks)

    def replace_all(self, id: str, number: int, data: bytes, projection: Projection, parser_version: str,
                    next_tail: Tail, *, original: Projection | None = None, secret_kinds: dict | None = None) -> None:
        """Store an append whose upload was parsed whole: every parse row replaced (`original` and
        `secret_kinds` as `Store.add` takes them)."""
        with bulk_transaction(self.engine) as conn:
            _add_chunk(conn, id, number, data)
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(**summaries.summary(projection, parser_version), size=transcripts.c.size + len(data),
                                 **summaries.secrets(secret_kinds)))
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(masked_raw=raw.keep_masked(conn, id, projection, original)))
            delete_parse(conn, id)
            insert_parse(conn, id, projection, original)
            _set_tail(conn, id, next_tail)

    def replace_tail(self, id: str, number: int, data: bytes, part: TailParse) -> None:
        """Store an append whose tail was parsed alone: the rows from the checkpoint on are replaced by the tail's,
        shifted to the upload's indexes and offsets; the rows before it are not read."""
        at = part.at
        with bulk_transaction(self.engine) as conn:
            _add_chunk(conn, id, number, data)
            live_rows.unindex_from(conn, id, at.index)  # before the rows, which SQLite's index reads
            conn.execute(delete(messages).where(messages.c.transcript_id == id, messages.c.idx >= at.index))
            conn.execute(delete(diagnostics).where(diagnostics.c.transcript_id == id, diagnostics.c.seq >= at.seq))
            conn.execute(delete(pairs).where(pairs.c.transcript_id == id, pairs.c.number > at.pair))
            counts = live_rows.insert_tail(conn, id, part)
            live_rows.index_from(conn, id, at.index, part.projection)
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(**_summary(part, counts), size=transcripts.c.size + len(data)))
            _set_tail(conn, id, part.next)

    def set_tail(self, id: str, tail: Tail) -> None:
        """Keep a new tail for an open upload (after its whole parse was replaced)."""
        with self.engine.begin() as conn:
            _set_tail(conn, id, tail)

    def finish(self, id: str) -> str:
        """Close an open upload: its appended chunks become its raw chunks, its tail is forgotten. Returns its
        state: TRUNCATED when it ends without a stop (E-STREAM-TRUNCATED), else FINISHED."""
        with self.engine.begin() as conn:
            written = raw.copy_live_chunks(conn, id)
            cut = conn.execute(select(diagnostics.c.seq).where(diagnostics.c.transcript_id == id,
                                                               diagnostics.c.code == TRUNCATED_CODE).limit(1)).first()
            state = TRUNCATED if cut is not None else FINISHED
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(
                raw=raw.IN_CHUNKS, sha256=written.sha256, size=written.size, live=state))
            forget(conn, id)
        return state

    def changed_marker(self, id: str) -> tuple | None:
        """What changes at every append and at the finish (for the live page's event stream to poll cheaply)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(transcripts.c.size, transcripts.c.message_count, transcripts.c.live,
                                      transcripts.c.deleted_at).where(transcripts.c.id == id)).first()
        return tuple(row) if row is not None else None


__all__ = ["FINISHED", "OPEN", "TRUNCATED", "AppendConflict", "Checkpoint", "LiveUploads", "Tail", "TailParse"]
