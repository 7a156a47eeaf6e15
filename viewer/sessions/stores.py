"""Agents' SQLite stores, read while the agent may be running: opened read-only through SQLite (never copied
file by file: a store in WAL mode keeps its latest pages in the `-wal` file), queried in short read transactions
that a writer in WAL mode never waits for, retried briefly when the store is busy."""
from __future__ import annotations

import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUSY_MILLISECONDS = 500
RETRIES = 3


@contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection to the store that can only read (`mode=ro`, `query_only`)."""
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_MILLISECONDS / 1000, isolation_level=None,
                                 check_same_thread=False)
    try:
        connection.execute("PRAGMA query_only = ON")
        yield connection
    finally:
        connection.close()


def snapshot(path: Path) -> bytes:
    """The store as one database file, as it stands now (its `-wal` pages included), read in one transaction."""
    for attempt in range(RETRIES):
        try:
            with read_only(path) as source:
                copy = sqlite3.connect(":memory:")
                try:
                    source.backup(copy)
                    return _without_wal(copy.serialize())
                finally:
                    copy.close()
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error) or attempt + 1 == RETRIES:
                raise
            time.sleep(0.2 * (attempt + 1))
    raise sqlite3.OperationalError("the store stayed busy")


def _without_wal(data: bytes) -> bytes:
    """A copy of a WAL-mode store marked as a plain (rollback journal) database: the copy holds every page, so it
    needs no `-wal` file, and a reader opening it alone (in memory, read-only) could not make one. Bytes 18 and 19
    of the header are the file format's write and read versions, 2 for WAL and 1 without."""
    if len(data) >= 20 and data[18:20] == b"\x02\x02":
        return data[:18] + b"\x01\x01" + data[20:]
    return data


def rows(path: Path, query: str, parameters: tuple = ()) -> list[tuple]:
    """The rows a query reads from the store (nothing when it cannot be read: a list goes on without it)."""
    try:
        with read_only(path) as connection:
            return connection.execute(query, parameters).fetchall()
    except sqlite3.Error:
        return []


def columns(path: Path, table: str) -> set[str]:
    """The columns a table of the store has (none when it has no such table)."""
    return {row[1] for row in rows(path, f"PRAGMA table_info({table})")}
