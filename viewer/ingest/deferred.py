"""Uploads answered before they are processed: `accept` stores the raw bytes and the record (durable when it
returns, so the upload's link can be given at once), `process` parses, stores the rows (the upload is readable
from then on) and then builds the search index. `process` is also how an upload whose process died is taken up
again: it starts from the stored raw bytes, whatever stage was reached.

A storage fault on the way (a full disk, a database restarting: viewer/store/faults.py) marks nothing failed:
`process` raises `Interrupted`, the upload stays held, and the processor runs it again from its stored bytes
once storage is back. Only an upload that cannot be stored for what it is gets marked failed, and the images
stored for it that nothing else holds are deleted with that."""
from __future__ import annotations

import io
import logging
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass
from functools import partial
from typing import BinaryIO, Callable

from viewer.ingest.core import STORED_VERSION, contents, examine, keep_findings, raw_spool
from viewer.ingest.images import PayloadBytes, drop_unheld, file_payloads, store_examined_images
from viewer.ingest import kept, sessions
from viewer.ingest.streaming import process_streamed
from viewer.parse.pieces import Unstreamable
from viewer.parse.thinning import Thinned
from viewer.model.collector import collector_paused
from viewer.store import Store
from viewer.store.faults import Fault, storage_fault
from viewer.store.processing import FAILED, PARSING, STORING
from viewer.store.staged import Staged, first_rows

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Upload:
    """An upload whose bytes the caller holds, parsed while they are being stored (the parse needs no database,
    so it overlaps the write and its commit)."""

    raw: str | bytes | Thinned
    """Its text (or its bytes, when they do not decode cleanly: the parse reports them; or a big session's thin
    text, `ingest.contents`)."""
    dialect: str
    stored: Callable[[], bool]
    """Waits until the bytes and record are stored and says whether they were (if not, nothing is stored)."""


