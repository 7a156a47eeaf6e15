"""Writing and deleting a transcript's parse rows: the bulk path that most of an upload's storing time is."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterable

from sqlalchemy import Table, delete, select
from sqlalchemy.engine import Connection

from viewer.policy import Projection
from viewer.store import rows, search, summaries
from viewer.store.schema import (diagnostics, message_kinds, messages, pairs, transcript_media, transcripts,
                                 unmasked_messages)

if TYPE_CHECKING:
    from viewer.store.shift import Shift

BULK_CACHE_KIB = 16384
"""SQLite's page cache while a parse's rows are written (its default is 2 MB). It fills whole with a big upload's
pages, resident beside the parse: a larger one added to the peak memory and saved no time."""
USE_COPY = True
"""Whether PostgreSQL gets the rows by COPY (bench/sooner.py turns it off to measure executemany beside it)."""
PARSE_TABLES = (messages, unmasked_messages, message_kinds, diagnostics, pairs, transcript_media)
"""What a parse stores: derived from `transcripts.raw`, so it can always be deleted and made again."""
_SHIFTED = {messages: "message", diagnostics: "diagnostic"}
"""The tables whose rows hold offsets and lines, and the `Shift` method that moves each."""


def insert_parse(conn: Connection, id: str, projection: Projection, original: Projection | None = None, *,
                 index_search: bool = True) -> None:
    """Insert a transcript's parse rows; for a dataset, each conversation's, under the conversation's row id.
    With `original` (the parse as written, when `projection` is it with secrets masked), also the rows masking
    changed, as written. Without `index_search`, the search index is left for `search.index(conn,
    parses_of(id, projection))` later (an upload readable before it is searchable)."""
    parses = parses_of(id, projection)
    originals = None
    if original is not None:
        originals = dict(zip((id for id, _ in parses), original.conversations or (original,)))
    insert_parses(conn, parses, originals, index_search=index_search)


def parses_of(id: str, projection: Projection) -> list[tuple[str, Projection]]:
    """The transcript rows of a parse: `(id, projection)`, or for a dataset each conversation's under its id."""
    if projection.conversations:
        return [(summaries.conversation_id(id, number), conversation)
                for number, conversation in enumerate(projection.conversations)]
    return [(id, projection)]


def insert_conversations(conn: Connection, parent: dict[str, Any], projection: Projection,
                         parser_version: str) -> None:
    """A dataset's conversation rows (none for a single conversation)."""
    if projection.conversations:  # in the order of their ids, as insert_parses explains
        insert_rows(conn, transcripts, sorted(summaries.conversation_rows(parent, projection, parser_version),
                                              key=lambda row: row["id"]))


def insert_parses(conn: Connection, parses: list[tuple[str, Projection]],
                  originals: dict[str, Projection] | None = None, shift: Shift | None = None, *,
                  index_search: bool = True) -> None:
    """Insert the parse rows of several transcripts, one `executemany` per table for all of them, and index
    their messages for search (viewer.store.search). `originals`: by id, the parse as written of those whose
    rows are masked (viewer.store.rows.unmasked_rows).

    The DB-API cursor's executemany (PostgreSQL: COPY), fed plain tuples from generators: SQLAlchemy's per-row
    parameter handling cost three quarters of the storing time, and a generator never holds every row at once.
    Rows go in the order of their keys: a dataset's conversation ids sort as text (`x.10` before `x.2`), and
    inserting them in number order put every row at another place of the index (a third of the time of storing
    a big dataset). `shift`: the parses are of a piece of the upload, their message and diagnostic rows
    moved to its offsets (viewer/store/streamed.py; never with `originals`)."""
    in_order = sorted(parses, key=lambda parse: parse[0])
    kinds: list[dict] = [{} for _ in in_order]  # filled by message_rows, so kind_rows (a generator) runs after it
    originals = originals or {}
    media = [row for id, projection in in_order for row in rows.media_rows(id, projection)]
    with bulk_cursor(conn) as cursor:
        for table, columns, new_rows in (
                (messages, rows.MESSAGE_COLUMNS, (row for (id, projection), found in zip(in_order, kinds)
                                                  for row in rows.message_rows(id, projection, found))),
                (unmasked_messages, rows.MESSAGE_COLUMNS, (
                    row for (id, projection), found in zip(in_order, kinds) if id in originals
                    for row in rows.unmasked_rows(id, projection, originals[id], found))),
                (message_kinds, rows.KIND_COLUMNS, (row for (id, projection), found in zip(in_order, kinds)
                                                    for row in rows.kind_rows(id, found, projection.rules))),
                (diagnostics, rows.DIAGNOSTIC_COLUMNS, (row for id, projection in in_order
                                                        for row in rows.diagnostic_rows(id, projection.transcript))),
                (pairs, rows.PAIR_COLUMNS, (row for id, projection in in_order
                                            for row in rows.pair_rows(id, projection.transcript))),
                (transcript_media, rows.MEDIA_COLUMNS, media)):
            if (table is not unmasked_messages or originals) and (table is not transcript_media or media):
                # most uploads have no secrets and no images
                moved = map(getattr(shift, _SHIFTED[table]), new_rows) if shift is not None and table in _SHIFTED \
                    else new_rows
                insert_many(conn, cursor, table, columns, moved)
        if index_search:  # after the rows, which the index reads; inside the large page cache
            search.index(conn, parses)


