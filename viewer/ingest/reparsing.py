"""Stored transcripts parsed again: deliberately (`viewer reparse`), or lazily when a reader opens one stored by
another `STORED_VERSION`, after claiming it so that concurrent readers parse it once."""
from __future__ import annotations

from typing import cast

from viewer.ingest.appending import next_tail
from viewer.ingest.core import STORED_VERSION, contents, examine, keep_findings, raw_spool
from viewer.ingest.images import file_payloads, store_examined_images
from viewer.ingest.streaming import reparse_streamed
from viewer.model.collector import collector_paused
from viewer.store import Record, Store, live


def up_to_date(store: Store, record: Record) -> Record:
    """The record with a parse by this `STORED_VERSION`: parsed again here if it was stored by another one and
    this caller wins the claim; otherwise (another reader is parsing it now) the stored parse as it is."""
    if record.parser_version == STORED_VERSION or record.deleted:
        return record
    if not store.claim_reparse(record.id, record.parser_version):
        return record
    return reparse(store, record)


def reparse(store: Store, record: Record) -> Record:
    """Parse a stored transcript's raw bytes again and replace its stored parse (a big dataset a piece at a
    time, viewer/ingest/streaming.py)."""
    if record.live != live.OPEN and reparse_streamed(store, record):
        return cast(Record, store.get(record.id))  # stored a moment ago
    choices = store.personal.choices(record.id)
    if record.live != live.OPEN:  # from a copy of its raw bytes: a big session is thinned from it
        with raw_spool(store, record.id) as spool:
            examined = examine(contents(spool, record.requested_dialect), record.requested_dialect, choices)
            store_examined_images(store, examined, file_payloads(spool))
        with collector_paused:
            store.replace_parse(record.id, examined.shared, STORED_VERSION, original=examined.original,
                                secret_kinds=examined.secret_kinds)
        keep_findings(store, record.id, examined)
        return cast(Record, store.get(record.id))  # stored a moment ago
    raw = store.raw(record.id) or b""
    examined = examine(raw, record.requested_dialect, choices)
    store_examined_images(store, examined)
    with collector_paused:
        store.replace_parse(record.id, examined.shared, STORED_VERSION, original=examined.original,
                            secret_kinds=examined.secret_kinds)
        if record.live == live.OPEN:  # its tail starts where this parse says, which another parser may not
            store.live.set_tail(record.id, next_tail(raw, examined, chunks=0))
    keep_findings(store, record.id, examined)
    return cast(Record, store.get(record.id))  # stored a moment ago


def reparse_stale(store: Store, *, everything: bool = False) -> int:
    """Parse again every transcript stored by another parser version (or every one); returns how many."""
    count = 0
    for id in store.ids(stale_for=None if everything else STORED_VERSION):
        record = store.get(id)
        if record is not None and not record.deleted and record.ready:  # a worker processes the others
            reparse(store, record)
            count += 1
    return count
