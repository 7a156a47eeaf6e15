"""Guess the dialect of a transcript from its first structural marks, as each format's record says it is told
apart (viewer/formats: its `detection`).

The ways are tried in a fixed order, whatever the format: a bundle of files (viewer/bundles) is the format whose
record names its members' paths, else the format of its first file read as text; a text that opens with a
producer's own first line is that producer's; a JSON text is an export or a document by its keys, else
line-oriented by its first whole object line, else plain JSON; server-sent events carrying JSON are JSON; a
text is OpenChatML 2.x by its YAML header, else the format whose marker token comes first, else the format its
first characters open, else stray text of the catch-all text format.
"""
from __future__ import annotations

import functools
import json
import re

import msgspec

from viewer.bundles import member_paths, read_bundle
from viewer.formats import (AnyJson, AnyText, JsonKeys, JsonLines, Line, Members, Opens, Tokens, YamlHeader, detected_by,
                            load)

_YAML_VERSION = re.compile(r"\A\s*+(?:---[^\S\n]*\n)?(?:#[^\n]*\n|[^\S\n]*\n)*version\s*:", re.MULTILINE)
r"""Blank lines are one line at a time (`[^\S\n]*\n`) and the leading white space is taken whole: with `\s*\n`
inside the repeat, a run of newlines could be split in exponentially many ways (30 newlines: minutes)."""
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode
_VALUE = msgspec.json.Decoder().decode
_SNIFF_LINES = 5
_SSE_START = re.compile(r"(?:data|event|id|retry):|:")
_SSE_DATA = re.compile(r"^data:[ \t]*(\{.*)$", re.MULTILINE)
_SNIFF = 65536
_LONGEST_FIRST_LINE = 64 * 1024 * 1024
"""How far a first line longer than the sniffed head is read to decide (a session line holding a pasted
screenshot is several hundred kilobytes)."""


def detect(text: str) -> str:
    """The name of the dialect the text reads as (one of viewer.formats.NAMES)."""
    paths = member_paths(text)
    if paths is not None:
        return _bundle_kind(text, paths)
    head = text[:_SNIFF].lstrip()
    for dialect, opening in _openings():
        if opening.match(head):
            return dialect
    if head.startswith(("{", "[")) and not head.startswith(_not_json()):
        return _json_kind(head, text)
    if _sse_kind(head) == _only(AnyJson):
        return _only(AnyJson)
    if _YAML_VERSION.match(text[:_SNIFF]):
        return _only(YamlHeader)
    return _token_kind(head)


def _bundle_kind(text: str, paths: list[str]) -> str:
    """The format whose record names the bundle's members (the higher priority first), else the format of the
    first member that reads as one (not as stray text: a README beside a session), else the text catch-all."""
    for dialect, patterns in _member_patterns():
        if all(any(pattern.search(path) for path in paths) for pattern in patterns):
            return dialect
    bundle = read_bundle(text)
    for member in bundle.members if bundle is not None else ():
        if member.readable and not member.is_schema:
            found = detect(text[member.span[0]:min(member.span[1], member.span[0] + _LONGEST_FIRST_LINE)])
            if found != _only(AnyText):
                return found
    return _only(AnyText)


def _json_kind(head: str, text: str) -> str:
    """An export by its keys; JSON Lines by the first of the first few lines that is a whole object (so a broken
    first line does not turn a log into plain JSON), a line longer than the head (an image pasted into it) read
    whole, up to `_LONGEST_FIRST_LINE`; a JSON array is never JSON Lines."""
    for dialect, pattern in _export_keys():
        if all(mark.search(head) for mark in pattern):
            return dialect
    if head.startswith("["):
        return _only(AnyJson)
    lines = head.split("\n", _SNIFF_LINES)[:_SNIFF_LINES]
    if len(lines) == 1 and head.startswith("{"):
        start = len(text) - len(text.lstrip())
        end = text.find("\n", start, start + _LONGEST_FIRST_LINE)
        lines = [text[start:end if end >= 0 else start + _LONGEST_FIRST_LINE]]
    for line in lines:
        # JSON Lines start at the margin; an indented object is part of a pretty-printed document.
        first = _json_object(line) if line.startswith("{") else None
        if first is not None:
            return _line_kind(first)
    return _only(AnyJson)


def _sse_kind(head: str) -> str | None:
    """Server-sent events whose first `data:` line holds a JSON object (a streamed Chat Completion, a Gemini
    stream): the kind of that object; None for any other text. (Line-oriented formats streamed so stay unread
    here.)"""
    if not _SSE_START.match(head):
        return None
    data = _SSE_DATA.search(head)
    first = _json_object(data[1]) if data is not None else None
    return _line_kind(first) if first is not None else None


