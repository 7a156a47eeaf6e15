"""An image re-encoded from its pixels alone, at full size or as a thumbnail: no EXIF (GPS, camera, time), no
comments, text chunks, XMP or ICC profile survive, since a new image is made from the pixels and saved with no
metadata. An animated GIF or WebP keeps its first frame only (simpler, and enough to read a screenshot)."""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

THUMBNAIL_SIDE = 320
"""The longest side of a thumbnail, in pixels."""
_PHOTO = "image/jpeg"


@dataclass(frozen=True, slots=True)
class Cleaned:
    """An image as served: its bytes and exact media type, full size and as a thumbnail."""

    type: str
    """`image/jpeg` for JPEG sources (photos stay small), `image/png` for every other."""
    data: bytes
    width: int
    height: int
    thumbnail: bytes
    thumbnail_width: int
    thumbnail_height: int


def clean(data: bytes, source_type: str) -> Cleaned:
    """`data` (already accepted by `inspect`) decoded and saved again without metadata."""
    from PIL import Image, ImageOps  # here, as in check.py: imported when an image is stored

    with Image.open(io.BytesIO(data)) as opened:
        opened.seek(0)
        upright = ImageOps.exif_transpose(opened)  # turned as the camera meant, before its EXIF is dropped
        pixels = _pixels_only(upright)
    media_type = _PHOTO if source_type == _PHOTO else "image/png"
    small = pixels.resize(thumbnail_size(*pixels.size), Image.Resampling.BICUBIC, reducing_gap=2.0)
    return Cleaned(media_type, _encoded(pixels, media_type), *pixels.size, _encoded(small, media_type), *small.size)


def thumbnail_size(width: int, height: int) -> tuple[int, int]:
    """The size of an image's thumbnail: within `THUMBNAIL_SIDE` on its longer side, proportions kept, never
    enlarged (the cards' `<img>` sizes are computed here too, from the reference alone)."""
    scale = min(1.0, THUMBNAIL_SIDE / max(width, height, 1))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _pixels_only(image: Image.Image) -> Image.Image:
    """A new image holding `image`'s pixels and nothing else: `convert` makes a copy, and its `info` (EXIF,
    ICC profile, comments, text chunks: what the writers would save again) is emptied."""
    mode = "RGBA" if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info else "RGB"
    converted = image.convert(mode)
    converted.info.clear()
    return converted


def _encoded(image: Image.Image, media_type: str) -> bytes:
    out = io.BytesIO()
    if media_type == _PHOTO:
        image.convert("RGB").save(out, "JPEG", quality=88)
    else:
        image.save(out, "PNG", compress_level=1)  # a screenshot's size barely changes, and it is 1.5× faster
    return out.getvalue()
