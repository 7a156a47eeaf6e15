"""Uploads stored as they arrive: bytes, or a spool file that a big dataset is read from a piece at a time and a
live upload stays open after."""
from __future__ import annotations

import os
import socket
from typing import BinaryIO, cast

from viewer.ingest import sessions
from viewer.ingest.appending import store_live_upload
from viewer.ingest.core import contents, examine, store_examined
from viewer.ingest.deferred import Interrupted, accept, process
from viewer.ingest.images import file_payloads
from viewer.ingest.streaming import store_streamed
from viewer.store import Record, Store


REQUEST_WORKER = f"{socket.gethostname()}:{os.getpid()}:request"
"""Who holds a big session stored in its request (as the processor names itself: a process that stops leaves
it to be taken over)."""


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
    if sessions.streams(spool, requested_dialect) is not None:  # a big agent session: a piece at a time too
        accept(store, spool, id=id, worker=REQUEST_WORKER, requested_dialect=requested_dialect, **fields)
        spool.seek(0)
        try:
            process(store, id, spool=spool, worker=REQUEST_WORKER)
        except Interrupted as interrupted:  # a storage fault: answered as one (viewer/store/faults.py)
            raise interrupted.__cause__ or interrupted
        return cast(Record, store.get(id))
    examined = examine(contents(spool, requested_dialect), requested_dialect, store.personal.choices(id))
    spool.seek(0)
    return store_examined(store, spool, examined, payloads=file_payloads(spool), id=id,
                          requested_dialect=requested_dialect, **fields)
