"""What the chat apps' exports share: a JSON array of conversations (or one conversation object), each read
where it stands with the spans of its outer levels; a conversation's messages numbered with their parents,
the branch the app showed followed and the others aside; and the dataset around them."""
from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Message, Span, Transcript, make_diagnostic
from viewer.model.branches import FORKS_KEY, Fork, aside_for, children_of
from viewer.parse.datasets import between
from viewer.parse.json.positions import JsonError, Node, read_value, skip_blank
from viewer.parse.json.unpacked import frame

ConversationReader = Callable[[str, Node], Transcript]
"""Reads one conversation object (read with spans) of the export into a transcript whose spans point into the
whole text."""

TITLE_CHARS = 300
"""A title longer than this is cut: it is a label in the index, not a message."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def read_export(text: str, dialect: str, depth: int, read: ConversationReader) -> Transcript:
    """An export: an array of conversations is a dataset (even of one), an object is one conversation. `depth`
    is how many levels of a conversation keep their spans."""
    start = skip_blank(text, 0)
    if not text.startswith("[", start):
        return _single(text, start, dialect, depth, read)
    conversations, spans, diagnostics = [], [], []
    at = skip_blank(text, start + 1)
    while at < len(text) and text[at] != "]":
        try:
            node = read_value(text, at, depth)
        except JsonError as error:
            diagnostics.append(make_diagnostic("W-JSON-SYNTAX", (at, len(text)),
                                               f"The export breaks off here ({error.reason}); the rest was not read."))
            at = len(text)
            break
        conversations.append(read(text, node) if isinstance(node.value, dict) else _not_a_conversation(
            text, node, dialect))
        spans.append(node.span)
        at = skip_blank(text, node.span[1])
        if text.startswith(",", at):
            at = skip_blank(text, at + 1)
    dataset = Transcript(dialect=dialect, source=text, conversations=tuple(conversations))
    if not spans:  # not one conversation could be read: the whole array is the diagnostic's
        diagnostics = diagnostics or [make_diagnostic("W-JSON-SYNTAX", (start, len(text)),
                                                      "The export holds no conversation.")]
        return dataclasses.replace(dataset, diagnostics=tuple(
            dataclasses.replace(d, span=(start, len(text))) for d in diagnostics))
    # The brackets and commas are frame; a break after the last conversation read is the dataset's diagnostic.
    segments, rest = between(text, spans)
    return dataclasses.replace(dataset, frame=tuple(segments), diagnostics=tuple(rest))


def _single(text: str, start: int, dialect: str, depth: int, read: ConversationReader) -> Transcript:
    try:
        node = read_value(text, start, depth)
    except JsonError as error:
        return Transcript(dialect=dialect, source=text, diagnostics=(make_diagnostic(
            "W-JSON-SYNTAX", (start, len(text)), f"The export is not valid JSON ({error.reason}); it was not read."),))
    conversation = read(text, node) if isinstance(node.value, dict) else _not_a_conversation(text, node, dialect)
    after = skip_blank(text, node.span[1])
    if after < len(text):
        extra = make_diagnostic("W-JSON-SYNTAX", (after, len(text)), "Text after the conversation was not read.")
        conversation = dataclasses.replace(conversation, diagnostics=(*conversation.diagnostics, extra))
    return conversation


def _not_a_conversation(text: str, node: Node, dialect: str) -> Transcript:
    return Transcript(dialect=dialect, source=text, diagnostics=(make_diagnostic(
        "W-JSON-SHAPE", node.span, "This element of the export is not a conversation object; it was not read."),))


@dataclasses.dataclass(slots=True)
class Conversation:
    """One conversation being read: its messages with their parents, its diagnostics."""

    text: str
    span: Span
    messages: list[Message] = dataclasses.field(default_factory=list)
    diagnostics: list[Diagnostic] = dataclasses.field(default_factory=list)
    header: dict[str, Any] = dataclasses.field(default_factory=dict)

    def add(self, message: Message) -> int:
        """Number a message and keep it; its index."""
        if message.index != len(self.messages):
            message = replace_fields(message, index=len(self.messages))
        self.messages.append(message)
        return message.index

    def note(self, code: str, span: Span, text: str, index: int | None = None) -> None:
        self.diagnostics.append(make_diagnostic(code, span, text, index))

    def transcript(self, dialect: str, followed: int | None) -> Transcript:
        """The conversation, following the branches that lead to message `followed` (None: the newest at each
        fork); the other branches aside, each reported on its first message."""
        messages = self._branched(followed)
        claimed = [*(message.span for message in messages), *(d.span for d in self.diagnostics)]
        return Transcript(dialect=dialect, source=self.text, messages=tuple(messages),
                          diagnostics=tuple(self.diagnostics), header=self.header,
                          frame=frame(self.text, claimed, self.span))

    def _branched(self, followed: int | None) -> list[Message]:
        parents = {message.index: message.parent for message in self.messages}
        children = children_of(parents, parents)
        forks = [Fork(parent, tuple(below)) for parent, below in children.items() if len(below) > 1]
        if not forks:
            return self.messages
        self.header[FORKS_KEY] = [fork.to_json() for fork in forks]
        aside = aside_for(forks, parents, parents, chosen=followed)
        for fork in forks:
            for branch in fork.branches:
                if branch in aside:
                    what = "an edited question" if self.messages[branch].role == "user" else "a regenerated answer"
                    self.note("W-EXPORT-BRANCH", self.messages[branch].span,
                              f"Another version starts here ({what}): the app showed a different branch, so this "
                              "one is kept, hidden from the default view.", branch)
        return [replace_fields(message, aside=True) if message.index in aside else message
                for message in self.messages]


def title_of(value: Any) -> str | None:
    """A conversation's title as the index shows it: one line, capped; None when there is none."""
    if not isinstance(value, str):
        return None
    title = _CONTROL.sub(" ", value).strip()
    return title[:TITLE_CHARS] or None


def iso_time(value: Any) -> str | None:
    """A time as ISO 8601: ChatGPT writes seconds since the epoch, Claude.ai ISO text (kept as written)."""
    if isinstance(value, str) and value:
        return value[:40]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e11:
        return dt.datetime.fromtimestamp(value, dt.timezone.utc).isoformat().replace("+00:00", "Z")
    return None


__all__ = ["Conversation", "ConversationReader", "iso_time", "read_export", "title_of"]
