"""A big session stored a batch of messages at a time (viewer/parse/streamed.py reads it so), so that storing it
never holds its parse: each batch's rows moved to the file's offsets and lines, numbered on from the batch before
(indices, ranks, kinds, pairs, diagnostics), its search rows written with them, its counts on the record; the
first two windows readable as soon as their rows are stored (viewer/store/processing.py). What later lines
decided about rows stored before is applied at the end (`SessionRows.close`): a pair found for a call, changed
messages (a preamble, a response's usage moving on, a branch aside, a thread's call) stored again with their
kind and rank, the end's diagnostics placed at their messages, every diagnostic in source order.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import bindparam, func, select, text, update
from sqlalchemy.engine import Connection

from viewer.model import Message, Note, Thread, Transcript
from viewer.policy import Projection, SHOWN_IN_FULL, Said
from viewer.policy.rules import Rule, default_rules
from viewer.policy.said import Restated
from viewer.store import rows, search
from viewer.store.summaries import SNIPPET_CHARS
from viewer.store.bulk import bulk_cursor, insert_many
from viewer.store.raw import IN_CHUNKS, insert_chunk
from viewer.store.schema import diagnostics, message_kinds, messages, pairs, transcript_media, unmasked_messages
from viewer.store.shift import Shift

Change = Callable[[Message], Message]
Lines = dict[str, Mapping[int, Said | Restated]]
"""Screen's lines by message index, as link holders read them (`shared`) and as written (`original`): each a line,
or the line as stored with its sub-agent named again."""


@dataclass(frozen=True, slots=True)
class SessionPart:
    """A batch of a session's messages as the store takes it."""

    projection: Projection
    """What link holders read of it (secrets masked)."""
    original: Projection | None
    """As written, when masking changed it."""
    chars: int
    """Characters of the file before the batch's piece."""
    lines: int
    """Line breaks of the file before it."""
    masked_chars: int
    """Characters of the text link holders download before it (`chars`, while nothing was masked)."""
    first_pair: int
    """The number of its first pair in the session."""
    late_pairs: tuple[int, ...] = ()
    """The numbers of its pairs whose call was in an earlier batch."""
    masked_text: Iterable[bytes] | None = None
    """What link holders download, from the end of what the parts before gave on to the end of this one's piece
    (None while nothing was masked: then they download the upload as sent)."""
    said: dict[int, Said] | None = None
    """The screen's lines of its messages (viewer/policy/onscreen.py's `OnlineLines`), as link holders read them;
    None: as `Projection.said` says of the batch alone."""
    original_said: dict[int, Said] | None = None
    """… and as written."""
    changed: Lines = field(default_factory=dict)
    """The screen's lines of calls stored before that this batch changed (answered here), as link holders read
    them and as written."""


@dataclass(frozen=True, slots=True)
class SessionClose:
    """What the end of a session decided, as the store takes it."""

    dialect: str
    header: dict[str, Any]
    threads: tuple[Thread, ...]
    notes: list[Note]
    amendments: dict[int, list[Change]]
    secret_kinds: dict[str, int] | None = None
    changed: Lines = field(default_factory=dict)
    """The screen's lines of calls stored before that the end changed, as `SessionPart.changed`."""


@dataclass(slots=True)
class _Counts:
    messages: int = 0
    shown: int = 0
    diagnostics: int = 0
    errors: int = 0
    pairs: int = 0


