"""Search inside a transcript with the database's own full-text index (the tables are made by migration 0007,
which explains the keys): filled in the upload's transaction, emptied with its parse rows, queried by key range.

What the default view may find is decided when the index is written: only the bodies it shows (SQLite: the
column `shown`; PostgreSQL: the words of weight A, with an index of their own), never a hidden message, a
marker or a header, so no query can find or count hidden text. The debug view searches bodies and headers of
every message. A query is words (all must match, in any order) and "quoted phrases", case-insensitive; a word
typed alone also finds the words it begins (`interrupt` finds `interrupted`: people search as they type), a
quoted one only itself; no character of it reaches a full-text query language unquoted. Excerpts are cut in
Python from the stored body.
"""
from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from sqlalchemy import and_, column, func, or_, select, table, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError

from viewer.model.words import DEBUG, VIEWS, View
from viewer.policy import SHOWN_IN_FULL, Projection
from viewer.store.faults import storage_fault
from viewer.store.rows import search_rows
from viewer.store.schema import message_kinds, messages, transcripts

MAX_QUERY_CHARS = 500
COUNT_CAP = 1000
"""Matches counted at most: beyond it the total reads "1,000+" (counting all of a common word costs time)."""
BLOCK_BITS = 32
"""An upload's keys are one block of 2**32: its messages, conversation after conversation."""
PG_BLANKS = "./@<>&"
"""Made blanks before PostgreSQL's parser reads text or a query's terms (see `_pg_blanks`)."""
PG_INDEXED_CHARS = 100_000
"""Characters of a body PostgreSQL indexes: a tsvector holds at most 1 MB, and this keeps any body under it."""

log = logging.getLogger(__name__)
ranges = table("message_search_ranges", column("transcript_id"), column("start"), column("stop"))
_QUOTED_OR_WORD = re.compile(r'"([^"]*)"?|([^\s"]+)')
_TOKEN = re.compile(r"[^\W_]+")
PREFIX_CHARS = 3
"""A word typed alone matches as a prefix from this many characters (a shorter one would match most words)."""


class BadQuery(ValueError):
    """A query the search refuses, with a message for the reader."""


@dataclass(frozen=True, slots=True)
class Query:
    text: str
    terms: tuple[str, ...]
    """Words and phrases, each matched as a phrase of its words; empty when the text has no word at all."""
    prefixes: frozenset[str] = frozenset()
    """The terms that also match the longer words they begin: a single word typed unquoted, of `PREFIX_CHARS`
    letters or digits at least."""


@dataclass(frozen=True, slots=True)
class Hit:
    transcript_id: str
    conversation: int | None
    index: int
    role: str
    channel: str
    recipient: str | None
    body: str
    header: str
    """Role, name, recipient, channel, content type and call id, as the debug view's search reads them."""


@dataclass(frozen=True, slots=True)
class Results:
    hits: tuple[Hit, ...]
    total: int
    """Matches counted, at most `COUNT_CAP`."""
    more: bool
    """Whether there are more than `COUNT_CAP`."""
    next_offset: int | None


NO_RESULTS = Results((), 0, False, None)


def parse_query(raw: str) -> Query:
    """Words and "quoted phrases" (an unclosed quote runs to the end); BadQuery when empty or too long."""
    stripped = raw.replace("\x00", " ").strip()
    if not stripped:
        raise BadQuery('Type a word or a "quoted phrase" to search for.')
    if len(raw) > MAX_QUERY_CHARS:
        raise BadQuery(f"A search is at most {MAX_QUERY_CHARS} characters; this one has {len(raw):,}.")
    terms: list[str] = []
    prefixes: set[str] = set()
    for match in _QUOTED_OR_WORD.finditer(stripped):
        quoted = match[0].startswith('"')
        term = " ".join((match[1] if quoted else match[2]).split())
        if _TOKEN.search(term) and term not in terms:  # no letter or digit: nothing a word index can match
            terms.append(term)
        if not quoted and is_prefix_word(term):
            prefixes.add(term)
    return Query(stripped, tuple(terms), frozenset(prefixes))


def is_prefix_word(term: str) -> bool:
    """Whether `term` may match as a prefix: one word of letters and digits, long enough."""
    return len(term) >= PREFIX_CHARS and _TOKEN.fullmatch(term) is not None


# ---- writing: in the caller's transaction, after the parse rows (the index reads them) ----------------------

