"""The JSON texts of agents that write a document rather than a line per event: a sequence of event objects (a
JSON array, JSON Lines, or pretty-printed objects one after another, as files of one event each joined make),
and one document object (a trajectory) whose top members are read with their spans.

Both keep what was read when the text breaks off: the events before the break, the members finished before it,
and the items of a listed array read so far (a trajectory saved while its run was still going). A break at the
end of the text is E-STREAM-TRUNCATED, anywhere else W-JSON-SYNTAX, and the rest of the text is that
diagnostic's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewer.model import Diagnostic, Span, make_diagnostic
from viewer.parse.agents.lines import Line
from viewer.parse.json.positions import JsonError, Member, Node, Partial, read_value, skip_blank
from viewer.parse.json.source import JsonObject


def read_events(text: str, within: Span | None = None) -> tuple[list[Line], list[Diagnostic], list[Span]]:
    """The objects of an event sequence (the whole text, or the stretch `within` it: one file of a bundle), each
    as a Line; the diagnostics of what could not be read; and the frame's spans (an array's brackets and
    commas)."""
    start, end = within or (0, len(text))
    start = skip_blank(text, start)
    if text.startswith("[", start) and within is None:
        return _read_array(text, start)
    return _read_sequence(text, start, end)


def _read_array(text: str, start: int) -> tuple[list[Line], list[Diagnostic], list[Span]]:
    events: list[Line] = []
    problems: list[Diagnostic] = []
    frame = [(start, start + 1)]
    at = skip_blank(text, start + 1)
    counter = _LineCounter(text)
    while at < len(text) and text[at] != "]":
        try:
            node = read_value(text, at, 0)
        except JsonError as error:
            problems.append(broken_off(text, at, error))
            return events, problems, frame
        _keep(node, text, counter, events, problems)
        at = skip_blank(text, node.span[1])
        if text.startswith(",", at):
            frame.append((at, at + 1))
            at = skip_blank(text, at + 1)
        elif not text.startswith("]", at) and at < len(text):
            problems.append(broken_off(text, at, JsonError("Expecting ',' delimiter", at)))
            return events, problems, frame
    if at >= len(text):
        end = len(text.rstrip())
        problems.append(make_diagnostic("E-STREAM-TRUNCATED", (end, end), "The list of events breaks off here, "
                                                                          "before its closing bracket."))
        return events, problems, frame
    frame.append((at, at + 1))
    after = skip_blank(text, at + 1)
    if after < len(text):
        problems.append(make_diagnostic("W-JSON-SYNTAX", (after, len(text.rstrip())),
                                        "Text after the list of events was not read."))
    return events, problems, frame


def _read_sequence(text: str, start: int, end: int) -> tuple[list[Line], list[Diagnostic], list[Span]]:
    """Objects one after another (JSON Lines, or pretty-printed files joined): a value that cannot be read is
    skipped to the next line that starts an object.

    The text is read a stretch at a time, each up to the next line that starts an object (a pretty-printed
    object's own lines are indented, a compact one has none), so that a broken value costs its stretch only:
    `json` counts the lines before the place of each error it reports, which over the whole text made a file
    of many broken lines take quadratic time."""
    events: list[Line] = []
    problems: list[Diagnostic] = []
    counter = _LineCounter(text)
    at = start
    while at < end:
        following = text.find("\n{", at, end)
        stop = end if following == -1 else following + 1
        stretch, position = text[at:stop], 0
        while position < len(stretch):
            try:
                node = read_value(stretch, position, 0, at)
            except JsonError as error:
                where = at + position
                if stop == end:
                    problems.append(broken_off(text, where, JsonError(error.reason, at + error.position), end))
                else:
                    problems.append(make_diagnostic(
                        "W-JSON-SYNTAX", (where, _blank_trimmed(text, where, stop)),
                        f"Line {counter.number(where)} is not valid JSON ({error.reason}); it was skipped."))
                break
            _keep(node, text, counter, events, problems)
            position = skip_blank(stretch, node.span[1] - at)
        at = skip_blank(text, stop) if stop < end else stop
    return events, problems, []


def _blank_trimmed(text: str, start: int, end: int) -> int:
    """Where `text[start:end]` ends without its trailing blanks (no copy of the text before it: a file of many
    broken lines would copy it once per line)."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _keep(node: Node, text: str, counter: _LineCounter, events: list[Line], problems: list[Diagnostic]) -> None:
    if isinstance(node.value, dict):
        events.append(Line(counter.number(node.span[0]), node.span, node.value, text))
    else:
        problems.append(make_diagnostic("W-JSON-SHAPE", node.span, "This value is not an event object; it was "
                                                                   "skipped."))


def broken_off(text: str, at: int, error: JsonError, end: int | None = None) -> Diagnostic:
    """The diagnostic of a text (or of its stretch ending at `end`) that cannot be read from `at` on: cut short
    when reading stopped at its end."""
    end = _blank_trimmed(text, at, end) if end is not None else len(text.rstrip())
    span = (min(at, end), end)
    if error.position >= end - 1 or error.reason.startswith("Unterminated string"):
        return make_diagnostic("E-STREAM-TRUNCATED", span, "The text breaks off here, in the middle of a value: it "
                                                           "was cut short while it was written; the rest is missing.")
    return make_diagnostic("W-JSON-SYNTAX", span, f"The text is not valid JSON here ({error.reason}); the rest was "
                                                  "not read.")


class _LineCounter:
    """Line numbers of increasing offsets, counted once."""

    def __init__(self, text: str) -> None:
        self.text, self.at, self.line = text, 0, 1

    def number(self, offset: int) -> int:
        if offset >= self.at:
            self.line += self.text.count("\n", self.at, offset)
            self.at = offset
        else:
            self.line = self.text.count("\n", 0, offset) + 1
            self.at = offset
        return self.line


@dataclass(slots=True)
class Document:
    """A document object read with its top members' spans (and, `depth` levels down, theirs)."""

    text: str
    span: Span
    members: dict[str, Member] = field(default_factory=dict)
    partial: str | None = None
    """The listed member whose array broke off (its items read so far are in `items`), or None."""
    items: list[Node] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def value(self, key: str) -> Any:
        member = self.members.get(key)
        return member.node.value if member is not None else None

    def node(self, key: str) -> Node | None:
        member = self.members.get(key)
        return member.node if member is not None else None

    def listed(self, key: str) -> list[Node]:
        """The items of an array member, read so far if it is the one that broke off."""
        if self.partial == key:
            return self.items
        node = self.node(key)
        return list(node.items) if node is not None and isinstance(node.value, list) else []


def read_document(text: str, depth: int, list_keys: tuple[str, ...]) -> Document:
    """The object the text is, `depth` levels read with spans; when it breaks off, the members finished and the
    items of the first of `list_keys` read so far."""
    start = skip_blank(text, 0)
    partial = Partial(list_keys)
    try:
        node = read_value(text, start, depth, into=partial)
    except JsonError as error:
        ends = [member.span[1] for member in partial.members.values()] + [item.span[1] for item in partial.items[-1:]]
        document = Document(text, (start, len(text)), dict(partial.members), partial.key, partial.items)
        document.diagnostics.append(broken_off(text, skip_blank(text, max(ends, default=start)), error))
        return document
    document = Document(text, node.span, dict(node.members))
    if not isinstance(node.value, dict):
        document.diagnostics.append(make_diagnostic("W-JSON-SHAPE", node.span, "The text is not a JSON object; it "
                                                                               "was not read."))
    after = skip_blank(text, node.span[1])
    if after < len(text):
        document.diagnostics.append(make_diagnostic("W-JSON-SYNTAX", (after, len(text.rstrip())),
                                                    "Text after the document was not read."))
    return document


def read_located(text: str, line: Line, reader, depth: int = 3):
    """An event's pieces by `reader` (`(JsonObject) -> list[Draft]`, without side effects: it may be asked twice),
    first of the event as one whole; read again with the spans of its members `depth` levels down when it gives
    several pieces or finds a problem, so that each piece spans its own member."""
    source = JsonObject(line.value, line.span)
    found = reader(source)
    if len(found) > 1 or source.problems or any(piece.problems for piece in found):
        node = read_value(text, line.span[0], depth)
        source = JsonObject(node.value, node.span, dict(node.members))
        found = reader(source)
    return source, found


def located(source: JsonObject, *path: str | int) -> Span:
    """The span of a value some members and items down (a member's span holds its key), or of the nearest
    enclosing value whose span is known."""
    return _walk(source, path)[0]


def node_at(source: JsonObject, *path: str | int) -> Node | None:
    """The value some members and items down, with its own span (without its key); None when not read so."""
    return _walk(source, path)[1]


def _walk(source: JsonObject, path: tuple[str | int, ...]) -> tuple[Span, Node | None]:
    found: Node | None = None
    items: tuple[Node, ...] = ()
    span, members = source.span, source.members
    for step in path:
        if isinstance(step, int):
            if not 0 <= step < len(items):
                return span, None
            found = items[step]
            span = found.span
        else:
            member = members.get(step) if members else None
            if member is None:
                return span, None
            found, span = member.node, member.span
        members, items = found.members, found.items
    return span, found


def line_of(line: Line, found: list) -> Line:
    """The line standing for the part of an event its pieces span, when the rest of it is read apart (a step's
    results, an observation): a message of one piece spans its line."""
    spans = [piece.span for piece in found if piece.span is not None]
    span = (min(start for start, _ in spans), max(end for _, end in spans)) if spans else line.span
    return Line(line.number, span, line.value, line.text)
