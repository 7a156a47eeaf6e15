"""The bundle text: several files as one text, written by the unpacking (archive.py, database.py) and read by the
readers (viewer/parse/bundles). It opens with a header line naming every member, in order; then each member is
introduced by a frame line naming its path and its length in characters, and followed by a line break:

    {"bundle": 1, "from": "zip", "members": ["s1.jsonl", "s1/subagents/agent-a1.jsonl"]}
    {"member": "s1.jsonl", "chars": 220}
    …the 220 characters of s1.jsonl…
    {"member": "s1/subagents/agent-a1.jsonl", "chars": 180}
    …

A member is found by the length its frame line gives, never by looking for the next frame line, so that nothing
a file holds can end it early or start a member of its own. A member that is not shown as text says why in its
frame line instead (`"binary": true`, `"refused": "…"`) and has no characters. A database's tables are members
named `<database path>#<table>` (`#<table>` for a database uploaded alone), each row one JSON line. Paths are
written with JSON's escapes, so a frame line is always one line.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Iterator

from viewer.model import Diagnostic, Segment, Span, make_diagnostic

OPENING = '{"bundle": 1, '
"""How every bundle text begins (the header's first member as json.dumps writes it)."""
VERSION = 1


@dataclass(slots=True)
class Entry:
    """One member as the unpacking found it, before the text is written."""

    path: str
    content: str | None
    """Its text; None for a member not shown as text (binary, refused)."""
    facts: dict[str, Any] = field(default_factory=dict)
    """What its frame line says beside its path and length (`binary`, `bytes`, `refused`, `rows`, `cut`)."""
    notes: list[tuple[str, str, Span | None]] = field(default_factory=list)
    """Diagnostics about it: code, message, and where in its content (None: at its frame line)."""

    def note(self, code: str, message: str, within: Span | None = None) -> None:
        self.notes.append((code, message, within))


def write_bundle(origin: str, entries: list[Entry]) -> tuple[str, list[Diagnostic]]:
    """The bundle text of the entries, in their order, and the diagnostics their notes make, placed in it."""
    header = json.dumps({"bundle": VERSION, "from": origin, "members": [entry.path for entry in entries]},
                        ensure_ascii=False)
    parts = [header, "\n"]
    at = len(header) + 1
    diagnostics = []
    for entry in entries:
        content = entry.content or ""
        line = json.dumps({"member": entry.path, **entry.facts, "chars": len(content)}, ensure_ascii=False)
        start = at + len(line) + 1
        for code, message, within in entry.notes:
            span = (at, at + len(line)) if within is None else (start + within[0], start + within[1])
            diagnostics.append(make_diagnostic(code, span, message))
        parts += [line, "\n", content, "\n"]
        at = start + len(content) + 1
    return "".join(parts), diagnostics


@dataclass(frozen=True, slots=True)
class Member:
    """One member of a bundle text: where its characters are, and what its frame line says."""

    path: str
    span: Span
    """Its characters (empty for a member not shown as text)."""
    frame: Span
    """Its frame line."""
    facts: dict[str, Any]

    @property
    def readable(self) -> bool:
        """Whether it is shown as text (not binary, not refused)."""
        return not self.facts.get("binary") and not self.facts.get("refused")

    @property
    def is_schema(self) -> bool:
        """Whether it is a database's schema (its SQL), which no transcript reader reads as a conversation."""
        return self.path.endswith("#sqlite_schema")

    @property
    def name(self) -> str:
        """The last part of its path."""
        return self.path.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class Bundle:
    """A bundle text read: its origin (`zip`, `sqlite`), its members in order, its frame lines, and what is wrong
    with its frame (a text that only looks like a bundle)."""

    origin: str
    members: tuple[Member, ...]
    frame: tuple[Segment, ...]
    problems: tuple[Diagnostic, ...]

    def matching(self, pattern: str | re.Pattern[str]) -> list[Member]:
        """The readable members whose path the regular expression finds, in order."""
        found = re.compile(pattern) if isinstance(pattern, str) else pattern
        return [member for member in self.members if member.readable and found.search(member.path)]

    def first(self, pattern: str) -> Member | None:
        found = self.matching(pattern)
        return found[0] if found else None


def is_bundle(text: str) -> bool:
    return text.startswith(OPENING)


def member_paths(text: str) -> list[str] | None:
    """The paths the header line names, in order; None when the text is no bundle or its header cannot be read.
    Asked by detection, which reads no further than the header."""
    if not is_bundle(text):
        return None
    header = _json_line(text, 0)
    paths = header[0].get("members") if header is not None else None
    if not isinstance(paths, list) or not all(isinstance(path, str) for path in paths):
        return None
    return paths


def read_bundle(text: str) -> Bundle | None:
    """The bundle the text is, or None when it does not open as one. Never raises: a frame that does not hold
    (a length past the end, a frame line that is not one) is a W-BUNDLE-FRAME diagnostic over the rest."""
    if not is_bundle(text):
        return None
    header = _json_line(text, 0)
    if header is None:
        return Bundle("", (), (), (_broken((0, len(text)), "The bundle's header line cannot be read."),))
    value, end = header
    written = value.get("from")
    origin = written if isinstance(written, str) else ""
    frame = [Segment.of("bundle", text[:end], (0, end))]
    members: list[Member] = []
    at = end + 1
    while at < len(text):
        member = _member(text, at)
        if isinstance(member, str):
            return Bundle(origin, tuple(members), tuple(frame), (_broken((at, len(text)), member),))
        members.append(member)
        frame.append(Segment.of("member", text[member.frame[0]:member.frame[1]], member.frame))
        at = member.span[1] + 1
    return Bundle(origin, tuple(members), tuple(frame), ())


def _member(text: str, at: int) -> Member | str:
    """The member whose frame line starts at `at`, or why there is none."""
    found = _json_line(text, at)
    if found is None or not isinstance(found[0].get("member"), str):
        return "A member's frame line was expected here; the rest of the bundle was not read."
    value, end = found
    chars = value.get("chars", 0)
    start = end + 1
    if not isinstance(chars, int) or chars < 0 or start + chars > len(text):
        return f"The member {value['member']!r} says it is longer than the bundle; the rest was not read."
    if start + chars < len(text) and text[start + chars] != "\n":
        return f"The member {value['member']!r} does not end where its frame line says; the rest was not read."
    facts = {key: item for key, item in value.items() if key not in ("member", "chars")}
    return Member(value["member"], (start, start + chars), (at, end), facts)


def _json_line(text: str, at: int) -> tuple[dict[str, Any], int] | None:
    end = _line_end(text, at)
    try:
        value = json.loads(text[at:end])
    except (ValueError, RecursionError):
        return None
    return (value, end) if isinstance(value, dict) else None


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end == -1 else end


def _broken(span: Span, message: str) -> Diagnostic:
    return make_diagnostic("W-BUNDLE-FRAME", span, message)


def lines_of(text: str, span: Span) -> Iterator[tuple[int, int, int]]:
    """`(line number within the member from 1, start, end)` of each non-blank line of a member, trimmed."""
    number, at, stop = 0, span[0], span[1]
    while at < stop:
        number += 1
        end = text.find("\n", at, stop)
        if end == -1:
            end = stop
        line = text[at:end]
        stripped = line.strip()
        if stripped:
            first = at + len(line) - len(line.lstrip())
            yield number, first, first + len(stripped)
        at = end + 1