def _line_kind(first: dict) -> str:
    kind = first.get("type", first.get("event"))
    if isinstance(kind, str):
        for dialect, lines in _line_formats():
            if any(_looks(first, kind, line) for line in lines):
                return dialect
    return _only(AnyJson)


def _looks(first: dict, kind: str, line: Line) -> bool:
    return ((not line.types or kind in line.types)
            and (not line.type_prefixes or kind.startswith(line.type_prefixes))
            and (not line.with_any or any(key in first for key in line.with_any))
            and all(key in first for key in line.with_all)
            and not any(key in first for key in line.without)
            and all(isinstance(first.get(key), dict) for key in line.objects)
            and (line.test is None or load(line.test)(_whole(first))))


def _whole(first: dict) -> dict:
    """The first object with every member decoded (`_json_object` leaves most as msgspec.Raw)."""
    return {key: _VALUE(value) if isinstance(value, msgspec.Raw) else value for key, value in first.items()}


def _token_kind(head: str) -> str:
    """The format whose mark comes first in the text (at one place, the higher priority: Phi-4's pattern over
    ChatML's mark), else the one the text opens with, else the catch-all."""
    placed = [(_first_index(head, tokens), -priority, rank, dialect)
              for rank, (dialect, priority, tokens) in enumerate(_token_formats())]
    first = min(placed)
    if first[0] < len(head):
        return first[3]
    for dialect, _, tokens in _token_formats():
        if tokens.openings and head.startswith(tokens.openings):
            return dialect
    return _only(AnyText)


def _first_index(text: str, tokens: Tokens) -> int:
    found = [at for at in (text.find(mark) for mark in tokens.marks) if at != -1]
    found += [match.start() for match in (pattern.search(text) for pattern in _patterns(tokens)) if match]
    return min(found, default=len(text))


def _json_object(line: str) -> dict | None:
    """The object `json.loads(line)` gives, or None. Only the members whose values the line formats read are
    decoded: the others stay msgspec.Raw, so that a one-line document of many megabytes is checked, not built
    (eight times faster). msgspec refuses wherever it could disagree with `json` (viewer/analysis/jsontext.py):
    then `json.loads` decides."""
    try:
        members = _MEMBERS(line)
        for key in _read_members().intersection(members):
            members[key] = _VALUE(members[key])
        return members
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, json.loads decides
        pass
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


@functools.cache
def _only(kind: type) -> str:
    """The one dialect detected this way (the JSON catch-all, the text catch-all, the YAML header)."""
    (dialect, _), = detected_by(kind)
    return dialect.name


@functools.cache
def _export_keys() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    """Each export's keys as patterns that find them outside strings (no backslash before the opening quote)."""
    def key(name: str, opening: str = "") -> re.Pattern[str]:
        return re.compile(r'(?<!\\)"%s"\s*:%s' % (re.escape(name), r"\s*" + re.escape(opening) if opening else ""))
    return tuple((dialect.name, (*(key(name, "{") for name in way.objects), *(key(name, "[") for name in way.arrays),
                                 *(key(name) for name in way.keys), *map(re.compile, way.patterns)))
                 for dialect, way in detected_by(JsonKeys))


@functools.cache
def _member_patterns() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    return tuple((dialect.name, tuple(map(re.compile, way.patterns))) for dialect, way in detected_by(Members))


@functools.cache
def _openings() -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((dialect.name, re.compile("|".join(way.patterns))) for dialect, way in detected_by(Opens))


@functools.cache
def _line_formats() -> tuple[tuple[str, tuple[Line, ...]], ...]:
    return tuple((dialect.name, way.lines) for dialect, way in detected_by(JsonLines))


@functools.cache
def _read_members() -> frozenset[str]:
    """The members of a first line whose values the line formats read (the others are only looked for)."""
    return frozenset(("type", "event", *(key for _, lines in _line_formats() for line in lines
                                         for key in line.objects)))


@functools.cache
def _token_formats() -> tuple[tuple[str, int, Tokens], ...]:
    return tuple((dialect.name, dialect.priority, way) for dialect, way in detected_by(Tokens))


@functools.cache
def _patterns(tokens: Tokens) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(pattern) for pattern in tokens.patterns)


@functools.cache
def _not_json() -> tuple[str, ...]:
    """What opens a text format though it starts with a bracket (ChatML's `[BOS]`, Mistral's `[INST]`)."""
    return tuple(mark for _, _, tokens in _token_formats() for mark in (*tokens.marks, *tokens.openings)
                 if mark.startswith(("[", "{")))
