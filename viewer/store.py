"""Storage of uploads in SQL (SQLite by default, any SQLAlchemy URL such as PostgreSQL works).

Parse once: an upload is parsed, and its rows (see viewer.schema) are bulk-inserted in one transaction; pages
then read one window of rows at a time. A row stored by an older parser version is re-parsed on first open.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import logging
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from flask import Flask, current_app
from sqlalchemy import Table, and_, create_engine, delete, event, func, inspect, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.sql import Select

from viewer import rows
from viewer.ingest import Analysis, analyse
from viewer.rows import Entry, Located, Record
from viewer.schema import diagnostics, message_kinds, messages, metadata, pairs, transcripts

__all__ = ["Entry", "Located", "Record", "Store", "get_store", "hash_key", "init_app"]

_BATCH = 5000
_BULK_CACHE_KIB = 65536
_AUTOCHECKPOINT_PAGES = 1000
"""SQLite's default: a commit that leaves the WAL longer than this copies it into the database file."""

log = logging.getLogger(__name__)


def init_app(app: Flask, url: str) -> None:
    """Open (and create if needed) the app's database."""
    app.extensions["viewer.store"] = Store(url)


def get_store() -> Store:
    """The current app's store."""
    return current_app.extensions["viewer.store"]


def hash_key(key: str) -> str:
    """What is stored of a manage key. The key is 256 random bits, so a plain digest is enough."""
    return hashlib.sha256(key.encode()).hexdigest()


