"""Pasted images, stored once each by the SHA-256 of their uploaded bytes (`media_blobs`), and which messages
hold them (`transcript_media`, written with a transcript's parse rows by bulk.py).

The store keeps what link holders are served (the image re-encoded without metadata, and its thumbnail), never
decides what an image is (viewer.images does, at ingest), and serves an image only through a message that holds
it: to a default-view reader only when the default view shows that message in full. A blob that no message
holds any more is deleted with the last transcript that held it (`drop_unheld`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Iterable, Protocol

from sqlalchemy import delete, exists, insert, select
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from viewer.store.schema import media_blobs as blobs
from viewer.store.schema import transcript_media as held
from viewer.store.schema import transcripts


class CleanImage(Protocol):
    """What `put` stores of an image (viewer.images.Cleaned has it; the store does not import viewer.images)."""

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> bytes: ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def thumbnail(self) -> bytes: ...


@dataclass(frozen=True, slots=True)
class Served:
    """An image as a reader is served it."""

    type: str
    data: bytes


class MediaBlobs:
    """The images of every upload (`Store.media`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def missing(self, hashes: Iterable[str]) -> set[str]:
        """Those of `hashes` that no blob has yet."""
        wanted = set(hashes)
        if not wanted:
            return set()
        with self.engine.connect() as conn:
            stored = set(conn.execute(select(blobs.c.sha256).where(blobs.c.sha256.in_(wanted))).scalars())
        return wanted - stored

    def put(self, sha256: str, source_type: str, size: int, image: CleanImage) -> None:
        """Keep an image (its served bytes and thumbnail) under the SHA-256 of its uploaded bytes; an image
        already kept, by a concurrent upload say, stays as it is."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(blobs).values(
                    sha256=sha256, source_type=source_type, size=size, type=image.type, width=image.width,
                    height=image.height, data=image.data, thumbnail=image.thumbnail,
                    stored_at=dt.datetime.now(dt.timezone.utc)))
        except IntegrityError:
            pass

    def served(self, transcript_id: str, sha256: str, *, debug: bool, thumbnail: bool) -> Served | None:
        """Image `sha256` as transcript `transcript_id` holds it: None unless one of its messages holds it and,
        for a default-view reader (`debug` False), the default view shows that message in full."""
        holder = select(held.c.idx).where(held.c.transcript_id == transcript_id, held.c.sha256 == sha256)
        if not debug:
            holder = holder.where(held.c.visible.is_(True))
        column = blobs.c.thumbnail if thumbnail else blobs.c.data
        query = select(blobs.c.type, column).where(blobs.c.sha256 == sha256, exists(holder))
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return Served(row[0], row[1]) if row is not None else None

    def drop_unheld(self, hashes: set[str]) -> None:
        """Delete those of `hashes` that no message holds (images stored for rows that were then not stored)."""
        with self.engine.begin() as conn:
            drop_unheld(conn, hashes)

    def drop_orphans(self, older_than: dt.timedelta) -> int:
        """Delete every image no message holds that was stored longer ago than `older_than` (an upload being
        processed stores its images before its rows: a young one may be waiting for them). Returns how many."""
        cutoff = dt.datetime.now(dt.timezone.utc) - older_than
        with self.engine.begin() as conn:
            return conn.execute(delete(blobs).where(
                blobs.c.stored_at < cutoff,
                ~exists(select(held.c.sha256).where(held.c.sha256 == blobs.c.sha256)))).rowcount

    def count(self) -> int:
        """How many images are kept (for tests and the bench)."""
        with self.engine.connect() as conn:
            return len(conn.execute(select(blobs.c.sha256)).all())


def held_by(conn: Connection, id: str) -> set[str]:
    """The images transcript `id` (and, for a dataset, its conversations) holds."""
    children = select(transcripts.c.id).where(transcripts.c.parent_id == id).scalar_subquery()
    return set(conn.execute(select(held.c.sha256).where(
        (held.c.transcript_id == id) | held.c.transcript_id.in_(children))).scalars())


def drop_unheld(conn: Connection, hashes: set[str]) -> None:
    """Delete those of `hashes` that no message holds any more (call after the rows naming them are gone)."""
    if hashes:
        conn.execute(delete(blobs).where(blobs.c.sha256.in_(hashes),
                                         ~exists(select(held.c.sha256).where(held.c.sha256 == blobs.c.sha256))))
