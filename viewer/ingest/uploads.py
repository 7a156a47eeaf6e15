"""Uploads stored as they arrive: bytes, or a spool file that a big dataset is read from a piece at a time and a
live upload stays open after."""
from __future__ import annotations

from typing import BinaryIO

from viewer.ingest.appending import store_live_upload
from viewer.ingest.core import contents, examine, store_examined
from viewer.ingest.images import file_payloads
from viewer.ingest.streaming import store_streamed
from viewer.store import Record, Store


def store_upload(store: Store, raw: bytes, *, id: str, requested_dialect: str = "auto", **fields) -> Record:
    """Parse an upload and store it with its parse in one transaction."""
    return store_examined(store, raw, examine(raw, requested_dialect, store.personal.choices(id)), id=id,
                          requested_dialect=requested_dialect, **fields)


def store_spooled(store: Store, spool: BinaryIO, *, id: str, live: bool = False, requested_dialect: str = "auto",
                  **fields) -> Record:
    """Store an upload read from its spool file (a live one stays open for appends). The raw bytes are stored
    from the spool a chunk at a time, after the parse, which no longer needs them."""
    if live:
        return store_live_upload(store, spool.read(), id=id, requested_dialect=requested_dialect, **fields)
    stored = store_streamed(store, spool, id=id, requested_dialect=requested_dialect, **fields)
    if stored is not None:  # a big JSON Lines dataset, read and stored a piece at a time
        return stored
    examined = examine(contents(spool, requested_dialect), requested_dialect, store.personal.choices(id))
    spool.seek(0)
    return store_examined(store, spool, examined, payloads=file_payloads(spool), id=id,
                          requested_dialect=requested_dialect, **fields)
