"""Uploads answered before they are processed: their raw bytes and record are stored first (`accept`), then
their counts and the rows of their first page (`show_first`, viewer/store/staged.py), the rest of their parse
rows (`finish`), and their search index after those (`index`).

The record's `state` is "processing" until `finish`, which makes it readable in the same transaction that stores
its last rows (before, a reader may have the windows whose rows are all stored: viewer/web/windows.py);
"failed" when processing could not store them. A `processing` row per upload not yet done says how
far it got (`stage`), which process holds it (`worker`) and when that process last said it was alive
(`heartbeat_at`), so that an upload whose process died is found (`abandoned`), taken over (`claim`) and
processed again from its stored raw bytes. Deleting an upload deletes its row, and `finish` then stores nothing.
Each write of a stage names the worker that holds the upload (`worker`), and stores nothing once another holds
it: a process that handed its uploads back (`release`, at shutdown) or was taken over can no longer write them.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, BinaryIO, Iterable

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine

from viewer.policy import Projection
from viewer.store import raw as raw_bytes, rows, search, streamed, summaries
from viewer.store.bulk import delete_parse, insert_conversations, insert_parse, parses_of
from viewer.store.engine import bulk_transaction
from viewer.store.schema import processing, transcripts
from viewer.store.sessions import SessionClose, SessionPart, SessionRows
from viewer.store.staged import Staged

PROCESSING, FAILED = "processing", "failed"
"""The states of a record not yet readable (`Record.state`); None once it is."""
RELEASED = "released"
"""The worker of an upload handed back by its process (at shutdown): any other process takes it over at once."""
QUEUED, PARSING, STORING, INDEXING = "queued", "parsing", "storing", "indexing"
"""The stages of a `processing` row, in order; `FAILED` ends it."""
STAGES = (QUEUED, PARSING, STORING, INDEXING)
ERROR_CHARS = 500


def _now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclass(frozen=True, slots=True)
class Progress:
    """How far an upload's processing got."""

    stage: str
    started_at: dt.datetime
    error: str | None
    readable: bool = False
    """Whether its first rows are stored (`show_first`): its windows whose rows are all stored may be read."""

    @property
    def step(self) -> int:
        """The stage's number from 1 (of `len(STAGES)`); failed counts as the last."""
        return STAGES.index(self.stage) + 1 if self.stage in STAGES else len(STAGES)

    def seconds(self, now: dt.datetime | None = None) -> float:
        return max(((now or _now()) - self.started_at).total_seconds(), 0.0)


