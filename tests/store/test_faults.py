"""Storage faults told apart from bugs (viewer/store/faults.py), by the DB-API's own exceptions as SQLAlchemy hands
them on, and by errno."""
from __future__ import annotations

import errno
import sqlite3

import psycopg
import psycopg.errors
import pytest
from sqlalchemy import exc

from viewer.store.faults import FULL, UNAVAILABLE, storage_fault


def _sqlite(code: int, message: str) -> exc.OperationalError:
    orig = sqlite3.OperationalError(message)
    orig.sqlite_errorcode = code  # type: ignore[attr-defined]
    return exc.OperationalError("…", {}, orig)


@pytest.mark.parametrize("error, kind", [
    (_sqlite(13, "database or disk is full"), FULL),
    (_sqlite(8, "attempt to write a readonly database"), FULL),
    (_sqlite(778, "disk I/O error"), FULL),  # SQLITE_IOERR_WRITE: the primary code is read
    (_sqlite(5, "database is locked"), UNAVAILABLE),
    (exc.OperationalError("…", {}, psycopg.errors.DiskFull("could not extend file")), FULL),
    (exc.OperationalError("…", {}, psycopg.errors.AdminShutdown("terminating connection")), UNAVAILABLE),
    (exc.OperationalError("…", {}, psycopg.errors.TooManyConnections("too many clients")), UNAVAILABLE),
    (exc.OperationalError("…", {}, psycopg.OperationalError("connection refused")), UNAVAILABLE),
    (OSError(errno.ENOSPC, "No space left on device"), FULL),
    (OSError(errno.EROFS, "Read-only file system"), FULL),
])
def test_a_refusal_of_storage_is_a_fault_of_its_kind(error, kind):
    fault = storage_fault(error)
    assert fault is not None and fault.kind == kind and fault.detail


def test_a_fault_is_found_through_the_errors_it_caused():
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError as cause:
            raise RuntimeError("writing the spool failed") from cause
    except RuntimeError as error:
        assert storage_fault(error).kind == FULL


@pytest.mark.parametrize("error", [_sqlite(1, "no such table: nope"), _sqlite(11, "database disk image is malformed"),
                                   exc.IntegrityError("…", {}, sqlite3.IntegrityError("UNIQUE")),
                                   OSError(errno.ENOENT, "No such file"), ValueError("a bug")])
def test_anything_else_is_no_fault_of_storage(error):
    assert storage_fault(error) is None
