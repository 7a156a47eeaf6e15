"""An upload's raw bytes, kept once and byte-exact, in chunks: written from a file a chunk at a time and read back
the same way, so that storing or downloading a big upload never holds it whole.

Where the bytes of a transcript row are, by its `raw` column: None once deleted; b"" when they are chunks (in
`raw_chunks`, or in `live_chunks` while a live upload is open, viewer/store/live.py); any other value is the
whole upload, as stored before revision 0012.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection, Engine

from viewer.store.schema import live_chunks, raw_chunks, transcripts

CHUNK = 4 << 20
"""Bytes per chunk row: a 1 GiB upload is 256 rows; one is read while a whole parse is held, so it stays small."""
IN_CHUNKS = b""
"""`transcripts.raw` of an upload whose bytes are its chunks."""


@dataclass(frozen=True, slots=True)
class Written:
    """What storing an upload's bytes found out about them."""

    size: int
    sha256: str


def write(conn: Connection, id: str, source: BinaryIO) -> Written:
    """Store the bytes of `source` (read from where it stands to its end) as the chunks of upload `id`."""
    digest = hashlib.sha256()
    size = number = 0
    while chunk := source.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        conn.execute(insert(raw_chunks), {"transcript_id": id, "number": number, "data": chunk})
        number += 1
    return Written(size, digest.hexdigest())


def copy_live_chunks(conn: Connection, id: str) -> Written:
    """Make a finished live upload's appended chunks its raw chunks (in the database, never joined in memory)."""
    conn.execute(delete(raw_chunks).where(raw_chunks.c.transcript_id == id))
    conn.execute(insert(raw_chunks).from_select(
        ["transcript_id", "number", "data"],
        select(live_chunks.c.transcript_id, live_chunks.c.number, live_chunks.c.data)
        .where(live_chunks.c.transcript_id == id)))
    digest = hashlib.sha256()
    size = 0
    for chunk in _chunks_in(conn, raw_chunks, id):
        digest.update(chunk)
        size += len(chunk)
    return Written(size, digest.hexdigest())


def forget(conn: Connection, id: str) -> None:
    conn.execute(delete(raw_chunks).where(raw_chunks.c.transcript_id == id))


def _chunks_in(conn: Connection, table, id: str) -> Iterator[bytes]:
    """The chunks of `id` in `table`, in order, one row read at a time."""
    count = conn.execute(select(func.count()).where(table.c.transcript_id == id)).scalar()
    for number in range(count):
        yield conn.execute(select(table.c.data).where(table.c.transcript_id == id, table.c.number == number)).scalar()


def chunks(conn: Connection, id: str, whole: bytes | None) -> Iterator[bytes]:
    """The bytes of upload `id` a chunk at a time, given its `transcripts.raw` value `whole`; nothing when it is
    deleted."""
    if whole is None:
        return
    if whole != IN_CHUNKS:
        yield whole
        return
    found = False
    for chunk in _chunks_in(conn, raw_chunks, id):
        found = True
        yield chunk
    if not found:  # an open live upload's bytes are its appends
        yield from _chunks_in(conn, live_chunks, id)


def stream(engine: Engine, id: str) -> Iterator[bytes] | None:
    """The bytes of upload `id` a chunk at a time, each read with a connection of its own (a download may take
    minutes, and must not hold a read transaction meanwhile); None when it is unknown or deleted."""
    with engine.connect() as conn:
        whole = conn.execute(select(transcripts.c.raw).where(transcripts.c.id == id)).scalar()
    if whole is None:
        return None
    if whole != IN_CHUNKS:
        return iter((whole,))
    return _streamed(engine, id)


def _streamed(engine: Engine, id: str) -> Iterator[bytes]:
    with engine.connect() as conn:
        counts = {table: conn.execute(select(func.count()).where(table.c.transcript_id == id)).scalar()
                  for table in (raw_chunks, live_chunks)}
    table = raw_chunks if counts[raw_chunks] or not counts[live_chunks] else live_chunks
    for number in range(counts[table]):
        with engine.connect() as conn:
            chunk = conn.execute(select(table.c.data).where(table.c.transcript_id == id,
                                                            table.c.number == number)).scalar()
        if chunk is None:  # deleted meanwhile
            return
        yield chunk


def whole(conn: Connection, id: str, value: bytes | None) -> bytes | None:
    """The bytes of upload `id` joined (for small callers), given its `transcripts.raw` value."""
    return None if value is None else b"".join(chunks(conn, id, value))
