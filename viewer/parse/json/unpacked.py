"""A conversation unpacked from its JSON container (container.py does the unpacking, the shape modules for the
objects they know): its elements, the envelope around them, and what was not read; which envelope member holds
the elements; and the frame, what lies between the messages read. A leaf: every shape module reads and makes
these, and none of it reads a shape."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from viewer.model import Diagnostic, Segment, Span, Transcript
from viewer.parse.json.positions import Member, Node

LIST_KEYS = ("messages", "conversations", "conversation", "input", "output", "items", "turns", "contents")
"""Envelope members whose array holds the conversation's elements, in the order they are preferred when a
document has several (the keys datasets.py recognises a conversation by; Gemini's `contents`, read as a record
by gemini.py, is kept here so that a request cut short keeps the contents read before the cut)."""


InnerReader = Callable[[Node, str], "Unpacked"]
"""Reads a conversation nested in a record (a batch line's request) as its own."""


@dataclass(frozen=True, slots=True)
class Unpacked:
    """A conversation unpacked from its container: the message elements, the envelope around them, and what was
    not read."""

    elements: list[Node]
    """The message elements (or Responses API items, or ShareGPT turns), in order."""
    envelope: dict[str, Member] = field(default_factory=dict)
    """Top-level members of the envelope other than the list itself."""
    unread: list[Diagnostic] = field(default_factory=list)
    """W-JSON-SYNTAX diagnostics over text that could not be read."""
    key: str | None = None
    """The envelope member that held the elements (one of LIST_KEYS); None for a bare list, a single object or
    JSON Lines."""
    notes: list[Diagnostic] = field(default_factory=list)
    """What a record says of itself (a record shape's: an API error, a stream cut short)."""
    prompts_first: bool = False
    """Whether the envelope's prompts come before every element wherever they stand (a Gemini SDK dump writes the
    system instruction in `config`, after the contents)."""
    marks: dict[int, dict[str, Any]] = field(default_factory=dict)
    """Message fields set on every message of an element, by the element's position (a record shape's: a preference
    pair's rejected answer is `intent: rejected`; a stream cut short ends `eof`)."""
    continued: set[int] = field(default_factory=set)
    """Positions of elements that are of the turn of the element before them (the other choices of one streamed
    answer: their chunks interleave, so the choices are one turn)."""

    @property
    def unread_size(self) -> int:
        return sum(end - start for start, end in (diagnostic.span for diagnostic in self.unread))


def list_key(value: dict) -> str | None:
    """The member whose array holds the elements, by the marks of each shape: ShareGPT's `conversations`,
    `messages`, a Responses request's `input` or response's `output` (an item with a `type` or a message with a
    `role` may hold an `output` list of its own: that object is one element). None: the object is one element."""
    for key in LIST_KEYS:
        if isinstance(value.get(key), list) and not (key in ITEM_LISTS and is_element(value)):
            return key
    return None


ENVELOPE_KEYS = (*LIST_KEYS, "tools", "functions", "declared", "system", "instructions")
"""Envelope keys the conversation reader reads (conversation.py); the others become the transcript's header, and
so do the tool definitions as written (`tools`, `functions`). `declared` holds the definitions a record shape read
into OpenAI's form (gemini.py): read, not shown twice."""
ITEM_LISTS = ("input", "output")


def is_element(value: dict) -> bool:
    """An object with a `type` or a `role`: one element, even with a list of its own under an item list's key."""
    return "type" in value or "role" in value



def frame(text: str, claimed: list[Span], within: Span | None = None) -> tuple[Segment, ...]:
    """What lies between the claimed spans and is not blank: the JSON envelope the importer understood. Only
    `within` that span of the text, when given (one conversation of a dataset). (A big file has a gap between
    every two messages, so the loop is written for speed.)"""
    frame: list[Segment] = []
    add = frame.append
    position, stop = within or (0, len(text))
    not_blank = _NOT_BLANK_RUN.search
    claimed = sorted(claimed)
    claimed.append((stop, stop))
    for start, end in claimed:
        if start > position:
            found = not_blank(text, position, start)
            if found is not None:
                add(Segment("json", found[0], found.start(), found.end()))
        if end > position:
            position = end
    return tuple(frame)


_NOT_BLANK_RUN = re.compile(r"\S(?:.*\S)?", re.DOTALL)
"""A gap without its blank edges (`\\s` is what `str.strip` strips), in one search rather than three slices."""


def conversation_transcript(text: str, unpacked: Unpacked, builder: Any, header: dict[str, Any],
                            within: Span | None = None) -> Transcript:
    """One conversation of the JSON dialect: the messages and diagnostics a builder (builder.py) made of it, the
    unpacking's own diagnostics, the header (with the text not read, `with_unread_text`), and the frame (`within`
    that span, when given)."""
    claimed = [message.span for message in builder.messages]
    diagnostics = (*unpacked.unread, *unpacked.notes, *builder.diagnostics)
    claimed += [diagnostic.span for diagnostic in diagnostics]
    return Transcript(
        dialect="json", source=text, messages=tuple(builder.messages),
        diagnostics=diagnostics, header=builder.with_unread(with_unread_text(header, text, unpacked.unread)),
        tools=builder.tools, frame=frame(text, claimed, within))


UNREAD_TEXT = 65_536
"""Characters of the text W-JSON-SYNTAX says was not read kept in the header, all stretches together: a file broken
near its start would put the whole of it in the header, which the debug view draws whole (the raw download keeps
every character)."""


def with_unread_text(header: dict[str, Any], text: str, unread: list[Diagnostic]) -> dict[str, Any]:
    """The header with the text each W-JSON-SYNTAX diagnostic says was not read (the rest of a document that breaks
    off, a bad line), as written, under `unread_text`: `{"line": 4, "text": …}` a stretch, its line the one it
    starts on, `"cut"` the characters past UNREAD_TEXT left out of it; `{"more": n}` the stretches left out whole.
    The debug view shows it, so that a broken file's values are not lost from it."""
    if not unread:
        return header
    kept: list[dict[str, Any]] = []
    budget, more = UNREAD_TEXT, 0
    for diagnostic in sorted(unread, key=lambda diagnostic: diagnostic.span):
        start, end = diagnostic.span
        if budget <= 0:
            more += 1
            continue
        stretch: dict[str, Any] = {"line": text.count("\n", 0, start) + 1, "text": text[start:min(end, start + budget)]}
        if end - start > budget:
            stretch["cut"] = end - start - budget
        budget -= end - start
        kept.append(stretch)
    return {**header, "unread_text": [*kept, *([{"more": more}] if more else [])]}