class Store:
    """The app's one way to read and write transcripts."""

    def __init__(self, url: str) -> None:
        self.engine = _engine(url)
        _create_schema(self.engine)

    def add(self, raw: bytes, *, id: str, requested_dialect: str = "auto", debug_allowed: bool = False,
            manage_hash: str | None = None, name: str | None = None, is_sample: bool = False,
            analysis: Analysis | None = None) -> Record:
        """Parse (unless given the analysis) and store in one transaction; returns after the commit."""
        analysis = analysis or analyse(raw, requested_dialect)
        row = {"id": id, "raw": raw, "sha256": hashlib.sha256(raw).hexdigest(), "size": len(raw), "name": name,
               "requested_dialect": requested_dialect, "created_at": dt.datetime.now(dt.timezone.utc),
               "debug_allowed": debug_allowed, "manage_hash": manage_hash, "is_sample": is_sample}
        with self._bulk() as conn:
            conn.execute(insert(transcripts).values(**row, **rows.summary(analysis)))
            _insert_parse(conn, id, analysis)
        return self.get(id)

    def add_sample(self, raw: bytes, *, id: str, name: str) -> bool:
        """Store a sample under a stable id unless the same bytes are already there. True if stored."""
        digest = hashlib.sha256(raw).hexdigest()
        with self.engine.connect() as conn:
            stored = conn.execute(select(transcripts.c.sha256, transcripts.c.deleted_at)
                                  .where(transcripts.c.id == id)).first()
        if stored is not None and stored.sha256 == digest and stored.deleted_at is None:
            return False
        with self.engine.begin() as conn:
            conn.execute(delete(transcripts).where(transcripts.c.id == id))
            _delete_parse(conn, id)
        try:
            self.add(raw, id=id, name=name, is_sample=True, debug_allowed=True)
        except IntegrityError:  # another worker stored it at the same moment
            return False
        return True

    @contextmanager
    def _bulk(self) -> Iterator[Connection]:
        """A transaction for storing a parse. On SQLite its commit makes it durable (the WAL is synced) but
        leaves the checkpoint, copying the new pages into the database file, to a background thread: for a
        50 MB upload that copy takes half a second and more, and nothing the uploader waits for needs it."""
        with self.engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            if sqlite:
                conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
                conn.commit()
            try:
                with conn.begin():
                    yield conn
            finally:
                if sqlite:
                    conn.exec_driver_sql(f"PRAGMA wal_autocheckpoint={_AUTOCHECKPOINT_PAGES}")
                    conn.commit()
        if sqlite:
            threading.Thread(target=self._checkpoint, name="wal-checkpoint", daemon=True).start()

    def _checkpoint(self) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # noqa: BLE001 - the next write's automatic checkpoint does it instead
            log.warning("background WAL checkpoint failed", exc_info=True)

    def get(self, id: str) -> Record | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*rows.record_columns()).where(transcripts.c.id == id)).first()
        return rows.record(row) if row is not None else None

    def samples(self) -> list[Record]:
        query = (select(*rows.record_columns()).where(transcripts.c.is_sample, transcripts.c.deleted_at.is_(None))
                 .order_by(transcripts.c.name))
        with self.engine.connect() as conn:
            return [rows.record(row) for row in conn.execute(query)]

    def raw(self, id: str) -> bytes | None:
        with self.engine.connect() as conn:
            return conn.execute(select(transcripts.c.raw).where(transcripts.c.id == id)).scalar()

    def refresh(self, record: Record, parser_version: str) -> Record:
        """Re-parse a transcript stored by another parser version, and store the new parse."""
        if record.parser_version == parser_version or record.deleted:
            return record
        raw = self.raw(record.id)
        analysis = analyse(raw, record.requested_dialect)
        with self._bulk() as conn:
            # The guarded update takes the row lock first, so concurrent first opens re-parse once.
            claimed = conn.execute(update(transcripts)
                                   .where(transcripts.c.id == record.id,
                                          transcripts.c.parser_version == record.parser_version)
                                   .values(**rows.summary(analysis))).rowcount
            if claimed:
                _delete_parse(conn, record.id)
                _insert_parse(conn, record.id, analysis)
        return self.get(record.id)

    def window(self, id: str, view: str, start: int, size: int) -> list[Entry]:
        """Up to `size` entries of a view from position `start` (a message index in the debug view, a rank
        among the non-hidden entries in the default view, so hidden rows are never read for it)."""
        key = messages.c.idx if view == "debug" else messages.c.vrank
        query = _entries().where(messages.c.transcript_id == id, key >= start).order_by(key).limit(size)
        with self.engine.connect() as conn:
            return [rows.entry(row) for row in conn.execute(query)]

    def entry(self, id: str, index: int) -> Entry | None:
        """One message's row, whatever the view (the caller applies the policy)."""
        query = _entries().where(messages.c.transcript_id == id, messages.c.idx == index)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return rows.entry(row) if row is not None else None

    def position(self, id: str, view: str, index: int) -> int | None:
        """The window position of message `index`, or of the next entry the view shows."""
        if view == "debug":
            return index
        query = (select(messages.c.vrank).where(messages.c.transcript_id == id, messages.c.idx >= index,
                                                messages.c.vrank.is_not(None))
                 .order_by(messages.c.idx).limit(1))
        with self.engine.connect() as conn:
            return conn.execute(query).scalar()

    def diagnostics(self, id: str, *, first: int | None = None, last: int | None = None,
                    unattached_only: bool = False, limit: int | None = None) -> list[Located]:
        """Diagnostics of messages `first..last`, or those attached to no message."""
        query = select(diagnostics).where(diagnostics.c.transcript_id == id)
        if unattached_only:
            query = query.where(diagnostics.c.message_index.is_(None))
        if first is not None and last is not None:
            query = query.where(diagnostics.c.message_index.between(first, last))
        query = query.order_by(diagnostics.c.seq).limit(limit)
        with self.engine.connect() as conn:
            return [rows.located(row) for row in conn.execute(query)]

    def iter_entries(self, id: str, view: str) -> Iterator[Entry]:
        """Every entry of a view in order, read in batches."""
        start = 0
        while True:
            batch = self.window(id, view, start, _BATCH)
            yield from batch
            if len(batch) < _BATCH:
                return
            start = _position_of(batch[-1], view) + 1

    def iter_diagnostics(self, id: str) -> Iterator[Located]:
        """Every diagnostic in order, read in batches (a hostile upload may have a million)."""
        seq = 0
        while True:
            query = (select(diagnostics).where(diagnostics.c.transcript_id == id, diagnostics.c.seq >= seq)
                     .order_by(diagnostics.c.seq).limit(_BATCH))
            with self.engine.connect() as conn:
                batch = list(conn.execute(query))
            yield from (rows.located(row) for row in batch)
            if len(batch) < _BATCH:
                return
            seq = batch[-1].seq + 1

    def pairs(self, id: str) -> list[dict[str, Any]]:
        query = select(pairs).where(pairs.c.transcript_id == id).order_by(pairs.c.number)
        with self.engine.connect() as conn:
            return [{"call": row.call, "reply": row.reply, "by": row.by} for row in conn.execute(query)]

    def set_debug(self, id: str, allowed: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(debug_allowed=allowed))

    def delete(self, id: str) -> None:
        """Forget the content; keep a tombstone so the link can say it was deleted."""
        with self.engine.begin() as conn:
            _delete_parse(conn, id)
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(raw=None, header="{}", name=None, deleted_at=dt.datetime.now(dt.timezone.utc)))


def _entries() -> Select:
    """Message rows joined to their kinds, as `rows.entry` reads them."""
    return select(*rows.entry_columns()).join(
        message_kinds, and_(message_kinds.c.transcript_id == messages.c.transcript_id,
                            message_kinds.c.number == messages.c.kind))


def _position_of(entry: Entry, view: str) -> int:
    return entry.message.index if view == "debug" else entry.rank


_PARSE_TABLES = (messages, message_kinds, diagnostics, pairs)
"""What a parse stores: derived from `transcripts.raw`, so it can always be deleted and made again."""
_STALE = "stale-layout"
"""The parser version given to transcripts whose parse was dropped by a layout upgrade: not any real version,
so `Store.refresh` parses them again on their next open."""


