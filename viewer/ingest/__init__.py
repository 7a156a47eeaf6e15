"""Uploaded bytes to what the store keeps, and stored transcripts parsed again: the pipeline's conductor.

Parsing happens here and only here for the web app: at upload, for the samples, and when a transcript stored
by another `STORED_VERSION` is parsed again, either deliberately (`viewer reparse`) or lazily on its first
open, after claiming it so that concurrent opens parse it once.
"""
from __future__ import annotations

import logging
import tempfile
from contextlib import contextmanager
from typing import BinaryIO, Iterator

from viewer.ingest.images import PayloadBytes, file_payloads, store_analysis_images
from viewer.ingest.masking import Analysis, mask_secrets
from viewer.model import Transcript
from viewer.model.diagnostics import make_diagnostic
from viewer.formats import NAMES as DIALECTS
from viewer.parse import PARSER_VERSION, parse
from viewer.model.collector import collector_paused
from viewer.parse.decode import decode, decode_file
from viewer.parse.thinning import Thinned, thin
from viewer.policy import POLICY_VERSION, Projection
from viewer.store import Record, Store, live

DIALECT_CHOICES = ("auto", *DIALECTS)
SECRETS_VERSION = "2"
"""Raised when the scanner or the masking changes what link holders read."""
STORED_VERSION = f"{PARSER_VERSION}+policy-{POLICY_VERSION}+secrets-{SECRETS_VERSION}"
"""What a stored parse was made by: the parser's version, the policy's and the masking's, since rows keep the
parse, each message's default-view decision and the secrets masked. A transcript stored by another is parsed
again."""

log = logging.getLogger(__name__)


def analyse(raw: str | bytes | Thinned, dialect: str = "auto") -> Projection:
    """Parse and apply the policy. Never raises on user input: a parser bug becomes a diagnostic. A thinned
    session (viewer/parse/thinning.py) is read as it was thinned."""
    try:
        with collector_paused:  # the policy's decisions too: see viewer/model/collector.py
            return Projection.of(raw.parse() if isinstance(raw, Thinned) else parse(raw, dialect))
    except Exception as error:  # noqa: BLE001 - an upload must not fail because the parser has a bug
        log.exception("parser failed on an upload")
        return Projection(_unparsed(raw, dialect, error), ())


def examine(raw: str | bytes | Thinned, dialect: str = "auto") -> Analysis:
    """Parse, apply the policy, scan for secrets and mask them for link holders."""
    return mask_secrets(analyse(raw, dialect))


def _unparsed(raw: str | bytes | Thinned, dialect: str, error: Exception) -> Transcript:
    text, _ = decode(raw.text if isinstance(raw, Thinned) else raw)
    failure = make_diagnostic("W-PARSER-FAILED", (0, len(text)),
                              f"The parser failed on this input ({type(error).__name__}); "
                              "the raw text is kept and nothing is shown.")
    return Transcript(dialect=dialect if dialect in DIALECTS else "unknown", source=text, diagnostics=(failure,),
                      cuts=raw.cuts if isinstance(raw, Thinned) else None)


def store_upload(store: Store, raw: bytes, *, id: str, requested_dialect: str = "auto", **fields) -> Record:
    """Parse an upload and store it with its parse in one transaction."""
    return _stored(store, raw, examine(raw, requested_dialect), id=id, requested_dialect=requested_dialect,
                   **fields)


def store_spooled(store: Store, spool: BinaryIO, *, id: str, live: bool = False, requested_dialect: str = "auto",
                  **fields) -> Record:
    """Store an upload read from its spool file (a live one stays open for appends). The raw bytes are stored
    from the spool a chunk at a time, after the parse, which no longer needs them."""
    if live:
        return store_live_upload(store, spool.read(), id=id, requested_dialect=requested_dialect, **fields)
    stored = store_streamed(store, spool, id=id, requested_dialect=requested_dialect, **fields)
    if stored is not None:  # a big JSON Lines dataset, read and stored a piece at a time
        return stored
    analysis = examine(contents(spool, requested_dialect), requested_dialect)
    spool.seek(0)
    return _stored(store, spool, analysis, payloads=file_payloads(spool), id=id, requested_dialect=requested_dialect,
                   **fields)


