"""Pasted images inside an exported HTML file: each drawn image is its thumbnail, cleaned of metadata as the
store keeps it, written as a `data:` URL (the file loads nothing and links nothing remote), up to a cap on the
bytes embedded so that a session of a thousand screenshots stays a file one can open; past it, images are
named by a note instead. Which images are drawn is the cards' decision (only those of messages the view shows),
and the store's `served` answers an image only through a message of the view that holds it.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Callable, Protocol

MAX_EMBEDDED_BYTES = 16 * 1024 * 1024
"""The most image bytes (as base64, as they stand in the file) one exported file holds."""


class Thumbnail(Protocol):
    type: str
    data: bytes


@dataclass
class Embedder:
    """The images of one exported file, as `data:` URLs, counted against its cap (a dataset's conversations
    share it)."""

    cap: int = MAX_EMBEDDED_BYTES
    embedded: int = 0
    """How many images were written."""
    written: int = 0
    """Bytes of them in the file."""
    over_cap: int = 0
    """How many were not written because the cap was reached."""

    def for_document(self, thumbnail: Callable[[str], Thumbnail | None]) -> Callable[[str], str | None]:
        """Image `sha256` of one transcript (whose view shows it: `thumbnail` gives it, or None) as a `data:`
        URL, or None when it is not embedded."""
        urls: dict[str, str | None] = {}

        def data_url(sha256: str) -> str | None:
            if sha256 not in urls:  # a screenshot pasted twice is read and encoded once
                urls[sha256] = _encode(thumbnail(sha256))
            return self._count(urls[sha256])
        return data_url

    def _count(self, url: str | None) -> str | None:
        if url is None:
            return None
        if self.written + len(url) > self.cap:
            self.over_cap += 1
            return None
        self.embedded += 1
        self.written += len(url)
        return url

    def summary(self) -> str | None:
        """What the file says of its images, once written; None when it drew none."""
        if not (self.embedded or self.over_cap):
            return None
        one = self.embedded == 1
        said = (f"{self.embedded:,} {'image' if one else 'images'} embedded as {'a thumbnail' if one else 'thumbnails'}"
                f" ({_size(self.written)} of this file)")
        if self.over_cap:
            said += (f"; {self.over_cap:,} not embedded, past this file's limit of {_size(self.cap)} of images: "
                     "the transcript's page shows them")
        return said + "."


def _encode(found: Thumbnail | None) -> str | None:
    if found is None or not found.type.startswith("image/"):
        return None
    return f"data:{found.type};base64,{base64.b64encode(found.data).decode('ascii')}"


def _size(count: int) -> str:
    if count >= 100_000:
        return f"{count / 1e6:,.1f} MB"
    return f"{count / 1e3:,.0f} kB" if count >= 1_000 else f"{count:,} bytes"
