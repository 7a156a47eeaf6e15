"""An upload's raw bytes, kept once and byte-exact, in chunks: written from a file a chunk at a time and read back
the same way, so that storing or downloading a big upload never holds it whole.

Where the bytes of a transcript row are, by its `raw` column: None once deleted; b"" when they are chunks (in
`raw_chunks`, or in `live_chunks` while a live upload is open, viewer/store/live.py); any other value is the
whole upload, as stored before revision 0014. The text link holders download when secrets were masked is kept
the same way, by `masked_raw`: None when nothing was masked, b"" for its `masked` chunks, else the whole text.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import BinaryIO, Iterator, cast

from sqlalchemy import delete, false, func, insert, select
from sqlalchemy.engine import Connection, Engine

from viewer.model.cuts import STANDIN
from viewer.policy import Projection
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


def _rows(table, id: str, masked: bool = False):
    """The condition selecting one upload's chunks in `table` (its bytes as sent, or its masked text)."""
    if table is live_chunks:
        return live_chunks.c.transcript_id == id
    return (raw_chunks.c.transcript_id == id) & (raw_chunks.c.masked == masked)


def write(conn: Connection, id: str, source: BinaryIO) -> Written:
    """Store the bytes of `source` (read from where it stands to its end) as the chunks of upload `id`."""
    digest = hashlib.sha256()
    size = 0
    for number, chunk in enumerate(iter(lambda: source.read(CHUNK), b"")):
        digest.update(chunk)
        size += len(chunk)
        insert_chunk(conn, id, number, chunk)
    return Written(size, digest.hexdigest())


def insert_chunk(conn: Connection, id: str, number: int, chunk: bytes, masked: bool = False) -> None:
    """Chunk `number` of upload `id`'s bytes (or of its masked text)."""
    # A parameter set, not `.values(data=chunk)`: SQLAlchemy would keep the statement, and the chunk, alive.
    conn.execute(insert(raw_chunks), {"transcript_id": id, "masked": masked, "number": number, "data": chunk})


def keep_masked(conn: Connection, id: str, shared: Projection | None, original: Projection | None) -> bytes | None:
    """Store what link holders download of upload `id` when `shared` is `original` with secrets masked: its text,
    UTF-8, a chunk at a time (nothing when there was nothing to mask). Returns its `transcripts.masked_raw`."""
    conn.execute(delete(raw_chunks).where(_rows(raw_chunks, id, masked=True)))
    if original is None or shared is None:
        return None
    for number, chunk in enumerate(_masked_bytes(conn, id, shared)):
        insert_chunk(conn, id, number, chunk, masked=True)
    return IN_CHUNKS


def _masked_bytes(conn: Connection, id: str, shared: Projection) -> Iterator[bytes]:
    """The masked text, UTF-8, a piece at a time. A session parsed from a thin text (viewer/model/cuts.py) has
    each stand-in replaced by its payload, read from the upload's chunks (stored before this): images are not
    text, nothing in them was masked."""
    text, cuts = shared.transcript.source, shared.transcript.cuts
    done = 0
    if cuts is not None:
        for match in STANDIN.finditer(text):
            yield from _encoded(text, done, match.start())
            cut = cuts.of(match)
            yield read_range(conn, id, cut.at_byte, cut.at_byte + cut.chars)
            done = match.end()
    yield from _encoded(text, done, len(text))


def _encoded(text: str, start: int, end: int) -> Iterator[bytes]:
    step = CHUNK // 4  # characters: at most four bytes each
    for at in range(start, end, step):
        yield text[at:min(at + step, end)].encode("utf-8")


def read_range(conn: Connection, id: str, start: int, end: int) -> bytes:
    """Bytes `[start, end)` of upload `id` stored in chunks, reading only the chunks that hold them."""
    rows = _rows(raw_chunks, id)
    found = conn.execute(select(raw_chunks.c.data).where(rows, raw_chunks.c.number >= start // CHUNK,
                                                         raw_chunks.c.number <= (end - 1) // CHUNK)
                         .order_by(raw_chunks.c.number)).scalars()
    joined = b"".join(found)
    first = start // CHUNK * CHUNK
    return joined[start - first:end - first]


def copy_live_chunks(conn: Connection, id: str) -> Written:
    """Make a finished live upload's appended chunks its raw chunks (in the database, never joined in memory)."""
    conn.execute(delete(raw_chunks).where(_rows(raw_chunks, id)))
    conn.execute(insert(raw_chunks).from_select(
        ["transcript_id", "masked", "number", "data"],
        select(live_chunks.c.transcript_id, false().label("masked"), live_chunks.c.number, live_chunks.c.data)
        .where(_rows(live_chunks, id))))
    digest = hashlib.sha256()
    size = 0
    for chunk in _chunks_in(conn, raw_chunks, id):
        digest.update(chunk)
        size += len(chunk)
    return Written(size, digest.hexdigest())


def forget(conn: Connection, id: str) -> None:
    """Delete every chunk of upload `id`, masked text included."""
    conn.execute(delete(raw_chunks).where(raw_chunks.c.transcript_id == id))


def _chunks_in(conn: Connection, table, id: str, masked: bool = False) -> Iterator[bytes]:
    """The chunks of `id` in `table`, in order, one row read at a time."""
    rows = _rows(table, id, masked)
    count = conn.execute(select(func.count()).where(rows)).scalar_one()
    for number in range(count):
        yield cast(bytes, conn.execute(select(table.c.data).where(rows, table.c.number == number)).scalar())


def chunks(conn: Connection, id: str, whole: bytes | None, *, masked: bool = False) -> Iterator[bytes]:
    """The bytes of upload `id` (or its masked text) a chunk at a time, given its `transcripts.raw` (or
    `masked_raw`) value `whole`; nothing when there is none."""
    if whole is None:
        return
    if whole != IN_CHUNKS:
        yield whole
        return
    found = False
    for chunk in _chunks_in(conn, raw_chunks, id, masked):
        found = True
        yield chunk
    if not found and not masked:  # an open live upload's bytes are its appends
        yield from _chunks_in(conn, live_chunks, id)


def stream(engine: Engine, id: str, *, masked: bool = False) -> Iterator[bytes] | None:
    """The bytes of upload `id` (or its masked text) a chunk at a time, each read with a connection of its own
    (a download may take minutes, and must not hold a read transaction meanwhile); None when there are none."""
    column = transcripts.c.masked_raw if masked else transcripts.c.raw
    with engine.connect() as conn:
        whole = conn.execute(select(column).where(transcripts.c.id == id)).scalar()
    if whole is None:
        return None
    if whole != IN_CHUNKS:
        return iter((whole,))
    return _streamed(engine, id, masked)


def _streamed(engine: Engine, id: str, masked: bool) -> Iterator[bytes]:
    with engine.connect() as conn:
        counts = {table: conn.execute(select(func.count()).where(_rows(table, id, masked))).scalar_one()
                  for table in (raw_chunks, live_chunks)}
    table = raw_chunks if counts[raw_chunks] or masked or not counts[live_chunks] else live_chunks
    for number in range(counts[table]):
        with engine.connect() as conn:
            chunk = conn.execute(select(table.c.data).where(_rows(table, id, masked),
                                                            table.c.number == number)).scalar()
        if chunk is None:  # deleted meanwhile
            return
        yield chunk


def whole(conn: Connection, id: str, value: bytes | None, *, masked: bool = False) -> bytes | None:
    """The bytes of upload `id` (or its masked text) joined, for small callers, given its column's value."""
    return None if value is None else b"".join(chunks(conn, id, value, masked=masked))