@dataclass(slots=True)
class SessionRows:
    """One session's rows as they are stored, batch after batch, and what numbering them on needs."""

    id: str
    parser_version: str
    window: int = 100
    counts: _Counts = field(default_factory=_Counts)
    kinds: dict[tuple, int] = field(default_factory=dict)
    kinds_stored: int = 0
    rules: dict[str, Rule] = field(default_factory=dict)
    search_key: int | None = None
    snippet: str | None = None
    masked_chunks: int = 0
    unmasked: bool = False
    """Whether any batch stored rows as written beside the masked ones."""
    readable: bool = False

    def insert(self, conn: Connection, part: SessionPart) -> None:
        """Store one batch's rows, its search rows, and what link holders download of it."""
        projection = part.projection
        transcript = projection.transcript
        first_rank = self.counts.shown
        numbering = dict(first_rank=first_rank, first_pair=part.first_pair)
        masked_shift = Shift(part.masked_chars, part.lines)
        with bulk_cursor(conn) as cursor:
            insert_many(conn, cursor, messages, rows.MESSAGE_COLUMNS,
                        map(masked_shift.message, rows.message_rows(self.id, projection, self.kinds, **numbering,
                                                                    said=part.said)))
            if part.original is not None:
                self.unmasked = True
                insert_many(conn, cursor, unmasked_messages, rows.MESSAGE_COLUMNS, map(
                    Shift(part.chars, part.lines).message,
                    rows.unmasked_rows(self.id, projection, part.original, self.kinds, **numbering,
                                       said=part.original_said)))
            self._insert_kinds(conn, cursor, projection)
            insert_many(conn, cursor, diagnostics, rows.DIAGNOSTIC_COLUMNS,
                        (_numbered(masked_shift.diagnostic(row), self.counts.diagnostics)
                         for row in rows.diagnostic_rows(self.id, transcript)))
            insert_many(conn, cursor, pairs, rows.PAIR_COLUMNS, rows.pair_rows(self.id, transcript, part.first_pair))
            media = list(rows.media_rows(self.id, projection))
            if media:
                insert_many(conn, cursor, transcript_media, rows.MEDIA_COLUMNS, media)
            if self.search_key is None:
                self.search_key = search.open_range(conn, self.id)
            search.index_rows(conn, self.id, self.search_key, projection)
        self._late_pairs(conn, transcript, part)
        self.said_changed(conn, part.changed)
        if part.masked_text is not None:
            for chunk in part.masked_text:
                insert_chunk(conn, self.id, self.masked_chunks, chunk, masked=True)
                self.masked_chunks += 1
        self._count(projection)

    def _insert_kinds(self, conn: Connection, cursor, projection: Projection) -> None:
        """The kinds this batch numbered: each with its rule, found among every batch's so far."""
        for rule in set(projection.rules):
            self.rules.setdefault(rule.name, rule)
        fresh = [(self.id, number, *fields, rule.show_as, rule.name, rule.reason)
                 for (*fields, name), number in self.kinds.items() if number >= self.kinds_stored
                 for rule in [self.rules[name]]]
        insert_many(conn, cursor, message_kinds, rows.KIND_COLUMNS, fresh)
        self.kinds_stored = len(self.kinds)

    def _late_pairs(self, conn: Connection, transcript: Transcript, part: SessionPart) -> None:
        """The rows of calls stored in earlier batches learn the pair their reply made here."""
        found = [{"number": number, "call": pair.call, "reply": pair.reply}
                 for number in part.late_pairs for pair in [transcript.pairs[number - part.first_pair]]]
        if not found:
            return
        for table in (messages, unmasked_messages) if self.unmasked else (messages,):
            conn.execute(update(table).where(table.c.transcript_id == self.id, table.c.idx == bindparam("call"))
                         .values(pair=bindparam("number"), partner=bindparam("reply")), found)

    def said_changed(self, conn: Connection, changed: Lines) -> None:
        """The screen's lines of calls stored before, changed: on the rows the default view shows (the others keep
        none), as link holders read them and, where stored apart, as written."""
        for table, lines in ((messages, changed.get("shared", {})),
                             (unmasked_messages, changed.get("original", {}) if self.unmasked else {})):
            if not lines:
                continue
            found = [(row.idx, row.agent) for start in range(0, len(lines), 500) for row in conn.execute(
                select(table.c.idx, table.c.agent).where(table.c.transcript_id == self.id,
                                                         table.c.idx.in_(sorted(lines)[start:start + 500]),
                                                         table.c.vrank.is_not(None)))]
            if found:
                conn.execute(update(table).where(table.c.transcript_id == self.id, table.c.idx == bindparam("index"))
                             .values(agent=bindparam("agent")),
                             [{"index": index, "agent": rows.with_said(agent, lines[index])} for index, agent in found])

    def _count(self, projection: Projection) -> None:
        transcript = projection.transcript
        counts = self.counts
        counts.messages += len(transcript.messages)
        counts.shown += len(transcript.messages) - projection.hidden_count
        counts.diagnostics += len(transcript.diagnostics)
        counts.errors += sum(1 for diagnostic in transcript.diagnostics if diagnostic.severity == "error")
        counts.pairs += len(transcript.pairs)
        if self.snippet is None:
            first = projection.first_visible_user_message()
            if first is not None:
                self.snippet = rows.bound(first.content[:SNIPPET_CHARS])
        wanted = 2 * self.window + 1  # the first page and the one after it (viewer/store/staged.py)
        self.readable = self.readable or (counts.messages >= wanted and counts.shown >= wanted)

    def summary(self, dialect: str, header: dict[str, Any] | None = None) -> dict[str, Any]:
        """The record's counts so far (and its header, once known)."""
        counts = self.counts
        return {"dialect": dialect, "parser_version": self.parser_version, "snippet": self.snippet,
                "header": json.dumps(header or {}, default=str, ensure_ascii=False), "tools": "{}",
                "message_count": counts.messages, "visible_count": counts.shown,
                "hidden_count": counts.messages - counts.shown, "diagnostic_count": counts.diagnostics,
                "error_count": counts.errors, "pair_count": counts.pairs}

    # ---- the end -------------------------------------------------------------------------------------------

    def close(self, conn: Connection, end: SessionClose) -> dict[str, Any]:
        """Apply what the end decided to the rows stored; returns the record's final summary."""
        self.said_changed(conn, end.changed)
        amended = Amending(self, conn, end)
        amended.apply()
        if end.notes:
            self._notes(conn, end.notes)
        if self.search_key is not None:
            search.close_range(conn, self.id, self.search_key, self.counts.messages)
        summary = self.summary(end.dialect, end.header)
        if end.secret_kinds:
            summary["secret_kinds"] = json.dumps(end.secret_kinds, ensure_ascii=False)
        summary["masked_raw"] = IN_CHUNKS if self.masked_chunks else None
        return summary

    def _notes(self, conn: Connection, notes: list[Note]) -> None:
        """The end's diagnostics, each at its message as stored, then every diagnostic numbered in source order
        (ties in the order they were found)."""
        found: list[tuple] = []
        for note in notes:
            row = conn.execute(select(messages.c.span_start, messages.c.span_end, messages.c.header_start,
                                      messages.c.header_end, messages.c.line, messages.c.col, messages.c.source)
                               .where(messages.c.transcript_id == self.id, messages.c.idx == note.index)).first()
            if row is None:
                continue
            span, line, column = (row.span_start, row.span_end), row.line, row.col
            if note.at_header and row.header_start is not None:
                span = (row.header_start, row.header_end)
                before = row.source[:row.header_start - row.span_start]
                if "\n" in before:
                    line, column = line + before.count("\n"), len(before) - before.rfind("\n")
                else:
                    column += len(before)
            diagnostic = note.at(span)
            found.append((self.id, self.counts.diagnostics + len(found), diagnostic.code, diagnostic.severity,
                          diagnostic.message, span[0], span[1], line, column, diagnostic.message_index))
            self.counts.errors += diagnostic.severity == "error"
        with bulk_cursor(conn) as cursor:
            insert_many(conn, cursor, diagnostics, rows.DIAGNOSTIC_COLUMNS, found)
        self.counts.diagnostics += len(found)
        _in_source_order(conn, self.id)


