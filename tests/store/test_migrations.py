"""Schema migrations (viewer.store.migrate, Alembic): fresh databases, databases made before migrations
existed, several processes at once, and upgrades with nothing to do. A fresh database and several processes
opening one are tested on SQLite and PostgreSQL (`fresh_database`); the rest read SQLite files directly (the
fixture made before migrations is one), so they are SQLite's alone."""
from __future__ import annotations

import sqlite3
from contextlib import closing
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from viewer.store import Store, migrate
from viewer.store.schema import metadata

ROOT = Path(__file__).resolve().parents[2]
BEFORE_MIGRATIONS = Path(__file__).resolve().parent / "fixtures" / "before-migrations.sql"
"""That database as SQL text (sqlite3's iterdump): reviewable in a diff, and no binary file in the tree."""


def _old_database(path: Path) -> Path:
    """The database from before migrations, made at `path` from its SQL text."""
    with closing(sqlite3.connect(path)) as db:
        db.executescript(BEFORE_MIGRATIONS.read_text(encoding="utf-8"))
    return path


def _schema(path: Path) -> tuple[int, list[tuple]]:
    """SQLite's schema cookie (bumped by every schema change) and the schema's text."""
    with closing(sqlite3.connect(path)) as db:
        cookie = db.execute("PRAGMA schema_version").fetchone()[0]
        return cookie, db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()


def _counts(path: Path) -> tuple[int, int]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT (SELECT count(*) FROM transcripts), (SELECT count(*) FROM messages)").fetchone()


def test_a_fresh_database_upgrades_to_head_and_matches_the_schema(fresh_database):
    store = Store(fresh_database(empty=True))
    assert migrate.database_revision(store.engine) == migrate.head()
    with store.engine.connect() as conn:
        # What `alembic revision --autogenerate` would write: nothing, if the revisions add up to schema.py
        # (the search index's tables, made by raw DDL, are left out as `migrate.revision` leaves them out).
        context = MigrationContext.configure(conn, opts={"include_name": migrate.include_name})
        assert compare_metadata(context, metadata) == []
    store.engine.dispose()


@pytest.fixture
def old_store(tmp_path) -> Iterator[Store]:
    """A copy of a database made by the code before migrations (commit a94abc1), holding every sample, opened
    (so upgraded) by the current store. Made from a worktree of that commit:

        git worktree add /tmp/base a94abc1 && cd /tmp/base && PYTHONPATH=/tmp/base /work/main/.venv/bin/python -c '
        import sqlite3; from viewer.web import create_app
        app = create_app({"DATABASE": "/tmp/f.sqlite3", "PRELOAD_SAMPLES": True, "SECRET_KEY": "x"})
        app.extensions["viewer.store"].engine.dispose(); db = sqlite3.connect("/tmp/f.sqlite3")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)"); db.execute("PRAGMA journal_mode=DELETE"); db.execute("VACUUM")'

    then dumped as SQL text to tests/store/fixtures/before-migrations.sql (sqlite3's `iterdump`)."""
    copy = _old_database(tmp_path / "old.sqlite3")
    _, tables = _schema(copy)
    assert "alembic_version" not in {name for _, name, _ in tables}
    store = Store(f"sqlite:///{copy}")
    yield store
    store.engine.dispose()


def test_a_database_from_before_migrations_upgrades_in_place_and_every_transcript_reads(old_store):
    assert migrate.database_revision(old_store.engine) == migrate.head()
    ids = old_store.ids()
    assert len(ids) == 59
    for id in ids:
        record = old_store.get(id)
        assert record is not None
        assert record.message_count == len(list(old_store.iter_entries(id, "debug")))
        assert record.visible_count == len(list(old_store.iter_entries(id, "default")))


def test_transcripts_from_before_migrations_are_claimed_and_parsed_again(old_store):
    from viewer import ingest  # here, not at the top: the tests above need only the store
    from viewer.ingest import STORED_VERSION

    for id in old_store.ids():
        record = old_store.get(id)
        assert record.parser_version != STORED_VERSION  # stored by the old parser
        current = ingest.up_to_date(old_store, record)  # claims it (the new column), then parses it again
        assert current.parser_version == STORED_VERSION
        assert current.message_count == len(list(old_store.iter_entries(id, "debug")))
        assert current.visible_count == len(list(old_store.iter_entries(id, "default")))


