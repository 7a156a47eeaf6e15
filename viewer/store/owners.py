"""Who holds an upload in their list: owner keys (a browser's cookie, a tool's header), stored as the hash of
the key alone (`hash_key`), paired with the uploads they own. An upload may have several owners (the browser
that uploaded it and every browser that opened its manage link); deleting it removes every pairing.

Only live uploads count: not deleted, not expired (even before `prune` has made a tombstone of it), never a
conversation of a dataset on its own (the dataset's row is owned), never a sample (it has no manage key).
"""
from __future__ import annotations

import datetime as dt
from typing import Iterable

from sqlalchemy import and_, delete, func, or_, select, union_all
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql import ColumnElement

from viewer.store import rows
from viewer.store.schema import transcript_owners as owners
from viewer.store.schema import transcripts
from viewer.store.search import BLOCK_BITS, ranges
from viewer.store.types import Record


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


def _alive(now: dt.datetime) -> ColumnElement[bool]:
    """An upload an owner may list: stored, not deleted or expired, with a manage key, not a conversation."""
    return and_(transcripts.c.deleted_at.is_(None), transcripts.c.parent_id.is_(None),
                transcripts.c.manage_hash.is_not(None),
                or_(transcripts.c.expires_at.is_(None), transcripts.c.expires_at > now))


class Owners:
    """The pairings of owner keys (their hashes) with uploads (`Store.owners`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, owner_hash: str, ids: Iterable[str]) -> int:
        """Put uploads `ids` in the owner's list (those that are alive; one already there stays as it was).
        Returns how many it now holds of them."""
        wanted = list(dict.fromkeys(ids))
        if not wanted:
            return 0
        with self.engine.begin() as conn:
            alive = conn.execute(select(transcripts.c.id, transcripts.c.created_at)
                                 .where(transcripts.c.id.in_(wanted), _alive(_now()))).all()
            if alive:
                conn.execute(_insert_new(conn).values([{"owner_hash": owner_hash, "transcript_id": row.id,
                                                        "uploaded_at": row.created_at} for row in alive]))
        return len(alive)

    def holds(self, owner_hash: str, id: str) -> bool:
        """Whether upload `id` is in the owner's list."""
        with self.engine.connect() as conn:
            return conn.execute(select(owners.c.transcript_id).where(
                owners.c.owner_hash == owner_hash, owners.c.transcript_id == id)).first() is not None

    def owned(self, owner_hash: str, ids: Iterable[str]) -> set[str]:
        """Those of uploads `ids` that are alive and in the owner's list."""
        query = (select(owners.c.transcript_id).join(transcripts, transcripts.c.id == owners.c.transcript_id)
                 .where(owners.c.owner_hash == owner_hash, owners.c.transcript_id.in_(list(ids)), _alive(_now())))
        with self.engine.connect() as conn:
            return set(conn.execute(query).scalars())

    def count(self, owner_hash: str) -> int:
        query = (select(func.count()).select_from(owners).join(transcripts, transcripts.c.id == owners.c.transcript_id)
                 .where(owners.c.owner_hash == owner_hash, _alive(_now())))
        with self.engine.connect() as conn:
            return conn.execute(query).scalar_one()

    def window(self, owner_hash: str, start: int, size: int) -> list[Record]:
        """Up to `size` of the owner's uploads from position `start`, newest first. Two reads: the window's ids
        in the order of the index on `uploaded_at` (the filter reads only whether columns are NULL, which SQLite
        finds in a row's header), then their records (SQLite computes the columns of the rows an OFFSET skips,
        and each transcript row's columns after `raw` cost a walk over its overflow pages)."""
        page = (select(owners.c.transcript_id).join(transcripts, transcripts.c.id == owners.c.transcript_id)
                .where(owners.c.owner_hash == owner_hash, _alive(_now()))
                .order_by(owners.c.uploaded_at.desc(), owners.c.transcript_id.desc())
                .offset(max(start, 0)).limit(size))
        with self.engine.connect() as conn:
            ids = list(conn.execute(page).scalars())
        return self.records(ids)

    def records(self, ids: list[str]) -> list[Record]:
        """The records of uploads `ids` in that order (one read; an id not stored is left out)."""
        with self.engine.connect() as conn:
            found = {row.id: rows.record(row) for row in
                     conn.execute(select(*rows.record_columns()).where(transcripts.c.id.in_(ids)))}
        return [found[id] for id in ids if id in found]

    def blocks(self, owner_hash: str) -> dict[int, str]:
        """The search index's key blocks of the owner's uploads (`search`: one block an upload, a dataset's
        conversations in its block), each with its upload's id. Read from the owner's pairings and the index's
        ranges alone, since joining each upload's row made a long list slow: a deleted upload has no ranges, but
        one past its expiry keeps them until it is pruned, so the caller drops it with its record."""
        owned = select(owners.c.transcript_id).where(owners.c.owner_hash == owner_hash)
        singles = select(ranges.c.start, ranges.c.transcript_id).where(ranges.c.transcript_id.in_(owned))
        conversations = (select(ranges.c.start, transcripts.c.parent_id)
                         .join(transcripts, transcripts.c.id == ranges.c.transcript_id)
                         .where(transcripts.c.parent_id.in_(owned)))
        with self.engine.connect() as conn:
            return {start >> BLOCK_BITS: id for start, id in conn.execute(union_all(singles, conversations))}

    def hand_over(self, from_id: str, to_id: str) -> None:
        """Put upload `to_id` in the list of every owner of upload `from_id` (a link revoked and made anew: its
        new upload stays in the lists the old one was in, a tool's as a browser's)."""
        with self.engine.connect() as conn:
            hashes = list(conn.execute(select(owners.c.owner_hash).where(owners.c.transcript_id == from_id)).scalars())
        for owner_hash in hashes:
            self.add(owner_hash, [to_id])

    def merge(self, from_hash: str, into_hash: str) -> None:
        """Put every upload of one owner's list in another's too (a browser taking on a tool's key)."""
        with self.engine.connect() as conn:
            ids = list(conn.execute(select(owners.c.transcript_id).where(owners.c.owner_hash == from_hash)).scalars())
        self.add(into_hash, ids)


def _insert_new(conn: Connection):
    """An insert that leaves a pairing already there alone (two requests of one browser may race)."""
    dialect = sqlite if conn.dialect.name == "sqlite" else postgresql
    return dialect.insert(owners).on_conflict_do_nothing()


def forget(conn: Connection, id: str) -> None:
    """Take upload `id` out of every list, in the caller's transaction (it is being deleted)."""
    conn.execute(delete(owners).where(owners.c.transcript_id == id))
