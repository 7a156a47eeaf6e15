"""Uploads answered before they are processed: `accept` stores the raw bytes and the record (durable when it
returns, so the upload's link can be given at once), `process` parses, stores the rows (the upload is readable
from then on) and then builds the search index. `process` is also how an upload whose process died is taken up
again: it starts from the stored raw bytes, whatever stage was reached."""
from __future__ import annotations

import logging

from viewer.ingest import STORED_VERSION, examine
from viewer.model.collector import collector_paused
from viewer.store import Store
from viewer.store.processing import PARSING, STORING

log = logging.getLogger(__name__)


def accept(store: Store, raw: bytes, *, id: str, worker: str, **fields) -> None:
    """Store an upload's raw bytes and its record, in state processing, held by `worker`."""
    store.processing.accept(raw, id=id, worker=worker, **fields)


def process(store: Store, id: str) -> bool:
    """Parse upload `id` from its stored raw bytes and store its rows, then its search index. True when it is
    stored; False when it was deleted meanwhile, or could not be stored (then it is marked failed)."""
    record = store.get(id)
    if record is None or record.deleted:
        return False
    try:
        store.processing.stage(id, PARSING)
        analysis = examine(store.raw(id) or b"", record.requested_dialect)
        store.processing.stage(id, STORING)
        with collector_paused:  # see viewer/model/collector.py
            stored = store.processing.finish(id, analysis.shared, STORED_VERSION, original=analysis.original,
                                             secret_kinds=analysis.secret_kinds, index_search=False)
            return stored and store.processing.index(id, analysis.shared)
    except Exception as error:  # noqa: BLE001 - recorded on the upload, whose page says so
        log.exception("processing upload %s failed", id)
        store.processing.fail(id, f"{type(error).__name__}: the parse could not be stored.")
        return False

