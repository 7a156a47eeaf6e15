"""What the card macros (templates/_entries.html) link to, handed to them as `links`: on a page, the server's
URLs of this reader's view (viewer/web/lookup.py's `PageLinks`); in an exported file, anchors inside the file
(`FileLinks`). The macros never build a URL themselves, so one drawing serves both."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from markupsafe import Markup

from viewer.model.words import View


class Links(Protocol):
    interactive: bool
    """Whether the drawing may offer controls that need the server or the page's script (copy, collapse,
    "what the model saw", a long body fetched on demand)."""
    hx_disable: Markup
    """The attribute that keeps htmx from reading markup inside a transcript's text (nothing in a file)."""
    shows_images: bool
    """Whether pasted images are drawn as thumbnails (`media_url`), or named by their placeholders alone."""

    def anchor_id(self, index: int) -> str:
        """The element id of message `index`."""

    def place(self, index: int, view: View) -> str:
        """Where message `index` is shown in `view`."""

    def message_url(self, index: int, view: View, part: str | None = None) -> str:
        """Where the whole body (or `part="source"`) of a collapsed long message is fetched from."""

    def context_url(self, index: int) -> str:
        """The page of what the model saw when it sampled message `index`."""

    def media_url(self, sha256: str, view: View, size: str | None = None) -> str | None:
        """Where image `sha256` of this transcript is served in `view` (`size="thumb"`: its thumbnail); None
        where there is none (a file holds thumbnails alone, and those up to its cap)."""


@dataclass(frozen=True, slots=True)
class FileLinks:
    """Links inside one exported file: each message is an anchor, those of a dataset's conversation prefixed
    with its section's (`c2-m-5`); nothing is collapsed and nothing needs a server."""

    prefix: str = ""
    images: Callable[[str], str | None] | None = None
    """A shown image's thumbnail as a `data:` URL (viewer/present/embedded.py), None past the file's cap; without
    it (a file made from a parse, with no store of images) images are named by their placeholders alone."""
    interactive = False
    hx_disable = Markup("")

    @property
    def shows_images(self) -> bool:
        return self.images is not None

    def anchor_id(self, index: int) -> str:
        return f"{self.prefix}m-{index}"

    def place(self, index: int, view: View) -> str:
        return f"#{self.anchor_id(index)}"

    def message_url(self, index: int, view: View, part: str | None = None) -> str:
        raise ValueError("an exported file shows every body whole")

    def context_url(self, index: int) -> str:
        raise ValueError("an exported file has no server to show what the model saw")

    def switch(self, index: int, role: str) -> None:
        """An exported file draws no branch switcher: it has no server to choose a branch."""
        return None

    def versions(self, index: int, role: str, previous: int | None) -> list:
        """Nor the default view's version switchers."""
        return []

    def media_url(self, sha256: str, view: View, size: str | None = None) -> str | None:
        """The thumbnail inside the file; no full size (the file would hold each image twice)."""
        if self.images is None:
            raise ValueError("this file shows images by their placeholders")
        return self.images(sha256) if size == "thumb" else None
