"""The rows of a live upload's tail (viewer/store/live.py): made by the same row functions as an upload's
(`viewer.store.rows`) from the tail's own parse, then shifted to the whole upload's indexes, ranks, turns,
offsets and lines; and the search index's rows from the tail's first message on, replaced in place."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterator

from sqlalchemy import and_, func, insert, select, text, update
from sqlalchemy.engine import Connection

from viewer.policy import SHOWN_IN_FULL
from viewer.store import rows, search
from viewer.store.schema import diagnostics, message_kinds, messages, pairs

KEY_FIELDS = ("role", "name", "recipient", "channel", "channel_explicit", "content_type", "constrained", "intent",
              "end", "rule")
"""A kind's key, in the order `rows.message_rows` builds it."""


@dataclass(frozen=True, slots=True)
class Counts:
    """What the tail's rows add to the upload's counts."""

    diagnostics: int
    errors: int
    pairs: int


class _Shift:
    """Tail-parse coordinates (`head + tail` text, indexes from 0) to the upload's."""

    def __init__(self, part) -> None:
        at, transcript = part.at, part.projection.transcript
        self.at, self.transcript = at, transcript
        self.chars = at.char - part.head_chars
        self.turns = at.turn - transcript.messages[0].turn if transcript.messages else 0
        self.head_line, self.head_column = transcript.position(part.head_chars)

    def offset(self, value: int | None) -> int | None:
        return None if value is None else value + self.chars

    def index(self, value: int | None) -> int | None:
        return None if value is None else value + self.at.index

    def position(self, line: int, column: int) -> tuple[int, int]:
        """A (line, column) of the tail's text in the upload: the tail's first line continues the checkpoint's."""
        if line == self.head_line:
            return self.at.line, self.at.column + column - self.head_column
        return self.at.line + line - self.head_line, column

    def segments(self, value: str) -> str:
        if value == "[]":
            return value
        moved = [{**segment, "span": [start + self.chars, end + self.chars]}
                 for segment in json.loads(value) for start, end in [segment["span"]]]
        return json.dumps(moved, ensure_ascii=False)


def insert_tail(conn: Connection, id: str, part) -> Counts:
    """Insert the tail's message, kind, diagnostic and pair rows (the old ones from the checkpoint on are gone)."""
    shift = _Shift(part)
    kinds = _stored_kinds(conn, id)
    known = len(kinds)
    message_rows = [dict(zip(rows.MESSAGE_COLUMNS, row)) for row in _message_rows(id, part, kinds, shift)]
    by_name = {rule.name: rule for rule in part.projection.rules}
    new_kinds = [dict(zip(rows.KIND_COLUMNS, (id, number, *fields, by_name[name].show_as, name, by_name[name].reason)))
                 for (*fields, name), number in kinds.items() if number >= known]
    diagnostic_rows = list(_diagnostic_rows(id, part, shift))
    pair_rows = [{"transcript_id": id, "number": number + part.at.pair, "call": shift.index(call),
                  "reply": shift.index(reply), "by": by}
                 for _, number, call, reply, by in rows.pair_rows(id, part.projection.transcript)]
    for table, values in ((message_kinds, new_kinds), (messages, message_rows), (diagnostics, diagnostic_rows),
                          (pairs, pair_rows)):
        if values:
            conn.execute(insert(table), values)
    return Counts(len(diagnostic_rows), sum(1 for row in diagnostic_rows if row["severity"] == "error"),
                  len(pair_rows))


def _stored_kinds(conn: Connection, id: str) -> dict[tuple, int]:
    found = conn.execute(select(message_kinds).where(message_kinds.c.transcript_id == id)
                         .order_by(message_kinds.c.number))
    return {tuple(getattr(row, field) for field in KEY_FIELDS): row.number for row in found}


def _message_rows(id: str, part, kinds: dict[tuple, int], shift: _Shift) -> Iterator[tuple]:
    at = part.at
    for (_, idx, rank, turn, kind, call_id, start, end, header_start, header_end, line, column, body_start,
         body_end, content, source, segments, pair, partner, agent, media) in rows.message_rows(id, part.projection,
                                                                                            kinds):
        yield (id, idx + at.index, None if rank is None else rank + at.rank, turn + shift.turns, kind, call_id,
               shift.offset(start), shift.offset(end), shift.offset(header_start), shift.offset(header_end),
               *shift.position(line, column), shift.offset(body_start), shift.offset(body_end), content, source,
               shift.segments(segments), None if pair is None else pair + at.pair, shift.index(partner),
               agent, media)  # None both: only the text dialects are read a tail at a time (parse/tail.py), and
        # they log no agent and carry no inline images


