"""A SQLite database as members of a bundle (text.py): its schema (`<path>#sqlite_schema`, the SQL of every table,
view, index and trigger, as text), then each table's rows (`<path>#<table>`, in table name order), one JSON object
a line, in the table's own order.

An uploaded database is hostile input. It is copied to a temporary file and opened read-only and immutable (a
`file:…?mode=ro&immutable=1` URI: no lock, no journal, no write-ahead log read or made), with `trusted_schema` off
(a function the schema names runs only if SQLite marks it harmless), `cell_size_check` on, defensive mode where
this Python can set it, no extension loading (never enabled), no attached databases, and bounds on the length of a
value, the columns and the expression depth. Only SQL of our own runs, and it reads tables alone: views (which
may hold a recursive query), triggers (which never fire on a read) and virtual tables (whose module would run) are
never read; the schema's type of each table is the one SQLite parsed (`PRAGMA table_list`), not the one a crafted
schema row claims. Every query is bounded in time (a progress handler aborts it) and in rows, and everything is
bounded in characters. A corrupt or crafted file is a W-DATABASE diagnostic, never an exception, a crash or a hang.

Values: numbers stay numbers; text, and a blob that is UTF-8 text, is a JSON string, or when it holds a JSON
object or array (agents keep their messages so) that JSON itself, so that a reader finds the spans of its
members; other blobs are `{"$base64": …}`; a float that JSON cannot write is its text.
"""
from __future__ import annotations

import base64
import contextlib
import json
import math
import os
import sqlite3
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any, Iterator

from viewer.bundles.text import Entry

SQLITE_MAGIC = b"SQLite format 3\x00"
SCHEMA_TABLE = "sqlite_schema"
MAX_ROWS = 1_000_000
"""Rows read of one table."""
MAX_VALUE_BYTES = 64 * 1024 * 1024
"""The longest text or blob read (SQLITE_LIMIT_LENGTH): a longer one stops the table with a diagnostic."""
MAX_SECONDS = 30.0
"""Time every query of one database may take together."""
PROGRESS_STEPS = 10_000
"""SQLite's virtual machine instructions between two looks at the clock."""
_LIMITS = (("SQLITE_LIMIT_LENGTH", MAX_VALUE_BYTES), ("SQLITE_LIMIT_ATTACHED", 0),
           ("SQLITE_LIMIT_EXPR_DEPTH", 200), ("SQLITE_LIMIT_COLUMN", 4000), ("SQLITE_LIMIT_TRIGGER_DEPTH", 1),
           ("SQLITE_LIMIT_SQL_LENGTH", 100_000), ("SQLITE_LIMIT_COMPOUND_SELECT", 10))


def is_database(data: bytes) -> bool:
    return data.startswith(SQLITE_MAGIC)


@dataclass(frozen=True, slots=True)
class Bounds:
    """What one database may cost: characters written, rows of a table, seconds."""

    chars: int = 512 * 1024 * 1024
    rows: int = MAX_ROWS
    seconds: float = MAX_SECONDS


def header_problem(data: bytes) -> str | None:
    """What is wrong with a database's 100-byte header, read before SQLite opens it; None when nothing."""
    if len(data) < 100:
        return "it is shorter than a SQLite database's header"
    size = int.from_bytes(data[16:18], "big")
    size = 65536 if size == 1 else size
    if size < 512 or size & (size - 1):
        return f"its header gives a page size of {size}, which SQLite never writes"
    return None


def entries(data: bytes, path: str = "", *, max_chars: int | None = None, bounds: Bounds = Bounds()) -> list[Entry]:
    """The database's members: its schema, then each table's rows. A database that cannot be read at all is one
    member that says why."""
    if max_chars is not None:
        bounds = Bounds(min(bounds.chars, max_chars), bounds.rows, bounds.seconds)
    problem = header_problem(data)
    if problem is not None:
        return [_refused(path, data, f"The SQLite database cannot be read: {problem}.")]
    with _spooled(data) as file:
        try:
            with _opened(file, bounds) as reader:
                return reader.members(path, len(data))
        except (sqlite3.Error, OverflowError, MemoryError, ValueError) as error:
            return [_refused(path, data, f"The SQLite database cannot be read ({_said(error)}); nothing of it "
                                         "was shown.")]


@contextlib.contextmanager
def _spooled(data: bytes) -> Iterator[str]:
    """The bytes in a temporary file of their own (SQLite reads a file; the upload's spool has no name), removed
    after."""
    handle, name = tempfile.mkstemp(suffix=".sqlite-upload")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        yield name
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)


@contextlib.contextmanager
def _opened(file: str, bounds: Bounds) -> Iterator[_Reader]:
    uri = f"file:{urllib.parse.quote(file)}?mode=ro&immutable=1"
    connection = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    try:
        reader = _Reader(connection, bounds)
        yield reader
    finally:
        connection.close()