class Interrupted(Exception):
    """Processing met a storage fault: nothing was marked failed, and the upload is to be processed again from its
    stored bytes once storage is back."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.detail)
        self.fault = fault


def accept(store: Store, raw: bytes | BinaryIO | None, *, id: str, worker: str, **fields) -> None:
    """Store an upload's raw bytes (or its spool file's) and its record, in state processing (stage parsing),
    held by `worker`; with `raw` None, its record alone (`size` says how big it is), its bytes stored by
    `process` from where they are kept meanwhile (viewer/ingest/kept.py)."""
    store.processing.accept(io.BytesIO(raw) if isinstance(raw, bytes) else raw, id=id, worker=worker, **fields)


def process(store: Store, id: str, *, window: int = 100, upload: Upload | None = None, worker: str | None = None,
            folder: str | None = None, spool: BinaryIO | None = None, kept_in: str | None = None) -> bool:
    """Parse upload `id` and store its rows: first those of its first two windows of `window` entries (its page
    can be served from then on), then the rest; then its search index. True when it is stored; False when it
    was deleted meanwhile, was never stored, or could not be stored (then it is marked failed). Without
    `upload`, its bytes are read from the store (a big JSON Lines dataset, or an upload taken over from a process
    that died), through a copy of them (in `folder`) that a big dataset is read from a piece at a time
    (`streaming`) and a big session is thinned from (its image payloads cut out). With `spool`, its bytes are
    read from there (its spool file, kept past its request) rather than back from the store. A big agent session
    is read and stored a piece at a time (viewer/ingest/sessions.py). An upload accepted without its bytes has
    them stored first, from `spool` or from where they were kept (`kept_in`, viewer/ingest/kept.py). With
    `worker`, nothing is stored once another worker holds the upload. `Interrupted` on a storage fault."""
    try:
        if upload is not None:  # a thin parse's images are read back from the stored bytes
            return _process(store, id, window, upload, partial(store.raw_range, id), worker)
        record = store.get(id)
        if record is None or record.deleted:
            kept.forget(kept_in, id)
            return False
        store.processing.stage(id, PARSING, worker=worker)
        if not store.processing.has_raw(id):
            with ExitStack() as closing:
                spool = spool or closing.enter_context(kept.found(kept_in, id) or nullcontext())
                if spool is None:
                    store.processing.fail(id, "The server stopped before this upload's bytes were stored: send it "
                                              "again.", worker=worker)
                    return False
                spool.seek(0)
                stored = store.processing.keep_raw(id, spool, worker=worker)
                progress = store.processing.progress(id)
                if stored or progress is None or progress.stage == FAILED:  # else another worker holds it: its own
                    kept.forget(kept_in, id)  # stored now, or deleted meanwhile
                return stored and _from(store, id, record.requested_dialect, window, spool, worker, folder)
        return _from(store, id, record.requested_dialect, window, spool, worker, folder)
    except Interrupted:
        raise
    except Exception as error:
        fault = storage_fault(error)
        if fault is None:
            raise
        raise Interrupted(fault) from error


def _from(store: Store, id: str, requested: str, window: int, spool: BinaryIO | None, worker: str | None,
          folder: str | None) -> bool:
    """Process an upload whose bytes are stored, read from `spool` or copied back from the store (in `folder`)."""
    with nullcontext(spool) if spool is not None else raw_spool(store, id, folder) as read:
        read.seek(0)
        stored = _process_streamed(store, id, read, requested, worker)
        if stored is None:
            stored = _process_session(store, id, read, requested, window, worker)
        if stored is not None:
            return stored
        raw = contents(read, requested)
        return _process(store, id, window, Upload(raw, requested, lambda: True), file_payloads(read), worker)


def _process_session(store: Store, id: str, spool: BinaryIO, requested: str, window: int,
                     worker: str | None) -> bool | None:
    """A big agent session stored a piece at a time; None when it is not one (or turns out to need the whole
    parse: what was stored of it is dropped by that parse's store)."""
    dialect = sessions.streams(spool, requested)
    if dialect is None:
        return None
    try:
        return sessions.store_session(store, id, spool, dialect, window=window, worker=worker)
    except Unstreamable as reason:
        log.info("upload %s processed whole: %s", id, reason)
        store.processing.start_over(id, worker=worker)
        return None
    except Exception as error:  # noqa: BLE001 - recorded on the upload, whose page says so
        if storage_fault(error) is not None:
            raise
        log.exception("processing upload %s failed", id)
        store.processing.fail(id, f"{type(error).__name__}: the session could not be stored.", worker=worker)
        return False
    finally:
        spool.seek(0)


def _process_streamed(store: Store, id: str, spool: BinaryIO, dialect: str, worker: str | None) -> bool | None:
    """A big JSON Lines dataset stored a piece at a time (viewer/ingest/streaming.py); None when it is not one."""
    try:
        return process_streamed(store, id, spool, dialect, worker=worker)
    except Exception as error:  # noqa: BLE001 - recorded on the upload, whose page says so
        if storage_fault(error) is not None:
            raise
        log.exception("processing upload %s failed", id)
        store.processing.fail(id, f"{type(error).__name__}: the dataset could not be stored.", worker=worker)
        return False


def _process(store: Store, id: str, window: int, upload: Upload, payloads: PayloadBytes,
             worker: str | None = None) -> bool:
    images: set[str] = set()
    try:
        # One pause from the parse to the last row (viewer/model/collector.py): otherwise the collection of all
        # the parse made runs between the parse and the first page's rows, delaying them.
        with collector_paused:
            examined = examine(upload.raw, upload.dialect, store.personal.choices(id))
            if not upload.stored():
                return False
            shared = examined.shared
            staged = None
            if shared.conversations:  # a dataset's first page is its index: stored whole
                images |= store_examined_images(store, examined, payloads)  # before the rows that name them
                store.processing.stage(id, STORING, worker=worker)
            else:
                staged = Staged(id, shared, examined.original, first_rows(shared, window))
                # The first page's images before its rows, the others before the rest's: re-encoding every image
                # of a big session of screenshots first held its first page back until nearly the end.
                images |= store_examined_images(store, examined, payloads, before=staged.upto)
                if not store.processing.show_first(id, staged, STORED_VERSION, original=examined.original,
                                                   secret_kinds=examined.secret_kinds, worker=worker):
                    return False
                images |= store_examined_images(store, examined, payloads)
            stored = store.processing.finish(id, shared, STORED_VERSION, index_search=False, staged=staged,
                                             original=examined.original, secret_kinds=examined.secret_kinds,
                                             worker=worker)
            if stored:
                keep_findings(store, id, examined)
            return stored and store.processing.index(id, shared, worker=worker)
    except Exception as error:  # noqa: BLE001 - recorded on the upload, whose page says so
        if storage_fault(error) is not None:
            if upload.stored():  # else nothing of it was stored, and there is nothing to process again
                raise
            return False
        log.exception("processing upload %s failed", id)
        if upload.stored():
            store.processing.fail(id, f"{type(error).__name__}: the parse could not be stored.", worker=worker)
        drop_unheld(store, images)
        return False