def _diagnostic_rows(id: str, part, shift: _Shift) -> Iterator[dict]:
    """The tail's diagnostics, but not those of the head (a YAML header's), which stay stored before the tail."""
    seq = part.at.seq
    for (_, _, code, severity, message, start, end, line, column, index) in rows.diagnostic_rows(
            id, part.projection.transcript):
        if start < part.head_chars:
            continue
        line, column = shift.position(line, column)
        yield {"transcript_id": id, "seq": seq, "code": code, "severity": severity, "message": message,
               "span_start": shift.offset(start), "span_end": shift.offset(end), "line": line, "col": column,
               "message_index": shift.index(index)}
        seq += 1


# ---- the search index (viewer/store/search.py): one key per message, `start + idx` -------------------------

def unindex_from(conn: Connection, id: str, first: int) -> None:
    """Delete the index rows of messages `first…` of `id` (before their rows are deleted)."""
    span = _range(conn, id)
    if span is None:
        return
    if conn.dialect.name != "sqlite":
        conn.execute(text("DELETE FROM message_search WHERE sid >= :start AND sid < :stop"),
                     {"start": span.start + first, "stop": max(span.stop, span.start + first)})
        return
    # SQLite's external-content index deletes a row given the values it indexed: those of message_search_source,
    # made here from the few rows of the tail rather than through the view, which would read every row.
    found = conn.execute(select(*rows.entry_columns()).join(message_kinds, and_(
        message_kinds.c.transcript_id == messages.c.transcript_id, message_kinds.c.number == messages.c.kind))
        .where(messages.c.transcript_id == id, messages.c.idx >= first))
    values = [_index_values(span.start, rows.entry(row)) for row in found]
    cursor = conn.connection.cursor()
    try:
        if any("\x00" in body for _, shown, hidden, _ in values for body in (shown, hidden) if body):
            cursor.execute("INSERT INTO message_search (message_search, rowid, shown, hidden, header) "
                           "SELECT 'delete', sid, shown, hidden, header FROM message_search_source "
                           "WHERE transcript_id = ? AND sid >= ?", (id, span.start + first))
        else:
            cursor.executemany("INSERT INTO message_search (message_search, rowid, shown, hidden, header) "
                               "VALUES ('delete', ?, ?, ?, ?)", values)
    finally:
        cursor.close()


def _index_values(start: int, entry: rows.Entry) -> tuple:
    """The values message_search_source gives for a stored row (migration 0007), as `rows.search_rows` does."""
    message = entry.message
    header = " ".join((message.role, message.name or "", message.recipient or "", message.channel,
                       message.content_type or "", message.call_id or ""))
    shown = entry.show_as in SHOWN_IN_FULL
    return start + message.index, message.content if shown else None, None if shown else message.content, header


def index_from(conn: Connection, id: str, first: int, projection) -> None:
    """Index the tail's messages (now stored from index `first`), and stretch the upload's key range over them."""
    total = first + len(projection.transcript.messages)
    span = _range(conn, id)
    if span is None:
        if total == 0:
            return
        start = _new_block(conn)
        conn.execute(insert(search.ranges).values(transcript_id=id, start=start, stop=start + total))
    else:
        start = span.start
        conn.execute(update(search.ranges).where(search.ranges.c.transcript_id == id).values(stop=start + total))
    if not projection.transcript.messages:
        return
    if conn.dialect.name != "sqlite":
        conn.execute(text(search.PG_INSERT + " AND m.idx >= :first"), {"ids": [id], "first": first})
        return
    cursor = conn.connection.cursor()
    try:
        if "\x00" in projection.transcript.source:
            cursor.execute("INSERT INTO message_search (rowid, shown, hidden, header) SELECT sid, shown, hidden, "
                           "header FROM message_search_source WHERE transcript_id = ? AND sid >= ?",
                           (id, start + first))
        else:
            cursor.executemany("INSERT INTO message_search (rowid, shown, hidden, header) VALUES (?, ?, ?, ?)",
                               rows.search_rows(start + first, projection))  # type: ignore[arg-type]  # an iterator
    finally:
        cursor.close()


def _range(conn: Connection, id: str):
    return conn.execute(select(search.ranges.c.start, search.ranges.c.stop)
                        .where(search.ranges.c.transcript_id == id)).first()


def _new_block(conn: Connection) -> int:
    """A new block of keys, as `search.index` takes one."""
    if conn.dialect.name == "sqlite":
        newest = conn.execute(select(func.max(search.ranges.c.start))).scalar()
        return ((newest >> search.BLOCK_BITS) + 1 if newest is not None else 1) << search.BLOCK_BITS
    return conn.exec_driver_sql("SELECT nextval('message_search_blocks')").scalar_one() << search.BLOCK_BITS
