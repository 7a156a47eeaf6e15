"""Bringing the database's schema up to date when the store opens, with Alembic. The revisions are in
`viewer.store.migrations`; its README says how to write the next one (`revision` below)."""
from __future__ import annotations

import logging
import random
import tempfile
import time
from pathlib import Path
from typing import cast

# Before importing Alembic, which logs INFO lines as it loads its plugins, then more ("Context impl SQLiteImpl."
# …) on every open, in every process; an upgrade that changes something is logged once below instead.
logging.getLogger("alembic").setLevel(logging.WARNING)

from alembic import command  # noqa: E402
from alembic.config import Config  # noqa: E402
from alembic.runtime.migration import MigrationContext  # noqa: E402
from alembic.script import Script, ScriptDirectory  # noqa: E402
from sqlalchemy import inspect  # noqa: E402
from sqlalchemy.engine import Connection, Engine  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from viewer.store.engine import open_engine  # noqa: E402

LOCKED_FOR = 15.0
"""Seconds `upgrade` goes on trying while SQLite answers "database is locked" at once (more than busy_timeout)."""
MIGRATIONS = Path(__file__).resolve().with_name("migrations")
BASELINE = "0001"
"""The revision whose tables are exactly what the app made before it had migrations."""

SEARCH_TABLES = "message_search"
"""The prefix of the search index's tables (revision 0007; SQLite's FTS5 adds shadow tables of its own). Raw DDL
made them, not `schema.metadata`, so autogenerate must leave them alone."""

log = logging.getLogger(__name__)


def config(connection: Connection | None = None) -> Config:
    """Alembic's configuration, in code, so that nothing but the package itself is needed at run time. Its
    env.py runs on the connection handed over here, inside the caller's lock and transaction."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("file_template", "%%(rev)s_%%(slug)s")  # 0003_some_change.py, like the others
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest revision: where `upgrade` takes every database."""
    return cast(str, ScriptDirectory.from_config(config()).get_current_head())  # the migrations have one head


def database_revision(engine: Engine) -> str | None:
    """The database's revision (None: no `alembic_version` table, or an empty one)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """`_upgrade_once`, tried again while SQLite says "database is locked" at once, for up to `LOCKED_FOR`
    seconds: it does so without waiting out busy_timeout in a few cases, such as switching a brand-new file to WAL
    while other processes open it too. Those windows last as long as the process holding them is not scheduled,
    which on a loaded machine is more than a few quick tries cover; the pauses are drawn at random so that
    processes started together do not try again together."""
    deadline = time.monotonic() + LOCKED_FOR
    pause = 0.02
    while True:
        try:
            return _upgrade_once(engine)
        except OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
            engine.dispose()  # the failed connection may hold a half-set-up state: start afresh
            time.sleep(random.uniform(pause / 2, pause))
            pause = min(pause * 2, 0.5)


def _upgrade_once(engine: Engine) -> None:
    """Several server processes start at once on a fresh database (gunicorn --workers N); without the lock
    each sees no tables and all but one fail. On SQLite `BEGIN IMMEDIATE` takes the database's write lock (the
    others wait: busy_timeout), on PostgreSQL an advisory lock does the same. Whoever comes second finds the
    database at head and does nothing."""
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        try:
            if sqlite:
                # Off while migrating (SQLite ignores this inside a transaction, hence first): batch mode copies a
                # table and drops the old one, and that drop would cascade to every row that references it.
                conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            elif conn.dialect.name == "postgresql":
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7301946)")  # any constant of this app's own
            _migrate(conn)
            conn.commit()
        finally:
            if sqlite:
                # Back on before the connection returns to the pool (an in-memory database lives in that one
                # connection). The rollback ends what a failure left open, else the pragma would do nothing.
                conn.rollback()
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")


def _migrate(conn: Connection) -> None:
    cfg = config(conn)
    tables = set(inspect(conn).get_table_names())
    if "transcripts" in tables and "alembic_version" not in tables:
        # Made by `metadata.create_all` before migrations existed: its tables are the baseline's.
        command.stamp(cfg, BASELINE)
    before = MigrationContext.configure(conn).get_current_revision()
    command.upgrade(cfg, "head")
    after = MigrationContext.configure(conn).get_current_revision()
    if after != before:
        log.info("database schema upgraded from %s to %s", before or "nothing", after)


def revision(message: str) -> Path:
    """Write the next revision, numbered after the newest: what autogenerate finds between `schema.metadata`
    and a scratch SQLite database at head. Read and edit it before committing (see the README)."""
    with tempfile.TemporaryDirectory() as scratch:
        engine = open_engine(f"sqlite:///{scratch}/scratch.sqlite3")
        try:
            upgrade(engine)
            with engine.connect() as conn:
                script = command.revision(config(conn), message, autogenerate=True,
                                          rev_id=f"{int(head()) + 1:04d}",
                                          process_revision_directives=_without_search_tables)
        finally:
            engine.dispose()
    return Path(cast(Script, script).path)  # one revision, never several


def include_name(name: str | None, type_: str, parent_names: dict) -> bool:
    """For Alembic's comparisons (`include_name`): everything but the search index's tables."""
    return not (type_ == "table" and (name or "").startswith(SEARCH_TABLES))


def _without_search_tables(context, revision, directives) -> None:
    """Drops what autogenerate wrote about the search index's tables (it sees them in the database, not in
    `schema.metadata`): env.py's comparison does not take `include_name`, this does the same afterwards."""
    for script in directives:
        for ops in (script.upgrade_ops, script.downgrade_ops):
            ops.ops = [op for op in ops.ops if not (getattr(op, "table_name", None) or "").startswith(SEARCH_TABLES)]
