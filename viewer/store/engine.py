"""Opening the database: the engine, SQLite's settings, PostgreSQL's text without NUL characters, and bulk
transactions that leave SQLite's checkpoint to a background thread."""
from __future__ import annotations

import functools
import logging
import re
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine

AUTOCHECKPOINT_PAGES = 1000
"""SQLite's default: a commit that leaves the WAL longer than this copies it into the database file."""

log = logging.getLogger(__name__)


def open_engine(url: str) -> Engine:
    # A pooled connection is tested before it is lent (a round trip): after a database restart the pool's old
    # connections are dead, and without the test each would fail one request before being replaced.
    engine = create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    elif engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg":
        event.listen(engine, "connect", _psycopg_nul_escaping)
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


# PostgreSQL's text types cannot hold U+0000, which an upload's text may (it is stored and shown like any other
# character; SQLite keeps it as it is). On PostgreSQL every string is written with NUL as ESCAPE + "0" (and
# ESCAPE itself as ESCAPE + "e", so the mapping is one-to-one) and read back through the reverse mapping: the
# store's callers see the same strings on both databases. ESCAPE is a Unicode noncharacter ("for a program's
# internal use"). SQL that looks inside stored text (LIKE, length) sees the escaped form on PostgreSQL.
ESCAPE = "\ufdd0"
_ESCAPED = re.compile(ESCAPE + "(.)", re.DOTALL)
_UNESCAPE = {"0": "\x00", "e": ESCAPE}


def escape_nul(text: str) -> str:
    if "\x00" not in text and ESCAPE not in text:
        return text
    return text.replace(ESCAPE, ESCAPE + "e").replace("\x00", ESCAPE + "0")


def unescape_nul(text: str) -> str:
    if ESCAPE not in text:
        return text
    return _ESCAPED.sub(lambda match: _UNESCAPE.get(match[1], match[0]), text)


def _psycopg_nul_escaping(dbapi_connection: Any, _record: Any) -> None:
    """Register string adapters on a new psycopg connection that apply `escape_nul` to every string sent and
    `unescape_nul` to every text value read (SQLAlchemy Core and the bulk path's raw cursor alike)."""
    dumper, binary_dumper, loader, binary_loader = _psycopg_adapters()
    adapters = getattr(dbapi_connection, "driver_connection", dbapi_connection).adapters
    adapters.register_dumper(str, binary_dumper)
    adapters.register_dumper(str, dumper)  # registered last: the one `%s` placeholders use
    for type_name in ("text", "varchar", "bpchar"):
        adapters.register_loader(type_name, loader)
        adapters.register_loader(type_name, binary_loader)


@functools.cache
def _psycopg_adapters() -> tuple[type, ...]:
    """psycopg's own string adapters with `escape_nul` / `unescape_nul` around them (psycopg is imported only
    when a PostgreSQL database is used)."""
    from psycopg.types.string import StrBinaryDumper, StrDumperUnknown, TextBinaryLoader, TextLoader

    class Dumper(StrDumperUnknown):
        def dump(self, obj: str) -> Any:
            return super().dump(escape_nul(obj))

    class BinaryDumper(StrBinaryDumper):
        def dump(self, obj: str) -> Any:
            return super().dump(escape_nul(obj))

    class Loader(TextLoader):
        def load(self, data: Any) -> Any:
            value = super().load(data)
            return unescape_nul(value) if isinstance(value, str) else value

    class BinaryLoader(TextBinaryLoader):
        def load(self, data: Any) -> Any:
            value = super().load(data)
            return unescape_nul(value) if isinstance(value, str) else value

    return Dumper, BinaryDumper, Loader, BinaryLoader


@contextmanager
def bulk_transaction(engine: Engine, *, durable: bool = True) -> Iterator[Connection]:
    """A transaction for storing a parse. On SQLite its commit makes it durable (the WAL is synced) but leaves
    the checkpoint, copying the new pages into the database file, to a background thread: for a 50 MB upload
    that copy takes half a second and more, and nothing the uploader waits for needs it.

    Not `durable`: the commit does not wait for the disk (SQLite `synchronous=NORMAL`, PostgreSQL
    `synchronous_commit=off`), for rows that can be made again from what is durable already (an upload being
    processed: a crash before its processing row is gone processes it again). The next durable commit makes
    them durable too; a crash before it can lose them, never make them inconsistent."""
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            if not durable:
                conn.exec_driver_sql("PRAGMA synchronous=NORMAL")
            conn.commit()
        try:
            with conn.begin():
                if not durable and not sqlite:
                    conn.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")
                yield conn
        finally:
            if sqlite:
                conn.exec_driver_sql(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
                conn.exec_driver_sql("PRAGMA synchronous=FULL")  # the connection's setting (_sqlite_pragmas)
                conn.commit()
    if sqlite:
        threading.Thread(target=_checkpoint, args=(engine,), name="wal-checkpoint", daemon=True).start()


def _checkpoint(engine: Engine) -> None:
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
    except Exception:  # noqa: BLE001 - the next write's automatic checkpoint does it instead
        log.warning("background WAL checkpoint failed", exc_info=True)
