"""A transcript's parse rows stored in two transactions: first the rows its first page reads (the first messages,
all its kinds so far, its diagnostics), then the rest. A big upload's first page is served after the first,
about as soon as its parse is done, instead of after every row (viewer/store/processing.py says which rows a
reader may have meanwhile: a window only when every row of it is stored).

Rows are made once, by the same generators as `bulk.insert_parses`: the message rows' generator is cut after
the first rows and taken up again by the second transaction, so kinds keep their numbers.
"""
from __future__ import annotations

from itertools import islice

from sqlalchemy.engine import Connection

from viewer.policy import Projection
from viewer.store import rows
from viewer.store.bulk import bulk_cursor, insert_many
from viewer.store.schema import diagnostics, message_kinds, messages, pairs, transcript_media, unmasked_messages


class Staged:
    """One transcript's rows (not a dataset's), to be stored first `upto` messages, then the rest."""

    def __init__(self, id: str, projection: Projection, original: Projection | None, upto: int) -> None:
        self.id, self.projection, self.upto = id, projection, upto
        self._kinds: dict[tuple, int] = {}
        self._messages = rows.message_rows(id, projection, self._kinds)
        self._unmasked = (list(rows.unmasked_rows(id, projection, original, self._kinds))
                          if original is not None else [])
        self._kinds_stored = 0

    def insert_first(self, conn: Connection) -> None:
        """The rows a first page reads: messages before `upto` (and as written, those masking changed), every
        kind numbered so far, every diagnostic (the debug view's panel lists the first ones), and which message
        holds which image (the media route's check: a first page's thumbnails load)."""
        transcript = self.projection.transcript
        with bulk_cursor(conn) as cursor:
            insert_many(conn, cursor, messages, rows.MESSAGE_COLUMNS, islice(self._messages, self.upto))
            insert_many(conn, cursor, unmasked_messages, rows.MESSAGE_COLUMNS,
                        (row for row in self._unmasked if row[1] < self.upto))
            self._insert_kinds(conn, cursor)
            insert_many(conn, cursor, diagnostics, rows.DIAGNOSTIC_COLUMNS, rows.diagnostic_rows(self.id, transcript))
            insert_many(conn, cursor, transcript_media, rows.MEDIA_COLUMNS, rows.media_rows(self.id, self.projection))

    def insert_rest(self, conn: Connection) -> None:
        """Every other row: the messages from `upto` on, the kinds they brought, and the pairs (which only the
        JSON twin reads: a card carries its pair in its message row)."""
        with bulk_cursor(conn) as cursor:
            insert_many(conn, cursor, messages, rows.MESSAGE_COLUMNS, self._messages)
            insert_many(conn, cursor, unmasked_messages, rows.MESSAGE_COLUMNS,
                        (row for row in self._unmasked if row[1] >= self.upto))
            self._insert_kinds(conn, cursor)
            insert_many(conn, cursor, pairs, rows.PAIR_COLUMNS, rows.pair_rows(self.id, self.projection.transcript))

    def _insert_kinds(self, conn: Connection, cursor) -> None:
        fresh = [row for row in rows.kind_rows(self.id, self._kinds, self.projection.rules)
                 if row[1] >= self._kinds_stored]
        insert_many(conn, cursor, message_kinds, rows.KIND_COLUMNS, fresh)
        self._kinds_stored = len(self._kinds)


def first_rows(projection: Projection, window: int) -> int:
    """How many messages from the start hold the first two windows of both views (`window` entries each): the
    first page and the one after it, so that the page's link onwards works as soon as it is shown."""
    wanted, shown, count = 2 * window + 1, 0, len(projection.transcript.messages)
    for index, rank in enumerate(projection.ranks()):
        if rank is not None:
            shown += 1
        if shown >= wanted and index + 1 >= wanted:
            return index + 1
    return count

