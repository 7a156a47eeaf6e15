"""The images of a parse kept in the store: each one the parse may show and the store lacks is decoded again
from its span of the upload, checked against its hash, re-encoded without metadata (viewer.images) and stored
once. The parse itself carries references only, so an upload's images are never all in memory at once. A session
parsed from a thin text (viewer/model/cuts.py) has its payloads read back from the upload's bytes by their place in
the file, one image at a time."""
from __future__ import annotations

import hashlib
import logging
from typing import BinaryIO, Callable, Iterator, cast

from viewer import images
from viewer.ingest.masking import Examined
from viewer.model import Media, Span, Transcript
from viewer.model.cuts import STANDIN
from viewer.parse.inline_media import payload_bytes
from viewer.store import Store

log = logging.getLogger(__name__)

Reader = Callable[[Span], str]
"""The text of a span of the upload (decoded, as the parse's spans count it)."""
PayloadBytes = Callable[[int, int], bytes]
"""Bytes `[start, end)` of the upload (where a thin text's payloads are read back from)."""


def store_examined_images(store: Store, examined: Examined, payloads: PayloadBytes | None = None, *,
                          before: int | None = None) -> set[str]:
    """An upload's images, before its rows name them: from the parse as written, whose spans are the upload's
    (the masked parse's move where a secret was masked); a thin parse's payloads from `payloads`. With `before`,
    only the images of the messages before that index (a first page's, stored ahead of the rest). Returns the
    hashes of those stored now."""
    written = (examined.original or examined.shared).transcript
    return store_images(store, written, source_reader(written, payloads), before=before)


def store_images(store: Store, transcript: Transcript, read: Reader, *, before: int | None = None) -> set[str]:
    """Store each shown image of `transcript` (a dataset's conversations' too; with `before`, of its messages
    before that index) that the store lacks; returns the hashes of those stored."""
    wanted = {media.sha256: media for media in _showable(transcript, before)}
    stored: set[str] = set()
    for sha256 in sorted(store.media.missing(wanted)):
        media = wanted[sha256]
        data = payload_bytes(read(media.span))
        if data is None or hashlib.sha256(data).hexdigest() != sha256:
            log.error("an image's span does not hold the bytes its parse named; it is not stored")
            continue
        try:
            cleaned = images.clean(data, cast(str, media.type))  # a shown image has its type
        except Exception:  # noqa: BLE001 - an image Pillow accepted then failed on is not shown, the upload stays
            log.exception("an accepted image could not be re-encoded; it is not stored")
            continue
        store.media.put(sha256, cast(str, media.type), media.size, cleaned)
        stored.add(sha256)
    return stored


def drop_unheld(store: Store, hashes: set[str]) -> None:
    """Delete those of the images just stored (`hashes`) that no message holds, after the rows that were to name
    them could not be stored. Best effort: on a disk still full the delete may fail too, and the store's own
    sweep of old images nothing holds (`MediaBlobs.drop_orphans`) deletes them later."""
    if not hashes:
        return
    try:
        store.media.drop_unheld(hashes)
    except Exception:  # noqa: BLE001 - the failure that brought us here is the one to report
        log.warning("images of an upload that was not stored are left to the sweep", exc_info=True)


def _showable(transcript: Transcript, before: int | None) -> Iterator[Media]:
    for part in transcript.conversations or (transcript,):
        for message in part.messages[:before]:
            yield from (media for media in message.media if media.refused is None)


def source_reader(transcript: Transcript, payloads: PayloadBytes | None = None) -> Reader:
    """A reader of spans of the upload held whole, as its parse's source; or of a thin text, each stand-in read
    as its payload from `payloads`."""
    source, cuts = transcript.source, transcript.cuts
    if cuts is None:
        return lambda span: source[span[0]:span[1]]
    if payloads is None:
        raise ValueError("a thin parse's images are read from the upload's bytes, which were not given")

    def payload(match) -> str:
        cut = cuts.of(match)
        return payloads(cut.at_byte, cut.at_byte + cut.chars).decode("ascii")
    return lambda span: STANDIN.sub(payload, source[span[0]:span[1]])


def file_payloads(file: BinaryIO) -> PayloadBytes:
    """Bytes of the upload read from its spool file, which is left where it stood."""
    def read(start: int, end: int) -> bytes:
        at = file.tell()
        try:
            file.seek(start)
            return file.read(end - start)
        finally:
            file.seek(at)
    return read