_SCHEMA_ATTEMPTS = 5


def _create_schema(engine: Engine) -> None:
    """`_create_schema_once`, tried again a few times when SQLite says "database is locked" at once: it does
    so without waiting out busy_timeout in a few cases, such as switching a brand-new file to WAL while other
    processes open it too."""
    for attempt in range(_SCHEMA_ATTEMPTS):
        try:
            return _create_schema_once(engine)
        except OperationalError as error:
            if "locked" not in str(error) or attempt == _SCHEMA_ATTEMPTS - 1:
                raise
            engine.dispose()  # the failed connection may hold a half-set-up state: start afresh
            time.sleep(0.05 * 2 ** attempt)


def _create_schema_once(engine: Engine) -> None:
    """Create the tables, or upgrade an older layout of the parse tables, once whatever other processes do.

    Several server processes start at once on a fresh database (gunicorn --workers N); without the lock each
    sees no tables and all but one fail with "table … already exists". On SQLite `BEGIN IMMEDIATE` takes the
    database's write lock (the others wait: busy_timeout), on PostgreSQL an advisory lock does the same."""
    with engine.connect() as conn:
        if conn.dialect.name == "sqlite":
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        elif conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7301946)")  # any constant of this app's own
        _upgrade_parse_tables(conn)
        metadata.create_all(conn)
        conn.commit()


def _upgrade_parse_tables(conn: Connection) -> None:
    """Drop parse tables whose columns differ from the schema's; their transcripts are parsed again on open."""
    existing = inspect(conn)
    stale = [table for table in _PARSE_TABLES if existing.has_table(table.name)
             and {column["name"] for column in existing.get_columns(table.name)} != set(table.c.keys())]
    if not stale:
        return
    for table in _PARSE_TABLES:  # all of them: a parse is stored whole or not at all
        if existing.has_table(table.name):
            conn.exec_driver_sql(f"DROP TABLE {conn.dialect.identifier_preparer.quote(table.name)}")
    conn.execute(update(transcripts).values(parser_version=_STALE))


def _engine(url: str) -> Engine:
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # First, so that every statement below (switching to WAL needs an exclusive lock) waits for other processes
    # instead of failing at once with "database is locked".
    cursor.execute("PRAGMA busy_timeout=10000")
    # Bigger pages make bulk inserts of a big upload about a fifth faster; this only takes effect when the
    # database file is new (before journal_mode, which fixes the page size of an empty file).
    cursor.execute("PRAGMA page_size=16384")
    # WAL lets readers go on while an upload is written; FULL makes a confirmed upload survive power loss.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _insert_parse(conn: Connection, id: str, analysis: Analysis) -> None:
    # The DB-API cursor's executemany, fed plain tuples from generators: SQLAlchemy's per-row parameter
    # handling cost three quarters of the storing time, and a generator never holds every row at once.
    cursor = conn.connection.cursor()
    sqlite = conn.dialect.name == "sqlite"
    if sqlite:  # a large page cache for this transaction only, so the rows reach the WAL in big writes
        cursor.execute(f"PRAGMA cache_size=-{_BULK_CACHE_KIB}")
    kinds: dict[tuple, int] = {}  # filled by message_rows, so kind_rows (a generator) runs after it
    try:
        for table, columns, new_rows in (
                (messages, rows.MESSAGE_COLUMNS, rows.message_rows(id, analysis, kinds)),
                (message_kinds, rows.KIND_COLUMNS, rows.kind_rows(id, kinds, analysis.rules)),
                (diagnostics, rows.DIAGNOSTIC_COLUMNS, rows.diagnostic_rows(id, analysis)),
                (pairs, rows.PAIR_COLUMNS, rows.pair_rows(id, analysis))):
            cursor.executemany(_insert_sql(conn, table, columns), new_rows)
    finally:
        if sqlite:
            cursor.execute("PRAGMA cache_size=-2000")  # SQLite's default: serving needs no more
        cursor.close()


def _insert_sql(conn: Connection, table: Table, columns: tuple[str, ...]) -> str:
    quote = conn.dialect.identifier_preparer.quote  # `end` is a reserved word
    marker = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    return (f"INSERT INTO {quote(table.name)} ({', '.join(quote(name) for name in columns)}) "
            f"VALUES ({', '.join([marker] * len(columns))})")


def _delete_parse(conn: Connection, id: str) -> None:
    for table in _PARSE_TABLES:
        conn.execute(delete(table).where(table.c.transcript_id == id))


def count_rows(store: Store, id: str) -> int:
    """Message rows stored for a transcript (tests use it to check deletes and re-parses)."""
    with store.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(messages)
                            .where(messages.c.transcript_id == id)).scalar()