def index(conn: Connection, parses: Iterable[tuple[str, Projection]]) -> None:
    """Index the messages of transcript rows `(id, projection)`, one upload's: a new block of keys, a range in it
    for each row in the order given (a dataset's conversations in order)."""
    sqlite = conn.dialect.name == "sqlite"
    # SQLite: the caller already holds its write lock (it wrote the parse rows), so no one else allocates;
    # PostgreSQL: a sequence, so concurrent uploads in other transactions never get the same block.
    key = _new_block(conn) << BLOCK_BITS
    spans: list[dict[str, Any]] = []
    indexed: list[tuple[str, int, Projection]] = []
    for id, projection in parses:
        if count := len(projection.transcript.messages):
            spans.append({"transcript_id": id, "start": key, "stop": key + count})
            indexed.append((id, key, projection))
            key += count
    if not spans:
        return
    conn.execute(ranges.insert(), sorted(spans, key=lambda span: span["transcript_id"]))  # see bulk.insert_parses
    if sqlite:
        _sqlite_index(conn, indexed)
    else:
        conn.execute(text(PG_INSERT), {"ids": [span["transcript_id"] for span in spans]})
        _pg_clean_pending(conn)


def open_range(conn: Connection, id: str) -> int:
    """A new block of keys for transcript `id`, indexed a batch of messages at a time (a session stored so:
    viewer/store/sessions.py); its range is empty until `close_range`. Returns its first key."""
    key = _new_block(conn) << BLOCK_BITS
    conn.execute(ranges.insert(), [{"transcript_id": id, "start": key, "stop": key}])
    return key


def _new_block(conn: Connection) -> int:
    if conn.dialect.name == "sqlite":  # the caller holds SQLite's write lock: no one else allocates meanwhile
        newest = conn.execute(select(func.max(ranges.c.start))).scalar()
        return (newest >> BLOCK_BITS) + 1 if newest is not None else 1
    return conn.exec_driver_sql("SELECT nextval('message_search_blocks')").scalar_one()


def index_rows(conn: Connection, id: str, key: int, projection: Projection) -> None:
    """Index a batch of transcript `id`'s messages (stored already), keyed from `key` by their indices: on
    SQLite now; PostgreSQL indexes every row at `close_range`, from the rows as they are then."""
    if conn.dialect.name != "sqlite" or not projection.transcript.messages:
        return
    cursor, insert = conn.connection.cursor(), "INSERT INTO message_search (rowid, shown, hidden, header)"
    messages = projection.transcript.messages
    if "\x00" in projection.transcript.source:  # the view's substr() stops at a NUL: it says what is indexed
        cursor.execute(f"{insert} SELECT sid, shown, hidden, header FROM message_search_source "
                       "WHERE transcript_id = ? AND sid BETWEEN ? AND ?",
                       (id, key + messages[0].index, key + messages[-1].index))
    else:
        cursor.executemany(f"{insert} VALUES (?, ?, ?, ?)", search_rows(key, projection))  # type: ignore[arg-type]
    cursor.close()


def close_range(conn: Connection, id: str, key: int, count: int) -> None:
    """The range of a transcript indexed a batch at a time covers its `count` messages; PostgreSQL indexes them."""
    conn.execute(ranges.update().where(ranges.c.transcript_id == id).values(stop=key + count))
    if conn.dialect.name != "sqlite":
        conn.execute(text(PG_INSERT), {"ids": [id]})
        _pg_clean_pending(conn)


def unindex_messages(conn: Connection, id: str, indices: list[int]) -> None:
    """Take some of transcript `id`'s messages out of the SQLite index (before their rows change; `reindex_messages`
    after): PostgreSQL's is written at `close_range`."""
    if conn.dialect.name == "sqlite":
        _sqlite_by_sid(conn, id, indices, "INSERT INTO message_search (message_search, rowid, shown, hidden, header) "
                                          "SELECT 'delete', sid, shown, hidden, header FROM message_search_source")


def reindex_messages(conn: Connection, id: str, indices: list[int]) -> None:
    if conn.dialect.name == "sqlite":
        _sqlite_by_sid(conn, id, indices, "INSERT INTO message_search (rowid, shown, hidden, header) "
                                          "SELECT sid, shown, hidden, header FROM message_search_source")


def _sqlite_by_sid(conn: Connection, id: str, indices: list[int], statement: str) -> None:
    """`statement` for the messages `indices` of transcript `id`, all in one: the view's key is a sum, which no
    index finds, so each statement reads every message of the transcript (one per message made a session
    with thousands of amended messages take minutes to close)."""
    start = conn.execute(select(ranges.c.start).where(ranges.c.transcript_id == id)).scalar()
    if start is None or not indices:
        return
    cursor = conn.connection.cursor()
    cursor.execute(f"{statement} WHERE transcript_id = ? AND sid IN (SELECT value FROM json_each(?))",
                   (id, json.dumps([start + index for index in indices])))
    cursor.close()