def contents(spool: BinaryIO, dialect: str = "auto") -> str | bytes | Thinned:
    """What is parsed of a spooled upload: a big agent session thinned (its image payloads cut out, read a line
    at a time: viewer/parse/thinning.py); else its text when it decodes cleanly (the bytes are not held
    meanwhile), else its bytes, whose defects the parse reports."""
    thinned = thin(spool, dialect)
    if thinned is not None:
        return thinned
    text = decode_file(spool)
    if text is not None:
        return text
    spool.seek(0)
    return spool.read()


@contextmanager
def raw_spool(store: Store, id: str) -> Iterator[BinaryIO]:
    """A stored upload's raw bytes copied to a temporary file a chunk at a time (never joined in memory), at its
    start."""
    with tempfile.TemporaryFile() as spool:
        for chunk in store.raw_stream(id) or ():
            spool.write(chunk)
        spool.seek(0)
        yield spool


def _stored(store: Store, raw: bytes | BinaryIO, analysis: Analysis, *, id: str, requested_dialect: str,
            payloads: PayloadBytes | None = None, **fields) -> Record:
    store_analysis_images(store, analysis, payloads)
    with collector_paused:  # the rows are made from objects that all live on; see viewer/model/collector.py
        return store.add(raw, analysis.shared, STORED_VERSION, id=id, requested_dialect=requested_dialect,
                         original=analysis.original, secret_kinds=analysis.secret_kinds, **fields)


def store_sample(store: Store, raw: bytes, *, id: str, name: str) -> bool:
    """Store a sample under its stable id unless the same bytes are already there. True if stored."""
    if store.has_same_bytes(id, raw):
        return False
    analysis = examine(raw)
    store_analysis_images(store, analysis)
    with collector_paused:
        return store.replace_sample(raw, analysis.shared, STORED_VERSION, id=id, name=name,
                                    original=analysis.original, secret_kinds=analysis.secret_kinds)


def current(store: Store, record: Record) -> Record:
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
        return store.get(record.id)
    if record.live != live.OPEN:  # from a copy of its raw bytes: a big session is thinned from it
        with raw_spool(store, record.id) as spool:
            analysis = examine(contents(spool, record.requested_dialect), record.requested_dialect)
            store_analysis_images(store, analysis, file_payloads(spool))
        with collector_paused:
            store.replace_parse(record.id, analysis.shared, STORED_VERSION, original=analysis.original,
                                secret_kinds=analysis.secret_kinds)
        return store.get(record.id)
    raw = store.raw(record.id) or b""
    analysis = examine(raw, record.requested_dialect)
    store_analysis_images(store, analysis)
    with collector_paused:
        store.replace_parse(record.id, analysis.shared, STORED_VERSION, original=analysis.original,
                            secret_kinds=analysis.secret_kinds)
        if record.live == live.OPEN:  # its tail starts where this parse says, which another parser may not
            store.live.set_tail(record.id, next_tail(raw, analysis, chunks=0))
    return store.get(record.id)


def reparse_stale(store: Store, *, everything: bool = False) -> int:
    """Parse again every transcript stored by another parser version (or every one); returns how many."""
    count = 0
    for id in store.ids(stale_for=None if everything else STORED_VERSION):
        record = store.get(id)
        if record is not None and not record.deleted and record.ready:  # a worker processes the others
            reparse(store, record)
            count += 1
    return count


# Live uploads (viewer/ingest/appending.py) and big datasets (streaming.py) build on the names above: imported
# last, so that they can import them.
from viewer.ingest.appending import CannotBeLive, NotLive, append, next_tail, store_live_upload  # noqa: E402
from viewer.ingest.streaming import reparse_streamed, store_streamed, streams  # noqa: E402
# Uploads answered first, processed after (viewer/ingest/deferred.py): the same examine, then the store.
from viewer.ingest.deferred import Upload, accept, process  # noqa: E402

__all__ = ["DIALECT_CHOICES", "STORED_VERSION", "Analysis", "CannotBeLive", "NotLive", "Upload", "accept", "analyse",
           "append", "contents", "current", "examine", "process", "mask_secrets", "reparse", "reparse_stale",
           "store_live_upload", "store_sample", "store_spooled", "store_streamed", "store_upload", "streams"]
