"""One model for every dialect: a transcript of messages (message.py), its diagnostics and call pairs, and its
JSON form (`openchatml-viewer/3`).

Parsers return these objects; nothing downstream reads raw text again except to show a source span.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from viewer.model.cuts import Cuts
from viewer.model.lines import LineIndex
from viewer.model.message import Message
from viewer.model.pieces import Segment, Span, Thread

SCHEMA = "openchatml-viewer/3"
"""The JSON form of one conversation. /3 (agent sessions) added, where a log records them, a message's `meta`,
`thread`, `parent` and `aside`, and the transcript's `threads`; /1 had none of them (/2 is the dataset form's)."""
DATASET_SCHEMA = "openchatml-viewer/4"
"""The JSON form of a dataset: `conversations`, each in the form of `SCHEMA` (less its `schema` key), with an
`index`; and the file's own `diagnostics`. A single conversation keeps `SCHEMA`. /4 is /2 with conversations in
the /3 form."""

SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A defect or notable fact about the input, with the spec's code and where it is."""

    code: str
    """The spec's taxonomy (`E-PARSE-HEADER` …) or our own `W-…` code."""
    severity: str
    """`error`, `warning` or `info`."""
    message: str
    """One sentence for a person."""
    span: Span
    """`[start, end)` character offsets in the source."""
    message_index: int | None = None
    """The message it belongs to, if any."""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "span": list(self.span),
            "message_index": self.message_index,
        }


@dataclass(frozen=True, slots=True)
class Pair:
    """A tool call and the reply that answers it."""

    call: int
    """Index of the calling message."""
    reply: int
    """Index of the answering message."""
    by: str
    """The rule that matched them: `call_id`, `name` or `order`."""

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call, "reply": self.reply, "by": self.by}


@dataclass(frozen=True, slots=True)
class Transcript:
    """A parsed transcript: its messages, diagnostics, call pairs and the source they point into."""

    dialect: str
    """`openchatml` (2.x with YAML header), `harmony`, `chatml`, `json` or `events`."""
    source: str
    """The decoded input text every span points into."""
    messages: tuple[Message, ...] = ()
    """The messages in source order."""
    diagnostics: tuple[Diagnostic, ...] = ()
    """Every defect found, in source order."""
    header: dict[str, Any] = field(default_factory=dict)
    """The YAML document header, if any."""
    pairs: tuple[Pair, ...] = ()
    """Tool calls paired with their replies."""
    tools: dict[str, Any] = field(default_factory=dict)
    """Tool name -> JSON schema of its arguments, where the transcript declares one."""
    frame: tuple[Segment, ...] = ()
    """Source regions outside messages that the parser understood: `yaml_header`, `bos`/`eos`, `json` envelope,
    `event` lines that carry no text, `generation_prompt`."""
    threads: tuple[Thread, ...] = ()
    """Sub-agent conversations, in order of their first message."""
    conversations: tuple[Transcript, ...] = ()
    """For a dataset (a file of many whole conversations): each conversation, parsed on its own, its spans into
    this same source; the dataset's own `messages` are then empty and its diagnostics are the file's."""
    cuts: Cuts | None = field(default=None, compare=False, repr=False)
    """When the source is a thin text (payloads cut out of a big session: viewer/model/cuts.py), what was cut: the
    spans count the thin text, and the store moves them to the file's offsets."""
    _lines: LineIndex | None = field(default=None, init=False, compare=False, repr=False)
    """The source's line index, built on the first `position` call (most transcripts never need one)."""

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset in the source."""
        lines = self._lines
        if lines is None:
            lines = LineIndex(self.source)
            object.__setattr__(self, "_lines", lines)  # a cache: the dataclass is frozen
        return lines.position(offset)

    def text(self, span: Span) -> str:
        """The source text of a span."""
        return self.source[span[0]:span[1]]

    @property
    def is_dataset(self) -> bool:
        return bool(self.conversations)

    def share_lines(self, other: Transcript) -> None:
        """Use `other`'s line index (same source): a dataset's conversations share one instead of each
        building its own over the whole file."""
        if other._lines is None:
            object.__setattr__(other, "_lines", LineIndex(other.source))
        object.__setattr__(self, "_lines", other._lines)

    def to_json(self) -> dict[str, Any]:
        if self.conversations:
            said = {"header": self.header} if self.header else {}  # what the file says of all its conversations
            return {"schema": DATASET_SCHEMA, "dialect": self.dialect, **said,
                    "conversations": [{"index": number, **_without_schema(conversation.to_json())}
                                      for number, conversation in enumerate(self.conversations)],
                    "diagnostics": [diagnostic.to_json() for diagnostic in self.diagnostics]}
        return {
            "schema": SCHEMA,
            "dialect": self.dialect,
            "header": self.header,
            "messages": [message.to_json() for message in self.messages],
            "pairs": [pair.to_json() for pair in self.pairs],
            "diagnostics": [diagnostic.to_json() for diagnostic in self.diagnostics],
        } | ({"threads": [thread.to_json() for thread in self.threads]} if self.threads else {})


def _without_schema(data: dict[str, Any]) -> dict[str, Any]:
    data.pop("schema", None)
    return data