class Processing:
    """The store's uploads being processed (`Store.processing`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def accept(self, source: BinaryIO | None, *, id: str, worker: str, requested_dialect: str = "auto",
               debug_allowed: bool = False, manage_hash: str | None = None, name: str | None = None,
               keep_for: dt.timedelta | None = None, size: int = 0) -> None:
        """Store an upload's raw bytes (read from `source`, a spool file, a chunk at a time: viewer/store/raw.py)
        and its record, not yet parsed, held by `worker`; durable on return. The record's `raw` stays empty, so
        that its updates while it is processed stay small: SQLite rewrites a whole row on any update. Without
        `source`, the record alone (of `size` bytes): its bytes come later (`keep_raw`), kept meanwhile where its
        process finds them again (viewer/ingest/kept.py); until then its `sha256` is empty."""
        now = _now()
        row = {**summaries.upload_row(id, name=name, requested_dialect=requested_dialect, keep_for=keep_for,
                                      debug_allowed=debug_allowed, manage_hash=manage_hash, is_sample=False, now=now),
               # Counts of nothing, and no parser version (so that no reader claims it to parse again).
               "dialect": "unknown", "parser_version": "", "header": "{}", "message_count": 0, "visible_count": 0,
               "hidden_count": 0, "diagnostic_count": 0, "error_count": 0, "pair_count": 0, "state": PROCESSING}
        with self.engine.begin() as conn:
            conn.execute(insert(transcripts).values(**{**row, **({"size": size} if source is None else {})}))
            if source is not None:
                written = raw_bytes.write(conn, id, source)
                conn.execute(update(transcripts).where(transcripts.c.id == id)
                             .values(sha256=written.sha256, size=written.size))
            conn.execute(insert(processing).values(transcript_id=id, stage=PARSING, worker=worker, started_at=now,
                                                   heartbeat_at=now))

    def keep_raw(self, id: str, source: BinaryIO, *, worker: str | None = None) -> bool:
        """Store the raw bytes of upload `id`, accepted without them (read from `source`, from where it stands);
        durable on return. False, storing nothing, when it is no longer being processed (with `worker`, by that
        worker)."""
        with self.engine.begin() as conn:
            if not self._hold(conn, id, PARSING, worker):
                return False
            raw_bytes.forget(conn, id)  # what a run that died while writing them left
            written = raw_bytes.write(conn, id, source)
            conn.execute(update(transcripts).where(transcripts.c.id == id)
                         .values(sha256=written.sha256, size=written.size))
        return True

    def has_raw(self, id: str) -> bool:
        """Whether upload `id`'s raw bytes are stored (an upload accepted without them has none until
        `keep_raw`)."""
        with self.engine.connect() as conn:
            return bool(conn.execute(select(transcripts.c.sha256).where(transcripts.c.id == id)).scalar())

    def stage(self, id: str, stage: str, *, worker: str | None = None) -> None:
        """Record that upload `id` reached `stage` (if `worker`, still holds it)."""
        with self.engine.begin() as conn:
            conn.execute(update(processing).where(processing.c.transcript_id == id, *_held_by(worker))
                         .values(stage=stage, heartbeat_at=_now()))

    def show_first(self, id: str, staged: Staged, parser_version: str, *, original: Projection | None = None,
                   secret_kinds: dict[str, int] | None = None, worker: str | None = None) -> bool:
        """Store upload `id`'s counts and the rows of its first page (`staged.insert_first`), in one
        transaction; it stays processing, and its windows whose rows are all stored may be read. False, storing
        nothing, when it is no longer being processed."""
        projection = staged.projection
        with bulk_transaction(self.engine, durable=False) as conn:  # made again from the raw bytes after a crash
            if not self._hold(conn, id, STORING, worker, stored_upto=staged.upto):
                return False
            conn.execute(update(transcripts).where(transcripts.c.id == id, transcripts.c.deleted_at.is_(None))
                         .values(**summaries.summary(projection, parser_version),
                                 **summaries.secrets(secret_kinds)))
            delete_parse(conn, id)  # rows of a run that died before it was done
            staged.insert_first(conn)
        return True

    def finish(self, id: str, projection: Projection, parser_version: str, *, original: Projection | None = None,
               secret_kinds: dict[str, int] | None = None, index_search: bool = True,
               staged: Staged | None = None, worker: str | None = None) -> bool:
        """Store upload `id`'s parse rows (after `show_first`: the rest of `staged`) and make it readable, in one
        transaction; without `index_search` its search index is left to `index` (the row stays, at stage
        `indexing`). False, storing nothing, when it is no longer being processed (deleted meanwhile, or taken
        over by another process)."""
        with bulk_transaction(self.engine, durable=False) as conn:  # `index`'s commit makes it durable
            if not self._hold(conn, id, INDEXING, worker):
                return False
            masked = raw_bytes.keep_masked(conn, id, projection, original)  # a dead run's chunks replaced
            if staged is not None:
                conn.execute(update(transcripts).where(transcripts.c.id == id).values(state=None, masked_raw=masked))
                staged.insert_rest(conn)
                return True
            conn.execute(update(transcripts).where(transcripts.c.id == id, transcripts.c.deleted_at.is_(None))
                         .values(**summaries.summary(projection, parser_version), state=None,
                                 **{**summaries.secrets(secret_kinds), "masked_raw": masked}))
            delete_parse(conn, id)  # rows of a run that died before it was done
            parent = conn.execute(select(transcripts).where(transcripts.c.id == id)).one()._asdict()
            insert_conversations(conn, {**parent, "raw": None}, projection, parser_version)
            insert_parse(conn, id, projection, original, index_search=index_search)
            if index_search:
                conn.execute(delete(processing).where(processing.c.transcript_id == id))
        return True

    def finish_streamed(self, id: str, batches: Iterable[streamed.Batch], parser_version: str, *,
                        worker: str | None = None) -> bool:
        """Store upload `id`, a big JSON Lines dataset, a batch of conversations at a time (as
        `Store.add_streamed` does) with its search index, and make it readable, in one transaction. False, storing
        nothing, when it is no longer being processed; an exception from `batches` rolls everything back."""
        with bulk_transaction(self.engine) as conn:
            if not self._hold(conn, id, STORING, worker):
                return False
            conn.execute(update(transcripts).where(transcripts.c.id == id).values(state=None))  # its rows' too
            parent = conn.execute(select(*rows.record_columns()).where(transcripts.c.id == id)).one()._asdict()
            totals = streamed.insert_batches(conn, {**parent, "raw": None, "masked_raw": None}, batches,
                                             parser_version)
            conn.execute(update(transcripts).where(transcripts.c.id == id, transcripts.c.deleted_at.is_(None))
                         .values(secret_kinds=None, masked_raw=raw_bytes.keep_masked(conn, id, None, None),
                                 **streamed.dataset_summary(parser_version, totals)))
            conn.execute(delete(processing).where(processing.c.transcript_id == id))
        return True

    def store_session(self, id: str, parts: Iterable[SessionPart | SessionClose], parser_version: str, *,
                      window: int = 100, worker: str | None = None) -> bool:
        """Store upload `id`, a big session, a batch of messages at a time (viewer/store/sessions.py), each batch in
        a transaction of its own: its first two windows are readable once stored (`stored_upto`), the rest as it
        comes; the last transaction applies what the end decided, makes it readable and searchable. False,
        storing no more, when it is no longer being processed (with `worker`, by that worker). An exception from `parts` leaves what was stored,
        for the next run to drop (it starts by deleting its rows)."""
        writer = SessionRows(id, parser_version, window)
        with bulk_transaction(self.engine, durable=False) as conn:  # made again from the raw bytes after a crash
            if not self._hold(conn, id, STORING, worker, stored_upto=None):
                return False
            delete_parse(conn, id)  # rows of a run that died, or of a run started again
            raw_bytes.keep_masked(conn, id, None, None)
        for part in parts:
            if isinstance(part, SessionClose):
                return self._close_session(id, writer, part, worker)
            with bulk_transaction(self.engine, durable=False) as conn:
                if not self._hold(conn, id, STORING, worker):
                    return False
                writer.insert(conn, part)
                readable = {"stored_upto": writer.counts.messages} if writer.readable else {}
                if readable:
                    self._hold(conn, id, STORING, worker, **readable)
                conn.execute(update(transcripts).where(transcripts.c.id == id, transcripts.c.deleted_at.is_(None))
                             .values(**writer.summary(part.projection.transcript.dialect)))
        raise ValueError("a session's parts ended without its close")

    def start_over(self, id: str, *, worker: str | None = None) -> None:
        """Drop what a run stored of upload `id` (a session found partway to need the whole parse): it is parsing
        again, and no window of it is readable meanwhile."""
        with bulk_transaction(self.engine, durable=False) as conn:
            if self._hold(conn, id, PARSING, worker, stored_upto=None):
                delete_parse(conn, id)
                raw_bytes.keep_masked(conn, id, None, None)

    def _close_session(self, id: str, writer: SessionRows, close: SessionClose, worker: str | None) -> bool:
        with bulk_transaction(self.engine) as conn:  # durable: the upload is whole from here
            if not self._hold(conn, id, INDEXING, worker):
                return False
            summary = writer.close(conn, close)
            conn.execute(update(transcripts).where(transcripts.c.id == id, transcripts.c.deleted_at.is_(None))
                         .values(**summary, state=None))
            conn.execute(delete(processing).where(processing.c.transcript_id == id))
        return True

    @staticmethod
    def _hold(conn, id: str, stage: str, worker: str | None = None, **values) -> bool:
        """Move upload `id` to `stage` if it is still being processed (not failed, not deleted) and, with
        `worker`, still by that worker."""
        return bool(conn.execute(update(processing).where(processing.c.transcript_id == id,
                                                          processing.c.stage != FAILED, *_held_by(worker))
                                 .values(stage=stage, heartbeat_at=_now(), **values)).rowcount)

    def index(self, id: str, projection: Projection, *, worker: str | None = None) -> bool:
        """Build the search index of upload `id`, stored by `finish` without one; False when it is gone (or, with
        `worker`, held by another)."""
        with bulk_transaction(self.engine) as conn:
            if not conn.execute(delete(processing).where(processing.c.transcript_id == id,
                                                         processing.c.stage == INDEXING, *_held_by(worker))).rowcount:
                return False
            search.index(conn, parses_of(id, projection))
        return True

    def fail(self, id: str, error: str, *, worker: str | None = None) -> None:
        """Mark upload `id` as failed (if `worker`, only while it holds it): its raw bytes stay, for its uploader
        to download."""
        with self.engine.begin() as conn:
            marked = conn.execute(update(processing).where(processing.c.transcript_id == id, *_held_by(worker))
                                  .values(stage=FAILED, error=error[:ERROR_CHARS], heartbeat_at=_now())).rowcount
            if worker is not None and not marked:  # another worker holds it now: its outcome is not ours to say
                return
            conn.execute(update(transcripts).where(transcripts.c.id == id, transcripts.c.state == PROCESSING)
                         .values(state=FAILED))

    def release(self, worker: str) -> list[str]:
        """Hand back every upload `worker` holds (its process stops): each is left to the next process that looks,
        which takes it over at once, as if its holder had died, without waiting for a lease. Returns their ids."""
        with self.engine.begin() as conn:
            ids = list(conn.execute(select(processing.c.transcript_id).where(processing.c.worker == worker,
                                                                             processing.c.stage != FAILED)).scalars())
            conn.execute(update(processing).where(processing.c.worker == worker, processing.c.stage != FAILED)
                         .values(worker=RELEASED))
        return ids

    def progress(self, id: str) -> Progress | None:
        """How far upload `id` got; None when it is done (or was never processed later)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(processing.c.stage, processing.c.started_at, processing.c.error,
                                      processing.c.stored_upto).where(processing.c.transcript_id == id)).first()
        if row is None:
            return None
        started = row.started_at if row.started_at.tzinfo else row.started_at.replace(tzinfo=dt.timezone.utc)
        return Progress(row.stage, started, row.error, row.stored_upto is not None)

    def searchable(self, id: str) -> bool:
        """Whether upload `id`'s search index is built (a readable upload's may still be in the making)."""
        progress = self.progress(id)
        return progress is None or progress.stage == FAILED

    def heartbeat(self, worker: str) -> None:
        """Say that `worker` is alive: the uploads it holds are not taken over."""
        with self.engine.begin() as conn:
            conn.execute(update(processing).where(processing.c.worker == worker, processing.c.stage != FAILED)
                         .values(heartbeat_at=_now()))

    def held(self) -> list[tuple[str, str, dt.datetime]]:
        """`(id, worker, heartbeat_at)` of every upload being processed (not failed), oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(processing.c.transcript_id, processing.c.worker, processing.c.heartbeat_at)
                                .where(processing.c.stage != FAILED).order_by(processing.c.started_at)).all()
        return [(row[0], row[1], row[2] if row[2].tzinfo else row[2].replace(tzinfo=dt.timezone.utc))
                for row in rows]

    def claim(self, id: str, seen_worker: str, worker: str) -> bool:
        """Take upload `id` over from `seen_worker`; True for exactly one of concurrent claimers. Its stage
        goes back to queued: it is processed again whole, rows and index."""
        with self.engine.begin() as conn:
            return bool(conn.execute(
                update(processing).where(processing.c.transcript_id == id, processing.c.worker == seen_worker,
                                         processing.c.stage != FAILED)
                .values(worker=worker, stage=QUEUED, heartbeat_at=_now(), stored_upto=None)).rowcount)


def _held_by(worker: str | None) -> tuple:
    """The condition that `worker` holds the row (none without a worker: a caller outside the processor)."""
    return () if worker is None else (processing.c.worker == worker,)


def forget(conn: Any, id: str) -> None:
    """Drop upload `id`'s processing row (when it is deleted): a worker still at it then stores nothing."""
    conn.execute(delete(processing).where(processing.c.transcript_id == id))