def _sqlite_index(conn: Connection, indexed: list[tuple[str, int, Projection]]) -> None:
    """The rows of `(id, first key, projection)`: the values the view `message_search_source` gives (the index's
    contract: deletes and integrity-check read them there) made in memory, since reading them through the view
    took as long again as indexing; an upload with a NUL, where the view's substr() stops, goes through it."""
    cursor, insert = conn.connection.cursor(), "INSERT INTO message_search (rowid, shown, hidden, header)"
    if "\x00" in indexed[0][2].transcript.source:
        cursor.executemany(f"{insert} SELECT sid, shown, hidden, header FROM message_search_source "
                           "WHERE transcript_id = ?", [(id,) for id, _, _ in indexed])
    else:
        # sqlite3 takes an iterator: the rows are made as they are inserted.
        cursor.executemany(f"{insert} VALUES (?, ?, ?, ?)",
                           (row for _, key, projection in indexed for row in search_rows(key, projection)))  # type: ignore[arg-type]
    cursor.close()


def _pg_clean_pending(conn: Connection) -> None:
    """Move the GIN indexes' pending entries (the last few MB an upload adds, unsorted) into the indexes proper:
    every query reads the pending list whole, which slowed every search until autovacuum came; this costs a
    little at upload. Only the indexes' owner may: skipped for another role. A failure of the database itself (a
    lost connection, a server shutting down) is raised: the upload's transaction cannot go on without it."""
    try:
        with conn.begin_nested():
            conn.exec_driver_sql("SELECT gin_clean_pending_list('message_search_words'), "
                                 "gin_clean_pending_list('message_search_shown')")
    except DBAPIError as error:
        if storage_fault(error) is not None:
            raise
        log.info("search index: pending entries left to autovacuum (the app's role does not own the index)")


def _pg_words(expression: str) -> str:
    return f"to_tsvector('simple', {_pg_blanks(f'left({expression}, {PG_INDEXED_CHARS})')})"


def _pg_blanks(expression: str) -> str:
    """Characters on which PostgreSQL's parser builds tokens that SQLite's tokenizer does not, made blanks:
    `.` `/` `@` (it reads `functions.get_weather` as the host name `functions.get` and `weather`, a path or an
    address as one word), `<` `>` `&` (it drops tags and entities, and everything after a `<script>` tag).
    The same is done to a query's terms. (Six replace calls cost a few percent of the parsing; translate over
    all punctuation cost twice the parsing.)"""
    for character in PG_BLANKS:
        expression = f"replace({expression}, '{character}', ' ')"
    return expression


_PG_BODY = "coalesce(m.content, substr(m.source, m.body_start - m.span_start + 1, m.body_end - m.body_start))"
_PG_HEADER = "concat_ws(' ', k.role, k.name, k.recipient, k.channel, k.content_type, m.call_id)"
_PG_SHOWN_IN_FULL = ", ".join(f"'{show_as}'" for show_as in SHOWN_IN_FULL)
_PG_WEIGHT = f"CAST(CASE WHEN k.show_as IN ({_PG_SHOWN_IN_FULL}) THEN 'A' ELSE 'B' END AS \"char\")"
# One tsvector a message, weighted: A the bodies the default view shows, B other bodies, D (the default) headers.
# (A second tsvector column for the default view took a fifth longer to store and a fifth more room than the
# expression index on ts_filter(words, '{a}') that the default view's queries use.)
PG_INSERT = f"""
INSERT INTO message_search (sid, words)
SELECT r.start + m.idx, setweight({_pg_words(_PG_BODY)}, {_PG_WEIGHT}) || {_pg_words(_PG_HEADER)}
FROM message_search_ranges AS r
JOIN messages AS m ON m.transcript_id = r.transcript_id
JOIN message_kinds AS k ON k.transcript_id = m.transcript_id AND k.number = m.kind
WHERE r.transcript_id = ANY(:ids)
"""


