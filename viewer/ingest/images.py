"""The images of a parse kept in the store: each one the parse may show and the store lacks is decoded again
from its span of the upload, checked against its hash, re-encoded without metadata (viewer.images) and stored
once. The parse itself carries references only, so an upload's images are never all in memory at once."""
from __future__ import annotations

import hashlib
import logging
from typing import Callable, Iterator

from viewer import images
from viewer.ingest.masking import Analysis
from viewer.model import Media, Span, Transcript
from viewer.parse.inline_media import payload_bytes
from viewer.store import Store

log = logging.getLogger(__name__)

Reader = Callable[[Span], str]
"""The text of a span of the upload (decoded, as the parse's spans count it)."""


def store_analysis_images(store: Store, analysis: Analysis) -> int:
    """An upload's images, before its rows name them: from the parse as written, whose spans are the upload's
    (the masked parse's move where a secret was masked)."""
    written = (analysis.original or analysis.shared).transcript
    return store_images(store, written, source_reader(written))


def store_images(store: Store, transcript: Transcript, read: Reader) -> int:
    """Store each shown image of `transcript` (a dataset's conversations' too) that the store lacks; returns
    how many were stored."""
    wanted = {media.sha256: media for media in _showable(transcript)}
    stored = 0
    for sha256 in sorted(store.media.missing(wanted)):
        media = wanted[sha256]
        data = payload_bytes(read(media.span))
        if data is None or hashlib.sha256(data).hexdigest() != sha256:
            log.error("an image's span does not hold the bytes its parse named; it is not stored")
            continue
        try:
            cleaned = images.clean(data, media.type)
        except Exception:  # noqa: BLE001 - an image Pillow accepted then failed on is not shown, the upload stays
            log.exception("an accepted image could not be re-encoded; it is not stored")
            continue
        store.media.put(sha256, media.type, media.size, cleaned)
        stored += 1
    return stored


def _showable(transcript: Transcript) -> Iterator[Media]:
    for part in transcript.conversations or (transcript,):
        for message in part.messages:
            yield from (media for media in message.media if media.refused is None)


def source_reader(transcript: Transcript) -> Reader:
    """A reader of spans of the upload held whole, as its parse's source."""
    source = transcript.source
    return lambda span: source[span[0]:span[1]]
