"""The exports by name (as `?format` words, file extensions and `viewer render --format`): each one's writer,
media type and extension, and a safe file name for a download. (A transcript's formats are viewer/formats.)"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator

from viewer.model.words import DEBUG, View
from viewer.present import json_twin
from viewer.present.document import Document
from viewer.present.html import html
from viewer.present.markdown import markdown


@dataclass(frozen=True, slots=True)
class Export:
    write: Callable[[Document], Iterator[str]]
    mimetype: str
    extension: str


EXPORTS = {"html": Export(html, "text/html", "html"), "md": Export(markdown, "text/markdown", "md"),
           "json": Export(json_twin.stream, "application/json", "json")}

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(name: str | None, fallback: str, view: View, extension: str, conversation: int | None = None) -> str:
    """A download's name: the upload's name without its folder or extension, in letters, digits, `.`, `_` and
    `-` only (it becomes a header value, and a file name on any system), then the conversation and the view."""
    stem = _UNSAFE.sub("-", (name or "").replace("\\", "/").rsplit("/", 1)[-1].rsplit(".", 1)[0]).strip(".-")
    parts = [stem[:100] or fallback]
    if conversation is not None:
        parts.append(f"conversation-{conversation}")
    if view == DEBUG:
        parts.append(DEBUG)
    return "-".join(parts) + "." + extension