AMENDED_AT_ONCE = 500
"""Messages the end changed that are read back and stored again at a time (their text with them)."""


class Amending:
    """The messages the end changed, stored again: their kind (and so their rule), their thread's call, their
    metadata and branch; their search rows; and when what the default view shows changed, its ranks."""

    def __init__(self, rows_: SessionRows, conn: Connection, end: SessionClose) -> None:
        self.rows, self.conn, self.end = rows_, conn, end
        self.threads = {thread.id: thread for thread in end.threads}

    def apply(self) -> None:
        if not self.end.amendments:
            return
        indices = sorted(self.end.amendments)
        search.unindex_messages(self.conn, self.rows.id, indices)
        shown_changed = False
        for table in (messages, unmasked_messages) if self.rows.unmasked else (messages,):
            shown_changed |= self._table(table, indices)
        search.reindex_messages(self.conn, self.rows.id, indices)
        if shown_changed:
            self._ranks()
            self._snippet()

    def _table(self, table, indices: list[int]) -> bool:
        """Store the changed messages of `table` again, a bounded number at a time (a session with its branches
        aside has as many as it has messages); whether what the default view shows of any changed."""
        changed = False
        for start in range(0, len(indices), AMENDED_AT_ONCE):
            changed |= self._rows(table, indices[start:start + AMENDED_AT_ONCE])
        return changed

    def _rows(self, table, indices: list[int]) -> bool:
        changed, updates, new_kinds = False, [], []
        for entry in self._entries(table, indices):
            message = entry.message
            for change in self.end.amendments[message.index]:
                message = change(message)
            rule = default_rules(Transcript(dialect=self.end.dialect, source="", messages=(message,),
                                            header=self.end.header))[0]
            key = (message.role, message.name, message.recipient, message.channel, message.channel_explicit,
                   message.content_type, message.constrained, message.intent, message.end, rule.name)
            kind = self.rows.kinds.get(key)
            if kind is None:
                kind = self.rows.kinds[key] = len(self.rows.kinds)
                new_kinds.append((self.rows.id, kind, *key[:-1], rule.show_as, rule.name, rule.reason))
            changed |= entry.show_as != rule.show_as
            said = entry.said if rule.show_as != "hidden" else None  # the default view's rows alone have one
            updates.append({"index": message.index, "kind": kind,
                            "agent": rows.agent_json(message, self.threads, said)})
        if new_kinds:
            with bulk_cursor(self.conn) as cursor:
                insert_many(self.conn, cursor, message_kinds, rows.KIND_COLUMNS, new_kinds)
            self.rows.kinds_stored = len(self.rows.kinds)
        if updates:
            self.conn.execute(update(table).where(table.c.transcript_id == self.rows.id,
                                                  table.c.idx == bindparam("index"))
                              .values(kind=bindparam("kind"), agent=bindparam("agent")), updates)
        return changed

    def _entries(self, table, indices: list[int]) -> list:
        """The stored entries of messages `indices` (at most `AMENDED_AT_ONCE`)."""
        query = (select(*rows.entry_columns(table)).select_from(table.join(
            message_kinds, (message_kinds.c.transcript_id == table.c.transcript_id)
            & (message_kinds.c.number == table.c.kind)))
            .where(table.c.transcript_id == self.rows.id, table.c.idx.in_(indices)))
        return [rows.entry(row) for row in self.conn.execute(query)]

    def _snippet(self) -> None:
        """The record's snippet again: the user message it quotes may be set aside now (a rewind to the first
        prompt), so that it quotes the first one the default view shows in full, as the whole parse's does."""
        query = (select(*rows.entry_columns(messages)).select_from(messages.join(
            message_kinds, (message_kinds.c.transcript_id == messages.c.transcript_id)
            & (message_kinds.c.number == messages.c.kind)))
            .where(messages.c.transcript_id == self.rows.id, message_kinds.c.role == "user",
                   message_kinds.c.show_as.in_(SHOWN_IN_FULL))
            .order_by(messages.c.idx).limit(1))
        row = self.conn.execute(query).first()
        self.rows.snippet = rows.bound(rows.entry(row).message.content[:SNIPPET_CHARS]) if row is not None else None

    def _ranks(self) -> None:
        """Every row's default-view rank again (hidden: None), and which of its images the default view shows."""
        for table in (messages, unmasked_messages) if self.rows.unmasked else (messages,):
            name = table.name
            self.conn.execute(text(
                f"UPDATE {name} SET vrank = NULL WHERE transcript_id = :id AND kind IN "
                "(SELECT number FROM message_kinds WHERE transcript_id = :id AND show_as = 'hidden')"),
                {"id": self.rows.id})
            self.conn.execute(text(
                f"UPDATE {name} SET vrank = ranked.r FROM (SELECT m.idx AS idx, ROW_NUMBER() OVER (ORDER BY m.idx) - 1 "
                f"AS r FROM {name} AS m JOIN message_kinds AS k ON k.transcript_id = m.transcript_id AND "
                "k.number = m.kind WHERE m.transcript_id = :id AND k.show_as != 'hidden') AS ranked "
                f"WHERE {name}.transcript_id = :id AND {name}.idx = ranked.idx"), {"id": self.rows.id})
        shown = ", ".join(f"'{show_as}'" for show_as in SHOWN_IN_FULL)
        self.conn.execute(text(
            "UPDATE transcript_media SET visible = (SELECT k.show_as IN (" + shown + ") FROM messages AS m "
            "JOIN message_kinds AS k ON k.transcript_id = m.transcript_id AND k.number = m.kind "
            "WHERE m.transcript_id = transcript_media.transcript_id AND m.idx = transcript_media.idx) "
            "WHERE transcript_id = :id"), {"id": self.rows.id})
        self.rows.counts.shown = self.conn.execute(
            select(func.count()).select_from(messages).where(messages.c.transcript_id == self.rows.id,
                                                             messages.c.vrank.is_not(None))).scalar_one()


def _in_source_order(conn: Connection, id: str) -> None:
    """Number a transcript's diagnostics in source order, ties in the order they were numbered."""
    conn.execute(text("UPDATE diagnostics SET seq = seq + 1073741824 WHERE transcript_id = :id"), {"id": id})
    conn.execute(text(
        "UPDATE diagnostics SET seq = ranked.r FROM (SELECT seq AS old, ROW_NUMBER() OVER (ORDER BY span_start, "
        "span_end, seq) - 1 AS r FROM diagnostics WHERE transcript_id = :id) AS ranked "
        "WHERE diagnostics.transcript_id = :id AND diagnostics.seq = ranked.old"), {"id": id})


def _numbered(row: tuple, first: int) -> tuple:
    """A diagnostic row numbered on from the diagnostics stored before."""
    return (row[0], row[1] + first, *row[2:])



__all__ = ["SessionClose", "SessionPart", "SessionRows"]