def unindex(conn: Connection, id: str) -> None:
    """Delete the index rows of transcript `id`, and of its conversations if it is a dataset."""
    children = select(transcripts.c.id).where(transcripts.c.parent_id == id)
    found = conn.execute(select(ranges.c.transcript_id, ranges.c.start, ranges.c.stop).where(
        (ranges.c.transcript_id == id) | ranges.c.transcript_id.in_(children))).all()
    if not found:
        return
    if conn.dialect.name == "sqlite":
        # An external-content index deletes a row given the values it indexed: the same view gives them back.
        conn.exec_driver_sql("INSERT INTO message_search (message_search, rowid, shown, hidden, header) "
                             "SELECT 'delete', sid, shown, hidden, header FROM message_search_source "
                             "WHERE transcript_id = ?", [(row.transcript_id,) for row in found])
    else:  # one upload's rows are one key range
        conn.execute(text("DELETE FROM message_search WHERE sid >= :start AND sid < :stop"),
                     {"start": min(row.start for row in found), "stop": max(row.stop for row in found)})
    conn.execute(ranges.delete().where(ranges.c.transcript_id.in_([row.transcript_id for row in found])))


# ---- reading -------------------------------------------------------------------------------------------------

class Search:
    """The store's full-text index of message bodies (`Store.search`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def find(self, transcript_ids: Iterable[str], query: Query, view: View, limit: int = 50,
             offset: int = 0) -> Results:
        """Messages of the transcripts (a dataset: all its conversations) that match every term of `query` in
        `view`, in reading order from `offset`, at most `limit`; with the count of all matches up to the cap."""
        return _find(self.engine, transcript_ids, query, view, limit, offset)


def _find(engine: Engine, transcript_ids: Iterable[str], query: Query, view: View, limit: int,
          offset: int) -> Results:
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}")
    with engine.connect() as conn:
        spans = [span for id in transcript_ids if (span := _key_range(conn, id)) is not None]
        if not spans or not query.terms:
            return NO_RESULTS
        sql, params = _match(conn, query, view, spans)
        counted = conn.execute(text(f"SELECT count(*) FROM ({sql} LIMIT :cap) AS matched"),
                               {**params, "cap": COUNT_CAP + 1}).scalar_one()
        keys = conn.execute(text(f"{sql} ORDER BY key LIMIT :limit OFFSET :offset"),
                            {**params, "limit": limit + 1, "offset": max(offset, 0)}).scalars().all()
        hits = hits_of(conn, keys[:limit], view)
    next_offset = offset + limit if len(keys) > limit else None
    return Results(tuple(hits), min(counted, COUNT_CAP), counted > COUNT_CAP, next_offset)


def _key_range(conn: Connection, id: str) -> tuple[int, int] | None:
    """The keys of transcript row `id`: its own range, or a dataset's block (all its conversations)."""
    own = conn.execute(select(ranges.c.start, ranges.c.stop).where(ranges.c.transcript_id == id)).first()
    if own is not None:
        return own.start, own.stop
    first = conn.execute(select(ranges.c.start).join(transcripts, transcripts.c.id == ranges.c.transcript_id)
                         .where(transcripts.c.parent_id == id).order_by(transcripts.c.conversation).limit(1)).scalar()
    if first is None:
        return None
    block = first >> BLOCK_BITS
    return block << BLOCK_BITS, (block + 1) << BLOCK_BITS


def _spans_sql(key: str, spans: list[tuple[int, int]]) -> tuple[str, dict[str, int]]:
    params = {}
    for number, (start, stop) in enumerate(spans):
        params[f"start{number}"], params[f"stop{number}"] = start, stop
    sql = " OR ".join(f"({key} >= :start{n} AND {key} < :stop{n})" for n in range(len(spans)))
    return f"({sql})", params


def fts5_query(query: Query, view: View) -> str:
    """The FTS5 query: every term a quoted string (its own quotes doubled), so FTS5 reads no operator, column
    name, prefix star or NEAR from the user; a prefix term's star is ours, after its closing quote; the default
    view's looks in the `shown` column alone."""
    phrases = " ".join('"' + term.replace('"', '""') + '"' + ("*" if term in query.prefixes else "")
                       for term in query.terms)
    return f"shown : ({phrases})" if view == "default" else phrases


