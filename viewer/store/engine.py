"""Opening the database: the engine, SQLite's settings, and bulk transactions that leave SQLite's checkpoint to
a background thread."""
from __future__ import annotations

import logging
import threading
from contextlib import contextmanager
from typing import Any, Iterator

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine

AUTOCHECKPOINT_PAGES = 1000
"""SQLite's default: a commit that leaves the WAL longer than this copies it into the database file."""

log = logging.getLogger(__name__)


def open_engine(url: str) -> Engine:
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


@contextmanager
def bulk_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction for storing a parse. On SQLite its commit makes it durable (the WAL is synced) but leaves
    the checkpoint, copying the new pages into the database file, to a background thread: for a 50 MB upload
    that copy takes half a second and more, and nothing the uploader waits for needs it."""
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            conn.commit()
        try:
            with conn.begin():
                yield conn
        finally:
            if sqlite:
                conn.exec_driver_sql(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT_PAGES}")
                conn.commit()
    if sqlite:
        threading.Thread(target=_checkpoint, args=(engine,), name="wal-checkpoint", daemon=True).start()


def _checkpoint(engine: Engine) -> None:
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
    except Exception:  # noqa: BLE001 - the next write's automatic checkpoint does it instead
        log.warning("background WAL checkpoint failed", exc_info=True)
