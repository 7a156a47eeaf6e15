"""Big JSON Lines datasets read and stored a piece at a time, so that memory follows the piece, not the file.

A dataset's conversations are independent (`parse` reads each line on its own, checks and pairs within it), so
a piece of whole lines parses to exactly the conversations the whole file gives for those lines, with spans into
the piece; the store moves them to the file's offsets and lines (viewer/store/streamed.py). Everything else, and
a dataset this path cannot take (not clean UTF-8, a byte-order mark, a secret found: masking rewrites the text
link holders read, which is made whole), is parsed whole: `store_streamed` answers None and stores nothing.
"""
from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from typing import BinaryIO, Iterator

from viewer.ingest.core import STORED_VERSION
from viewer.ingest.images import source_reader, store_images
from viewer.ingest.masking import mask_secrets
from viewer.model.collector import collector_paused
from viewer.parse import is_json_lines_dataset, parse_dataset_lines
from viewer.parse.decode import BOM
from viewer.policy import Projection
from viewer.store import Record, Store
from viewer.store.processing import STORING
from viewer.store.streamed import Batch

STREAM_FROM = 16 << 20
"""Uploads at least this big are read a piece at a time when they can be; smaller ones are parsed whole."""
PIECE_BYTES = 4 << 20
"""Bytes read per piece (then on to the end of the line): a piece's parse and rows take about 20 times this."""
HEAD_BYTES = 65536
"""What the dialect is detected from (the parser's detection reads as much), then on to the end of its line."""

log = logging.getLogger(__name__)


class NotStreamable(Exception):
    """The upload turned out not to be one this path stores (found partway: what was stored is rolled back)."""


@dataclass(frozen=True, slots=True)
class WholeLines:
    """Whole lines of the upload's text and where they start in it."""

    text: str
    chars: int
    lines: int


def store_streamed(store: Store, spool: BinaryIO, *, id: str, requested_dialect: str = "auto",
                   **fields) -> Record | None:
    """Store a big JSON Lines dataset from its spool file a piece at a time; None (nothing stored, the spool at
    its start) when it is not one this path can take."""
    if requested_dialect not in ("auto", "json") or _size(spool) < STREAM_FROM:
        return None
    try:
        if not is_json_lines_dataset(_head(spool)):
            return None
        stored = store.add_streamed(spool, _batches(store, id, _pieces(spool)), STORED_VERSION, id=id,
                                    requested_dialect=requested_dialect, **fields)
        store.personal.keep_findings(id, ())  # none: any would have taken it whole
        return stored
    except NotStreamable as reason:
        log.info("upload %s parsed whole: %s", id, reason)
        return None
    finally:
        spool.seek(0)


def streams(spool: BinaryIO, requested_dialect: str = "auto") -> bool:
    """Whether `store_streamed` would take this upload (a big JSON Lines dataset); the spool is left at its
    start. Such an upload answered first is processed from its stored bytes (`process_streamed`), never held
    whole for a processing thread."""
    if requested_dialect not in ("auto", "json") or _size(spool) < STREAM_FROM:
        return False
    try:
        return is_json_lines_dataset(_head(spool))
    except NotStreamable:
        return False
    finally:
        spool.seek(0)


def process_streamed(store: Store, id: str, spool: BinaryIO, requested_dialect: str = "auto", *,
                     worker: str | None = None) -> bool | None:
    """Store upload `id`, answered before it was processed (viewer/ingest/deferred.py), from a spool of its
    stored bytes a piece at a time when it is a big JSON Lines dataset: True when stored, False when it is no
    longer being processed; None (nothing stored, the spool at its start) when this path cannot take it."""
    try:
        if not streams(spool, requested_dialect):
            return None
        store.processing.stage(id, STORING, worker=worker)
        done = store.processing.finish_streamed(id, _batches(store, id, _pieces(spool)), STORED_VERSION,
                                                worker=worker)
        store.personal.keep_findings(id, ())  # none: any would have taken it whole
        return done
    except NotStreamable as reason:
        log.info("upload %s processed whole: %s", id, reason)
        return None
    finally:
        spool.seek(0)


def reparse_streamed(store: Store, record: Record) -> bool:
    """Parse a big stored JSON Lines dataset again a piece at a time, its raw bytes copied to a spool file a chunk
    at a time; False (nothing changed) when it is not one this path can take."""
    if record.conversation_count is None or record.size < STREAM_FROM:
        return False
    with tempfile.TemporaryFile() as spool:
        for chunk in store.raw_stream(record.id) or ():
            spool.write(chunk)
        try:
            if record.requested_dialect not in ("auto", "json") or not is_json_lines_dataset(_head(spool)):
                return False
            store.replace_streamed(record.id, _batches(store, record.id, _pieces(spool)), STORED_VERSION)
            store.personal.keep_findings(record.id, ())  # none: any would have taken it whole
        except NotStreamable as reason:
            log.info("transcript %s parsed again whole: %s", record.id, reason)
            return False
    return True


def _size(spool: BinaryIO) -> int:
    size = spool.seek(0, 2)
    spool.seek(0)
    return size


def _head(spool: BinaryIO) -> str:
    """The spool's first lines, as many as `parse` reads to decide the dialect and whether it is a dataset."""
    spool.seek(0)
    data = spool.read(HEAD_BYTES)
    data += spool.readline()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotStreamable("not clean UTF-8") from None


def _pieces(spool: BinaryIO) -> Iterator[WholeLines]:
    """The spool's text in pieces of whole lines, each decoded alone (a piece ends at a line break, so no
    character is cut)."""
    spool.seek(0)
    chars = lines = 0
    while data := spool.read(PIECE_BYTES):
        if not data.endswith(b"\n"):
            data += spool.readline()  # on to the end of the line, however long
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise NotStreamable("not clean UTF-8 (decode reports and replaces the bytes in the whole text)") from None
        if chars == 0 and text.startswith(BOM):
            raise NotStreamable("a byte-order mark (offsets count from after it in the whole text)")
        yield WholeLines(text, chars, lines)
        chars += len(text)
        lines += data.count(b"\n")


def _batches(store: Store, id: str, pieces: Iterator[WholeLines]) -> Iterator[Batch]:
    """Each piece parsed, its policy applied and scanned for secrets and personal data, its images stored before
    its rows name them (as the whole path does: viewer/ingest/images.py). A redaction, or any personal data
    found (masked or not: the manage page lists each, with the places of its whole parse), takes the upload
    whole."""
    choices = store.personal.choices(id)
    if choices.redactions:
        raise NotStreamable("redactions (a message is named by its place in the whole file)")
    for piece in pieces:
        with collector_paused:
            try:
                projection = Projection.of(parse_dataset_lines(piece.text))
            except Exception as error:  # noqa: BLE001 - the whole parse reports a parser bug as a diagnostic
                raise NotStreamable(f"the parser failed ({type(error).__name__})") from error
            if not projection.conversations:  # blank lines alone
                continue
            examined = mask_secrets(projection, choices)
            if examined.original is not None or examined.personal:
                raise NotStreamable("a secret or personal data to mask, or a scan that failed")
        store_images(store, projection.transcript, source_reader(projection.transcript))
        yield Batch(projection, piece.chars, piece.lines)


__all__ = ["NotStreamable", "PIECE_BYTES", "STREAM_FROM", "process_streamed", "reparse_streamed", "store_streamed",
           "streams"]
