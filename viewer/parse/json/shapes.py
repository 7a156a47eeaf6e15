"""The JSON shapes of the format registry (viewer/formats/registry.py: `JSON_SHAPES`), tried level by level in
the registry's order. Each shape names, per level where it stands, the module that recognises and reads it
there; a module provides, by level:

- `file`: `read_file(text, unpacked) -> Transcript | None`, a whole upload (it may make a dataset).
- `fast record`: `FIRST_KEYS` (what its records start with) and `read_record(text, span) -> Transcript | None`,
  a dataset's record read straight from its text, exactly as the general reading reads it.
- `document`: `read_document(unpacked, builder)`: the header of a document it read into the builder, or an
  `Unpacked` to read in its place (the conversation inside it), or None when it is not the shape's.
- `record`: `is_record(value)`, `reading(node, text, inner) -> Unpacked` (`inner` reads a conversation nested
  in the record: a batch line's request) and, when its records stand one per line in datasets,
  `in_datasets(value)`.
- `stream`: `starts(first) -> bool` (the first element of a list is a chunk of its streamed answer) and
  `streamed(unpacked) -> Unpacked` (the chunks merged, one element per answer or choice).
- `element`: `is_element(value)`, `read_element(source, builder) -> list[Draft]` and `claimed(value)`, the
  members it reads or knowingly leaves in the source (ids, type tags: `in` is asked of it), so that what it
  does not read is kept (JsonObject.account); a framework's message that stands for a plain chat message also has
  `plain_view(value)` and `view_spans(text, start, value)`.

The modules are loaded when first asked for: this module imports none of them.
"""
from __future__ import annotations

import functools
import re
from types import ModuleType
from typing import Any

from viewer import formats
from viewer.formats import Level
from viewer.model import Span, Transcript
from viewer.parse.json.positions import Node
from viewer.parse.json.unpacked import InnerReader, Unpacked, list_key


@functools.cache
def at(level: Level) -> tuple[ModuleType, ...]:
    """The modules of the shapes read at a level, in the order they are tried."""
    return tuple(formats.load(reference) for _, reference in formats.readers_at(level))


def read_file(text: str, unpacked: Unpacked) -> Transcript | None:
    for module in at(Level.FILE):
        found = module.read_file(text, unpacked)
        if found is not None:
            return found
    return None


def read_fast_record(text: str, span: Span) -> Transcript | None:
    """A dataset's record whose first key a fast reader knows, read the fast way; None: read it the general way."""
    if not _fast_start().match(text, span[0]):
        return None
    for module in at(Level.FAST_RECORD):
        found = module.read_record(text, span)
        if found is not None:
            return found
    return None


@functools.cache
def _fast_start() -> re.Pattern[str]:
    """The first key of a record that a fast reader may read."""
    keys = sorted({key for module in at(Level.FAST_RECORD) for key in module.FIRST_KEYS})
    return re.compile(r'\{[ \t\n\r]*"(?:%s)"' % "|".join(map(re.escape, keys)))


def read_document(unpacked: Unpacked, builder: Any) -> dict[str, Any] | Unpacked | None:
    for module in at(Level.DOCUMENT):
        found = module.read_document(unpacked, builder)
        if found is not None:
            return found
    return None


def record(node: Node, text: str, inner: InnerReader) -> Unpacked | None:
    """The record's conversation, by the first shape that knows it; None when the object is no record."""
    for module in at(Level.RECORD):
        if module.is_record(node.value):
            return module.reading(node, text, inner)
    return None


def is_record(value: Any) -> bool:
    """Whether a record shape claims a value."""
    return any(module.is_record(value) for module in at(Level.RECORD))


def in_datasets(value: Any) -> bool:
    """Whether a value is one whole conversation of a dataset in one of the record shapes."""
    return isinstance(value, dict) and any(module.in_datasets(value) for module in _dataset_records())


@functools.cache
def _dataset_records() -> tuple[ModuleType, ...]:
    return tuple(module for module in at(Level.RECORD) if hasattr(module, "in_datasets"))


def is_conversation(value: Any) -> bool:
    """Whether a value is one whole conversation: a record, or an envelope around a list of messages."""
    return isinstance(value, dict) and (list_key(value) is not None or in_datasets(value))


def streamed(unpacked: Unpacked) -> Unpacked:
    """JSON Lines (or a list, or server-sent events) as read, with the chunks of streamed answers made one element
    per answer, or per choice; the first element says which shape's."""
    first = unpacked.elements[0].value if unpacked.elements else None
    for module in at(Level.STREAM):
        if module.starts(first):
            return module.streamed(unpacked)
    return unpacked


def element_reader(value: dict[str, Any]) -> ModuleType:
    """The module that reads this element: the first whose marks it has (the last takes any element)."""
    return next(module for module in at(Level.ELEMENT) if module.is_element(value))


def read_element(source: Any, builder: Any) -> list[Any]:
    """The element's messages by the module of its shape, which then accounts for its members: what it does not
    claim (`claimed(value)`: the keys it read, or knowingly left in the source) is kept raw (JsonObject.account)."""
    module = element_reader(source.value)
    found = module.read_element(source, builder)
    source.account(module.claimed(source.value))
    return found


def plain_view(value: dict[str, Any]) -> dict[str, Any] | None:
    """The plain chat message a framework's element stands for (None when it has more to say); any other element
    is its own plain view."""
    for module in _viewed():
        if module.is_element(value):
            return module.plain_view(value)
    return value


def view_spans(text: str, start: int, value: dict[str, Any]) -> dict[Any, Span] | None:
    """The spans of a framework's element's members, under the names of its plain view."""
    for module in _viewed():
        if module.is_element(value):
            return module.view_spans(text, start, value)
    return None


@functools.cache
def _viewed() -> tuple[ModuleType, ...]:
    """The element shapes that stand for plain chat messages."""
    return tuple(module for module in at(Level.ELEMENT) if hasattr(module, "plain_view"))