@contextmanager
def bulk_cursor(conn: Connection) -> Iterator[Any]:
    """The DB-API cursor for storing many rows: on SQLite with a large page cache for this transaction only, so
    that the rows reach the WAL in big writes, and SQLite's default again after (serving needs no more)."""
    cursor = conn.connection.cursor()
    sqlite = conn.dialect.name == "sqlite"
    if sqlite:
        cursor.execute(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
    try:
        yield cursor
    finally:
        if sqlite:
            cursor.execute("PRAGMA cache_size=-2000")
        cursor.close()


def insert_rows(conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """`conn.execute(insert(table), rows)` for rows with the same keys (a dataset's conversation rows), through
    the DB-API cursor: each column's bind processor (how SQLAlchemy hands the database a datetime, a boolean …)
    applied here, without SQLAlchemy's per-row parameter handling, which took a fifth of storing a dataset of
    short conversations."""
    if not rows:
        return
    columns = tuple(rows[0])
    processors = [(number, process) for number, name in enumerate(columns)
                  if (process := table.c[name].type.dialect_impl(conn.dialect).bind_processor(conn.dialect))]

    def values(row: dict[str, Any]) -> list:  # only the few columns with a processor are looked at
        found = list(row.values())
        for number, process in processors:
            if found[number] is not None:
                found[number] = process(found[number])
        return found
    cursor = conn.connection.cursor()
    try:
        cursor.executemany(_insert_sql(conn, table, columns), map(values, rows))  # type: ignore[arg-type]  # an iterator
    finally:
        cursor.close()


def insert_many(conn: Connection, cursor: Any, table: Table, columns: tuple[str, ...],
                new_rows: Iterable[tuple]) -> None:
    """Insert rows of `columns` given as tuples: PostgreSQL's COPY (psycopg 3's `cursor.copy`, rows sent as one
    stream instead of one statement each: bench/sooner.py measures both), executemany elsewhere."""
    if conn.dialect.name != "postgresql" or not USE_COPY:
        cursor.executemany(_insert_sql(conn, table, columns), new_rows)
        return
    quote = conn.dialect.identifier_preparer.quote
    with cursor.copy(f"COPY {quote(table.name)} ({', '.join(quote(name) for name in columns)}) FROM STDIN") as copy:
        for row in new_rows:
            copy.write_row(row)


def _insert_sql(conn: Connection, table: Table, columns: tuple[str, ...]) -> str:
    quote = conn.dialect.identifier_preparer.quote  # `end` is a reserved word
    marker = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    return (f"INSERT INTO {quote(table.name)} ({', '.join(quote(name) for name in columns)}) "
            f"VALUES ({', '.join([marker] * len(columns))})")


def delete_parse(conn: Connection, id: str) -> None:
    """Delete a transcript's parse rows and index rows, and a dataset's conversations with theirs."""
    search.unindex(conn, id)  # first: SQLite's index deletes a row given the values it indexed, read from them
    children = select(transcripts.c.id).where(transcripts.c.parent_id == id).scalar_subquery()
    for table in PARSE_TABLES:
        conn.execute(delete(table).where(table.c.transcript_id == id))
        conn.execute(delete(table).where(table.c.transcript_id.in_(children)))
    conn.execute(delete(transcripts).where(transcripts.c.parent_id == id))