class _Reader:
    def __init__(self, connection: sqlite3.Connection, bounds: Bounds) -> None:
        self.connection = connection
        self.bounds = bounds
        self.deadline = time.monotonic() + bounds.seconds
        self.invalid_text = 0
        """Text values that were not UTF-8 (read with replacement characters)."""
        self._harden()

    def _harden(self) -> None:
        connection = self.connection
        for name, value in _LIMITS:
            connection.setlimit(getattr(sqlite3, name), value)
        setconfig = getattr(connection, "setconfig", None)  # Python 3.12 and later
        if setconfig is not None:
            setconfig(getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE"), True)
            setconfig(getattr(sqlite3, "SQLITE_DBCONFIG_TRUSTED_SCHEMA"), False)
        for pragma in ("trusted_schema = OFF", "cell_size_check = ON", "query_only = ON", "mmap_size = 0",
                       "cache_size = -16384", "temp_store = MEMORY"):
            connection.execute(f"PRAGMA {pragma}")
        connection.text_factory = self._text
        connection.set_progress_handler(self._too_long, PROGRESS_STEPS)

    def _too_long(self) -> int:
        return 1 if time.monotonic() > self.deadline else 0

    def _text(self, data: bytes) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.invalid_text += 1
            return data.decode("utf-8", errors="replace")

    def members(self, path: str, size: int) -> list[Entry]:
        prefix = f"{path}#"
        schema = Entry(prefix + SCHEMA_TABLE, None, {"bytes": size})
        rows = self.connection.execute(f"SELECT type, name, tbl_name, sql FROM {SCHEMA_TABLE}").fetchall()
        schema.content = "".join(json.dumps(dict(zip(("type", "name", "tbl_name", "sql"), row)),
                                            ensure_ascii=False) + "\n" for row in rows)
        found = [schema]
        left = self.bounds.chars - len(schema.content)
        for name, kind in self._tables():
            if kind != "table":
                found.append(Entry(prefix + name, None, {"refused": f"a {kind} table, whose module would run to "
                                                                    "read it, is not read"}))
                continue
            entry = self._table(prefix + name, name, left)
            left -= len(entry.content or "")
            found.append(entry)
        return found

    def _tables(self) -> list[tuple[str, str]]:
        """Every table of the main database as SQLite parsed its schema (`table`, `virtual` or `shadow`), by name;
        SQLite's own tables left out."""
        rows = self.connection.execute("PRAGMA main.table_list").fetchall()
        tables = {(name, "table" if kind == "shadow" else kind) for schema, name, kind, *_ in rows
                  if schema == "main" and kind in ("table", "virtual", "shadow") and not name.startswith("sqlite_")}
        return sorted(tables)

    def _table(self, path: str, name: str, left: int) -> Entry:
        entry = Entry(path, None)
        lines: list[str] = []
        written = 0
        quoted = '"' + name.replace('"', '""') + '"'
        before = self.invalid_text
        try:
            cursor = self.connection.execute(f"SELECT * FROM main.{quoted} LIMIT {self.bounds.rows + 1}")
            columns = [column[0] for column in cursor.description or ()]
            for count, row in enumerate(cursor):
                if count == self.bounds.rows:
                    entry.facts["cut"] = True
                    entry.note("W-DATABASE", f"The table {name!r} has more than {self.bounds.rows:,} rows; the "
                                             "rest were not read.")
                    break
                line = _row_line(columns, row)
                written += len(line) + 1
                if written > left:
                    entry.facts["cut"] = True
                    entry.note("W-DATABASE", f"The database's text grew past {self.bounds.chars:,} characters at "
                                             f"the table {name!r}; the rest was not read.")
                    break
                lines.append(line)
        except sqlite3.Error as error:
            entry.facts["cut"] = True
            entry.note("W-DATABASE", f"Reading the table {name!r} stopped ({_said(error)}); the rows before it "
                                     "are shown.")
        entry.content = "".join(line + "\n" for line in lines)
        entry.facts["rows"] = len(lines)
        if self.invalid_text > before:
            entry.note("W-DECODE-UTF8", f"{self.invalid_text - before:,} text value(s) of the table {name!r} are "
                                        "not valid UTF-8; invalid bytes were replaced with U+FFFD.")
        return entry


def _row_line(columns: list[str], row: tuple[Any, ...]) -> str:
    """One row as one line of JSON: JSON an agent keeps in a column is written as itself (one line), anything
    else as a value."""
    parts = []
    for column, value in zip(columns, row):
        parts.append(json.dumps(column, ensure_ascii=False) + ": " + _value(value))
    return "{" + ", ".join(parts) + "}"


def _value(value: Any) -> str:
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            return json.dumps({"$base64": base64.b64encode(value).decode("ascii")})
    if isinstance(value, str):
        return _json_text(value) or json.dumps(value, ensure_ascii=False)
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(repr(value))
    return json.dumps(value)


def _json_text(value: str) -> str | None:
    """A JSON object or array held as text, as one line of JSON (as written when it is one already); None for
    any other text."""
    stripped = value.strip()
    if not stripped.startswith(("{", "[")):
        return None
    try:
        parsed = json.loads(stripped, parse_constant=_not_json)
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, (dict, list)):
        return None
    if "\n" in stripped or "\r" in stripped:
        return json.dumps(parsed, ensure_ascii=False)
    return stripped


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def _refused(path: str, data: bytes, reason: str) -> Entry:
    entry = Entry(path or "#", None, {"bytes": len(data), "refused": "a database that cannot be read"})
    entry.note("W-DATABASE", reason)
    return entry


def _said(error: BaseException) -> str:
    said = str(error) or type(error).__name__
    return "it took too long to read" if said == "interrupted" else said