def test_processes_opening_one_new_database_at_once_all_succeed(fresh_database):
    url = fresh_database(empty=True)
    # Each process imports first, says so, then waits for the word: the opens themselves start together.
    code = ("import sys; from viewer.store import Store; print('ready', flush=True); sys.stdin.readline(); "
            "Store(sys.argv[1])")
    processes = [subprocess.Popen([sys.executable, "-c", code, url], cwd=ROOT, text=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(4)]
    for process in processes:
        assert process.stdout.readline() == "ready\n"
    for process in processes:
        process.stdin.write("go\n")
        process.stdin.flush()
    for process in processes:
        _, stderr = process.communicate(timeout=60)
        assert (process.returncode, stderr) == (0, "")  # and quiet: no Alembic INFO lines, no warnings
    engine = create_engine(url)
    assert migrate.database_revision(engine) == migrate.head()
    engine.dispose()


def test_upgrading_a_current_database_changes_nothing(tmp_path):
    path = tmp_path / "current.sqlite3"
    Store(f"sqlite:///{path}").engine.dispose()
    before = _schema(path)
    store = Store(f"sqlite:///{path}")
    assert _schema(path) == before
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [(migrate.head(),)]
    store.engine.dispose()


def test_the_claimed_at_revision_downgrades_and_upgrades_again_keeping_every_row(tmp_path):
    copy = _old_database(tmp_path / "old.sqlite3")
    Store(f"sqlite:///{copy}").engine.dispose()
    counts = _counts(copy)
    # As migrate.upgrade runs revisions: foreign keys off, so that batch mode's copy of `transcripts` does not
    # cascade to the messages when it drops the old table.
    engine = create_engine(f"sqlite:///{copy}")
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        command.downgrade(migrate.config(conn), "0001")
        conn.commit()
        assert "claimed_at" not in {column["name"] for column in conn.dialect.get_columns(conn, "transcripts")}
    engine.dispose()
    store = Store(f"sqlite:///{copy}")
    assert migrate.database_revision(store.engine) == migrate.head()
    store.engine.dispose()
    assert _counts(copy) == counts


@pytest.mark.parametrize("where", ["memory", "file"])
def test_the_store_keeps_foreign_keys_on_after_migrating(tmp_path, where):
    # Migrating turns them off on its connection, which then goes back to the pool (the only one in memory).
    store = Store("sqlite://" if where == "memory" else f"sqlite:///{tmp_path / 'fk.sqlite3'}")
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        assert "transcripts" in conn.dialect.get_table_names(conn)
    store.engine.dispose()


def test_opening_waits_out_a_lock_that_sqlite_reports_at_once(tmp_path, monkeypatch):
    """SQLite says "database is locked" without waiting out busy_timeout while another process switches a new
    file to WAL; on a loaded machine that process may hold it for a second or more. Opening tries again meanwhile."""
    engine = create_engine(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    migrate_once, tries, started = migrate._upgrade_once, [], time.monotonic()

    def locked_for_a_while(engine):
        tries.append(time.monotonic() - started)
        if tries[-1] < 1.5:
            raise OperationalError("PRAGMA journal_mode=WAL", {}, sqlite3.OperationalError("database is locked"))
        return migrate_once(engine)

    monkeypatch.setattr(migrate, "_upgrade_once", locked_for_a_while)
    migrate.upgrade(engine)
    assert migrate.database_revision(engine) == migrate.head()
    assert len(tries) > 3 and tries[-1] >= 1.5
    engine.dispose()


def test_opening_gives_up_at_once_on_an_error_other_than_a_lock(tmp_path, monkeypatch):
    engine = create_engine(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    tries = []

    def unreadable(engine):
        tries.append(1)
        raise OperationalError("SELECT 1", {}, sqlite3.OperationalError("file is not a database"))

    monkeypatch.setattr(migrate, "_upgrade_once", unreadable)
    with pytest.raises(OperationalError, match="not a database"):
        migrate.upgrade(engine)
    assert tries == [1]