def matching(conn: Connection, query: Query, view: View, *,
             statistics: bool = False) -> tuple[str, str, dict[str, str]]:
    """How to ask the index for the messages that match every term of `query` in `view`: the key column, the
    condition and its parameters, for `SELECT {key} FROM message_search WHERE {condition}`.

    SQLite: `fts5_query`. PostgreSQL: each term through phraseto_tsquery (which reads its argument as plain
    text, never as query syntax), a prefix term as a quoted lexeme with `:*`, joined with &&: all must match; the default view matches the words of weight
    A alone (the bodies it shows), as its own index holds them."""
    if conn.dialect.name == "sqlite":
        return "rowid", "message_search MATCH :match", {"match": fts5_query(query, view)}
    terms = {f"term{n}": term for n, term in enumerate(query.terms)}
    # A prefix term is one word of letters and digits (`is_prefix_word`), quoted as a lexeme all the same.
    tsquery = " && ".join(f"to_tsquery('simple', quote_literal(CAST(:{name} AS text)) || ':*')" if term in query.prefixes
                          else f"phraseto_tsquery('simple', {_pg_blanks(f':{name}')})" for name, term in terms.items())
    if view == DEBUG:
        return "sid", f"words @@ ({tsquery})", terms
    shown = f"ts_filter(words, '{{a}}') @@ ({tsquery})"
    # With `statistics`, all the words are matched too: that changes nothing found, but gives the planner the
    # column's statistics (it has none for the expression), so that it walks a key range for a common word and
    # reads the GIN index for a rare one (a search across uploads reads many ranges: a wrong guess cost 20 ms each).
    return "sid", f"words @@ ({tsquery}) AND {shown}" if statistics else shown, terms


def _match(conn: Connection, query: Query, view: View, spans: list[tuple[int, int]]) -> tuple[str, dict]:
    key, condition, params = matching(conn, query, view)
    where, span_params = _spans_sql(key, spans)
    return f"SELECT {key} AS key FROM message_search WHERE {condition} AND {where}", {**params, **span_params}


def hits_of(conn: Connection, keys: Sequence[int], view: View) -> list[Hit]:
    """The messages of a page of keys, in key order. The default view's keys are of shown messages only; the
    check here is a second one, so that an index out of step with the rows could not show a hidden body."""
    return [hit for _, hit in keyed_hits(conn, keys, view)]


def keyed_hits(conn: Connection, keys: Sequence[int], view: View) -> list[tuple[int, Hit]]:
    """`hits_of`, each hit with its key (keys in order). Three reads whatever the keys: their ranges, their
    messages, their conversations' numbers (a search across uploads has keys in twenty transcripts)."""
    located = [(key, span.transcript_id, key - span.start) for key, span in zip(keys, _spans_of(conn, keys))]
    if not located:
        return []
    rows = {(row.transcript_id, row.idx): row
            for row in conn.execute(_message_query([(id, idx) for _, id, idx in located]))}
    ids = {id for _, id, _ in located}
    numbers = {row.id: row.conversation for row in
               conn.execute(select(transcripts.c.id, transcripts.c.conversation).where(transcripts.c.id.in_(ids)))}
    return [(key, _hit(id, numbers.get(id), rows[id, idx])) for key, id, idx in located
            if (id, idx) in rows and (view == DEBUG or rows[id, idx].show_as in SHOWN_IN_FULL)]


def _spans_of(conn: Connection, keys: Sequence[int]) -> list[Any]:
    """The range holding each key (the one starting at or before it), one index probe each, in one read."""
    if not keys:
        return []
    probes = " UNION ALL ".join(
        f"SELECT * FROM (SELECT {n} AS n, transcript_id, start, stop FROM message_search_ranges "
        f"WHERE start <= :key{n} ORDER BY start DESC LIMIT 1) AS probe{n}" for n in range(len(keys)))
    found = {row.n: row for row in conn.execute(text(probes), {f"key{n}": key for n, key in enumerate(keys)})}
    return [found[n] for n in range(len(keys))]


def _message_query(places: list[tuple[str, int]]):
    """The message rows at `places` (transcript id, index), with their kinds: one primary-key lookup per
    transcript, OR-ed (a row value IN list made SQLite read the whole table)."""
    by_id: dict[str, list[int]] = {}
    for id, idx in places:
        by_id.setdefault(id, []).append(idx)
    k, m = message_kinds.c, messages.c
    return (select(m.transcript_id, m.idx, m.content, m.source, m.span_start, m.body_start, m.body_end, m.call_id,
                   k.role, k.name, k.recipient, k.channel, k.content_type, k.show_as)
            .join(message_kinds, and_(k.transcript_id == m.transcript_id, k.number == m.kind))
            .where(or_(*(and_(m.transcript_id == id, m.idx.in_(indices)) for id, indices in by_id.items()))))


def _hit(id: str, conversation: int | None, row: Any) -> Hit:
    body = row.content
    if body is None:
        body = row.source[row.body_start - row.span_start:row.body_end - row.span_start]
    header = " ".join(part for part in (row.role, row.name, row.recipient and f"to={row.recipient}", row.channel,
                                        row.content_type, row.call_id and f"call_id={row.call_id}") if part)
    return Hit(id, conversation, row.idx, row.role, row.channel, row.recipient, body, header)
