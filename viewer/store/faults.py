"""What a failure of the database or the disk under it means for whoever asked: the store's refusals told apart
from its bugs. A `Fault` is either `FULL` (the disk or the database refused to keep more: no space, a quota, a
read-only file system; nothing of the write is kept, and it may succeed once room returns) or `UNAVAILABLE` (the
database cannot be reached or answer now: refused or lost connections, a server shutting down or starting, too
many connections, SQLite's lock held too long; the same request may succeed in a few seconds). Anything else is
no fault of storage, and stays the error it is.

SQLite's codes are read from the exception (`sqlite_errorcode`, Python 3.11), PostgreSQL's from its SQLSTATE
(psycopg's `sqlstate`); an `OSError` by its errno. The store is never imported for this: the web app asks it of
any exception, and so does the processing worker, to retry rather than give an upload up.
"""
from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Final, Iterator, Literal

from sqlalchemy import exc

Kind = Literal["full", "unavailable"]
FULL: Final = "full"
UNAVAILABLE: Final = "unavailable"

_SQLITE: dict[int, tuple[Kind, str]] = {13: (FULL, "the database's disk is full"),  # SQLITE_FULL
           8: (FULL, "the database is read-only"),  # SQLITE_READONLY
           10: (FULL, "the database's disk failed a read or a write"),  # SQLITE_IOERR (ENOSPC in the WAL, too)
           3: (FULL, "the database file may not be written"),  # SQLITE_PERM
           5: (UNAVAILABLE, "the database is busy"),  # SQLITE_BUSY
           6: (UNAVAILABLE, "the database is busy"),  # SQLITE_LOCKED
           7: (UNAVAILABLE, "the database ran out of memory"),  # SQLITE_NOMEM
           14: (UNAVAILABLE, "the database file cannot be opened")}  # SQLITE_CANTOPEN
_POSTGRES: dict[str, tuple[Kind, str]] = {"53100": (FULL, "the database's disk is full"),
             "25006": (UNAVAILABLE, "the database takes no writes now (read-only)"),
             "53200": (UNAVAILABLE, "the database ran out of memory"),
             "53300": (UNAVAILABLE, "the database has too many connections"),
             "53400": (UNAVAILABLE, "the database reached a configured limit"),
             "57P01": (UNAVAILABLE, "the database is shutting down"),
             "57P02": (UNAVAILABLE, "the database restarted"),
             "57P03": (UNAVAILABLE, "the database is starting"),
             "40001": (UNAVAILABLE, "the database could not serialize this transaction"),
             "40P01": (UNAVAILABLE, "the database broke a deadlock")}
_POSTGRES_CLASSES: dict[str, tuple[Kind, str]] = {"08": (UNAVAILABLE, "the connection to the database failed")}
_OS: dict[int, tuple[Kind, str]] = {errno.ENOSPC: (FULL, "the disk is full"), errno.EDQUOT: (FULL, "the disk quota is used up"),
       errno.EROFS: (FULL, "the file system is read-only"), errno.EIO: (FULL, "the disk failed a read or a write")}


@dataclass(frozen=True, slots=True)
class Fault:
    """A refusal of storage: which kind, and what happened in words (no path, no address)."""

    kind: Kind
    detail: str

    @property
    def temporary(self) -> bool:
        return self.kind == UNAVAILABLE


def storage_fault(error: BaseException) -> Fault | None:
    """The storage fault `error` is (or was caused by), or None when it is no fault of storage."""
    for link in _chain(error):
        found = _classified(link)
        if found is not None:
            return Fault(*found)
    if isinstance(error, exc.DBAPIError) and error.connection_invalidated:
        return Fault(UNAVAILABLE, "the connection to the database was lost")
    if isinstance(error, (exc.TimeoutError, exc.DisconnectionError)):  # the pool's wait, a dead connection
        return Fault(UNAVAILABLE, "no connection to the database could be had")
    return None


def _chain(error: BaseException) -> Iterator[BaseException]:
    """`error`, the DB-API error it wraps, and what caused it, each once (bounded: a chain may be long)."""
    seen: set[int] = set()
    todo = [error]
    while todo and len(seen) < 20:
        link = todo.pop(0)
        if id(link) in seen:
            continue
        seen.add(id(link))
        yield link
        todo += [found for found in (getattr(link, "orig", None), link.__cause__, link.__context__)
                 if isinstance(found, BaseException)]


def _classified(error: BaseException) -> tuple[Kind, str] | None:
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _SQLITE.get(code & 0xFF)
    sqlstate = getattr(error, "sqlstate", None)
    if isinstance(sqlstate, str):
        return _POSTGRES.get(sqlstate) or _POSTGRES_CLASSES.get(sqlstate[:2])
    if type(error).__module__.startswith("psycopg") and type(error).__name__ == "OperationalError":
        return UNAVAILABLE, "the database cannot be reached"  # refused or lost before the server said why
    if isinstance(error, OSError) and error.errno in _OS:
        return _OS[error.errno]
    return None


__all__ = ["FULL", "Fault", "UNAVAILABLE", "storage_fault"]
