"""The format registry: every format the viewer reads, one record each (registry.py, of the types in kinds.py),
and the questions the other stages ask it. A leaf: it imports nothing else of the viewer, and names code rather
than importing it (`load` imports what a name names, once)."""
from __future__ import annotations

import functools
import importlib
from typing import Any

from viewer.formats.kinds import (
    AnyJson, AnyText, Detection, Dialect, JsonKeys, JsonLines, JsonShape, Level, Line, Members, Opens, Pairing, Preambles,
    Prompt, Reference, SessionFiles, Threads, Tokens, Writer, YamlHeader)
from viewer.formats.registry import DIALECTS, JSON_SHAPES

NAMES: tuple[str, ...] = tuple(dialect.name for dialect in DIALECTS)
"""The dialect names, in the order a person is offered them."""
_BY_NAME = {dialect.name: dialect for dialect in DIALECTS}


class UnknownDialect(ValueError):
    """A name that is no dialect's."""

    def __init__(self, name: str) -> None:
        super().__init__(f"unknown dialect {name!r}; choose one of auto, {', '.join(NAMES)}")


def dialect(name: str) -> Dialect:
    """The record of the dialect so named (UnknownDialect for any other name)."""
    found = _BY_NAME.get(name)
    if found is None:
        raise UnknownDialect(name)
    return found


def find(name: str) -> Dialect | None:
    """The record of the dialect so named, or None (a transcript stored as `unknown`, say)."""
    return _BY_NAME.get(name)


def source_lexer(name: str) -> str | None:
    """The Pygments lexer of a message's exact source in a transcript read as the dialect so named."""
    record = _BY_NAME.get(name)
    return record.source_lexer if record is not None else None


def agents() -> tuple[Dialect, ...]:
    """The dialects that are an agent's session logs."""
    return tuple(dialect for dialect in DIALECTS if dialect.session is not None)


def reads_bundles(dialect: Dialect) -> bool:
    """Whether the dialect's reader reads a bundle of files itself (its record detects one by its members)."""
    return any(isinstance(way, Members) for way in dialect.detection)


def writers() -> tuple[Writer, ...]:
    """Every format a transcript can be written in, in the registry's order."""
    return tuple(dialect.writer for dialect in DIALECTS if dialect.writer is not None)


def detected_by(kind: type) -> tuple[tuple[Dialect, Any], ...]:
    """The dialects that have a way of being detected of this kind, each with that way: the higher priority
    first, then in the registry's order."""
    found = [(dialect, way) for dialect in DIALECTS for way in dialect.detection if isinstance(way, kind)]
    return tuple(sorted(found, key=lambda pair: -pair[0].priority))


def readers_at(level: Level) -> tuple[tuple[JsonShape, Reference], ...]:
    """The JSON shapes read at a level, each with its module there, in the order they are tried."""
    return tuple((shape, shape.readers[level]) for shape in JSON_SHAPES if level in shape.readers)


@functools.cache
def load(reference: Reference) -> Any:
    """What a reference names: `module:attribute`, or a module."""
    module, _, attribute = reference.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attribute) if attribute else loaded


__all__ = ["DIALECTS", "JSON_SHAPES", "NAMES", "AnyJson", "AnyText", "Detection", "Dialect", "JsonKeys",
           "JsonLines", "JsonShape", "Level", "Line", "Members", "Opens", "Pairing", "Preambles", "Prompt", "Reference", "SessionFiles",
           "Threads", "Tokens", "UnknownDialect", "Writer", "YamlHeader", "agents", "detected_by", "dialect", "find",
           "load", "readers_at", "reads_bundles", "source_lexer", "writers"]
