"""Whether decoded bytes may be shown as an image, and why not: the format by its bytes, no other format inside,
within the size and pixel limits, and whole by its structure as Pillow reads it (header, chunks and their
checksums, end marks), under Pillow's own bomb check. The pixels are decoded once, when the image is first stored
(clean.py): decoding them here too made reading a session of screenshots twenty times slower."""
from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from cachetools import LRUCache

from viewer.images.sniff import RASTER_TYPES, cut_short, foreign_content, sniff

MAX_BYTES = 32 * 1024 * 1024
"""The largest image shown (bytes as uploaded)."""
MAX_PIXELS = 40_000_000
"""The most pixels an image may have: a screenshot of an 8K screen is 33 million; a decompression bomb, however
small its bytes, is refused before Pillow decodes it."""
_FORMATS = {"image/png": "PNG", "image/jpeg": "JPEG", "image/gif": "GIF", "image/webp": "WEBP"}
_VERDICTS: LRUCache = LRUCache(maxsize=4096)
"""Verdicts by SHA-256: an image repeated in a session (or parsed again) is decoded once per process."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the bytes are and whether they are shown."""

    type: str | None
    """The media type their magic bytes say, or None when they say nothing known."""
    width: int | None = None
    height: int | None = None
    refused: str | None = None
    """Why the image is not shown (a short phrase: "an SVG drawing", "over the 32 MiB limit"), or None."""


def inspect(data: bytes, sha256: str) -> Verdict:
    """The verdict on `data` (whose SHA-256 is `sha256`, the cache's key)."""
    verdict = _VERDICTS.get(sha256)
    if verdict is None:
        verdict = _VERDICTS[sha256] = _inspect(data)
    return verdict


def _inspect(data: bytes) -> Verdict:
    media_type = sniff(data)
    if media_type not in RASTER_TYPES:
        what = "an SVG drawing" if media_type == "image/svg+xml" else "not a PNG, JPEG, GIF or WebP image"
        return Verdict(media_type, refused=what)
    if len(data) > MAX_BYTES:
        return Verdict(media_type, refused=f"over the {MAX_BYTES // 2**20} MiB limit")
    if cut_short(data, media_type):
        return Verdict(media_type, refused="cut short (no end mark)")
    foreign = foreign_content(data, media_type)
    if foreign:
        return Verdict(media_type, refused=f"also readable as another format ({foreign})")
    return _decoded(data, media_type)


def _decoded(data: bytes, media_type: str) -> Verdict:
    # Pillow is imported when an image is decoded, not by every parse: it takes longer to import than a small
    # file takes to parse (issue 40).
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=[_FORMATS[media_type]]) as image:
                width, height = image.size
                if width * height > MAX_PIXELS:
                    return Verdict(media_type, width, height,
                                   f"{width:,} × {height:,} pixels, over the limit of {MAX_PIXELS:,}")
                image.verify()  # every chunk and checksum read (PNG), the frame headers (GIF, WebP, JPEG)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return Verdict(media_type, refused=f"more pixels than Pillow's own limit, over the limit of {MAX_PIXELS:,}")
    except (OSError, ValueError, SyntaxError, EOFError, UnidentifiedImageError) as error:
        return Verdict(media_type, refused=f"undecodable ({type(error).__name__})")
    return Verdict(media_type, width, height)
