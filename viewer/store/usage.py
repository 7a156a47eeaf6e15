"""What the store holds, in bytes of uploads as they were sent, for the quotas of a shared server: per owner
key (every upload in its list) and in all. Deleted and expired uploads, samples and a dataset's conversations
(the dataset's row counts its bytes once) count nothing."""
from __future__ import annotations

import datetime as dt

from sqlalchemy import and_, func, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.sql import ColumnElement

from viewer.store.schema import transcript_owners as owners
from viewer.store.schema import transcripts


def _kept(now: dt.datetime) -> ColumnElement[bool]:
    return and_(transcripts.c.deleted_at.is_(None), transcripts.c.parent_id.is_(None),
                transcripts.c.is_sample.is_(False),
                or_(transcripts.c.expires_at.is_(None), transcripts.c.expires_at > now))


class Usage:
    """Bytes stored (`Store.usage`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def owner_bytes(self, owner_hash: str) -> int:
        """The bytes of the uploads in the list of the owner key with this hash."""
        now = dt.datetime.now(dt.timezone.utc)
        query = (select(func.coalesce(func.sum(transcripts.c.size), 0))
                 .select_from(owners.join(transcripts, owners.c.transcript_id == transcripts.c.id))
                 .where(owners.c.owner_hash == owner_hash, _kept(now)))
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def total_bytes(self) -> int:
        """The bytes of every upload kept."""
        now = dt.datetime.now(dt.timezone.utc)
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.coalesce(func.sum(transcripts.c.size), 0))
                                    .where(_kept(now))).scalar_one())


__all__ = ["Usage"]
