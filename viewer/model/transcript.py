"""One message model for every dialect, and its JSON form (`openchatml-viewer/3`).

Parsers return these objects; nothing downstream reads raw text again except to show a source span.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from viewer.model.cuts import Cuts
from viewer.model.lines import LineIndex

SCHEMA = "openchatml-viewer/3"
"""The JSON form of one conversation. /3 (agent sessions) added, where a log records them, a message's `meta`,
`thread`, `parent` and `aside`, and the transcript's `threads`; /1 had none of them (/2 is the dataset form's)."""
DATASET_SCHEMA = "openchatml-viewer/4"
"""The JSON form of a dataset: `conversations`, each in the form of `SCHEMA` (less its `schema` key), with an
`index`; and the file's own `diagnostics`. A single conversation keeps `SCHEMA`. /4 is /2 with conversations in
the /3 form."""

ROLES = ("system", "developer", "user", "assistant", "tool")
CHANNELS = ("analysis", "commentary", "final")
ENDS = ("end", "call", "return", "eof")
SEVERITIES = ("error", "warning", "info")
NON_TOOL_RECIPIENTS = ("assistant", "user", "all")
"""`to=` values that address a person or everyone rather than a tool."""

Span = tuple[int, int]


# Segments and messages are msgspec Structs rather than frozen dataclasses: a big transcript makes hundreds of
# thousands, and a frozen Struct is made about eight times faster than a frozen dataclass (whose `__init__` sets
# each field through `object.__setattr__`), and with `gc=False` the cyclic collector never walks them (they hold
# only strings, numbers, tuples of each other and a message's frozen `Meta`, so they are never part of a cycle).
# bench/model_objects.py measures it. `msgspec.structs.replace` copies one with some fields changed.
class Segment(msgspec.Struct, frozen=True, gc=False):
    """A finer piece of a message body (thought block, FIM part, file, function call …)."""

    kind: str
    """What the piece is: `text`, `reflect`, `introspect`, `reason`, `literal`, `fim_prefix`, `fim_middle`,
    `fim_suffix`, `file`, `function_list`, `function_call`, `function_output`, `flag`."""
    text: str
    """The piece's text as the author meant it (markers removed)."""
    span: Span
    """`[start, end)` character offsets of the piece in the source, markers included."""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "span": list(self.span)}


class Media(msgspec.Struct, frozen=True, gc=False):
    """An image pasted into a message as inline (base64) data: a reference to its bytes, never the bytes. The
    store keeps them once per SHA-256 (viewer/store/media.py); the message's text keeps a placeholder naming it."""

    sha256: str
    """The SHA-256 of the decoded bytes, in hex: the blob's key."""
    size: int
    """Decoded bytes."""
    type: str | None
    """The media type the bytes' own magic says (not the type the producer claimed), or None."""
    span: Span
    """`[start, end)` of the payload as written in the source: a JSON string's characters, without its quotes
    (a data URL's prefix included), from which the bytes are decoded again when they are stored."""
    width: int | None = None
    height: int | None = None
    refused: str | None = None
    """Why it is not shown (not a raster image, a polyglot, over a limit, undecodable), or None when it is."""

    def to_json(self) -> dict[str, Any]:
        data = {"sha256": self.sha256, "size": self.size, "type": self.type, "span": list(self.span),
                "width": self.width, "height": self.height, "refused": self.refused}
        return {key: value for key, value in data.items() if value is not None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Media:
        return cls(data["sha256"], data["size"], data.get("type"), tuple(data["span"]), data.get("width"),
                   data.get("height"), data.get("refused"))


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one API response used, as the producer counted them (counted once per response)."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    """Input tokens read from the prompt cache."""
    cache_write: int = 0
    """Input tokens written to the prompt cache."""

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input + other.input, self.output + other.output, self.cache_read + other.cache_read,
                     self.cache_write + other.cache_write)

    def to_json(self) -> dict[str, int]:
        return {"input": self.input, "output": self.output, "cache_read": self.cache_read,
                "cache_write": self.cache_write}


@dataclass(frozen=True, slots=True)
class Meta:
    """What the producer recorded about a message (an agent's log records it; chat templates do not)."""

    timestamp: str | None = None
    """When it was written, as the producer wrote it (ISO 8601)."""
    model: str | None = None
    stop_reason: str | None = None
    usage: Usage | None = None
    """The tokens of the API response this message belongs to, on the response's last message only, so that a
    sum over messages counts each response once."""
    response: str | None = None
    """The id of the API response (several messages may share one)."""
    duration_ms: int | None = None
    """On a tool reply: the time from its call to it."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"timestamp": self.timestamp, "model": self.model, "stop_reason": self.stop_reason,
                                "usage": self.usage.to_json() if self.usage else None, "response": self.response,
                                "duration_ms": self.duration_ms}
        return {key: value for key, value in data.items() if value is not None}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meta:
        usage = data.get("usage")
        return cls(timestamp=data.get("timestamp"), model=data.get("model"), stop_reason=data.get("stop_reason"),
                   usage=Usage(**usage) if usage else None, response=data.get("response"),
                   duration_ms=data.get("duration_ms"))


@dataclass(frozen=True, slots=True)
class Thread:
    """A conversation inside the transcript that a tool call started (a sub-agent's)."""

    id: str
    """The producer's name for it (Claude Code's `agentId`, or the uuid of its first line)."""
    call: int | None
    """The index of the call that started it; None when the log does not say which."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "call": self.call}


class Message(msgspec.Struct, frozen=True, gc=False):
    """One message of a transcript, whatever dialect it was written in."""

    index: int
    """Position in the transcript, from 0."""
    turn: int
    """Index of the source envelope it came from (one ChatML turn may give several messages)."""
    role: str
    """`system` `developer` `user` `assistant` `tool`, or the unknown word as written (with a diagnostic)."""
    content: str
    """The body as the author meant it: literal blocks unwrapped, `<<|` escapes resolved."""
    span: Span
    """`[start, end)` character offsets of the whole message in the source."""
    name: str | None = None
    """`name=` alias; for tool replies the tool's name (`functions.get_weather`)."""
    recipient: str | None = None
    """`to=` destination, wherever it was written."""
    channel: str = "final"
    """`analysis` `commentary` `final` (or the unknown word as written); `final` when absent."""
    channel_explicit: bool = False
    """Whether the source named the channel."""
    content_type: str | None = None
    """From `<|constrain|>`, `content_type=`, or a bare word after the channel."""
    constrained: bool = False
    """Whether `<|constrain|>` marked the content type."""
    intent: str | None = None
    """`preamble` `status` `debug`, `summary` (a moderated reasoning summary from an event log), `context` (text an
    agent wrote into a user's or developer's turn: command output, reminders, environment and instruction
    blocks), or none."""
    call_id: str | None = None
    """Tool-call correlation id from the header."""
    end: str = "end"
    """How it ended: `end` `call` `return`, or `eof` when the stream was cut."""
    segments: tuple[Segment, ...] = ()
    """Optional finer structure of the body."""
    header: Span | None = None
    """`[start, end)` of the raw header in the source (control tokens included), when there is one."""
    thread: str | None = None
    """The id of the sub-agent conversation (`Transcript.threads`) the message belongs to; None in the main one."""
    parent: int | None = None
    """The index of the message it follows in a tree-shaped log (an agent's `parentUuid`); None for the first
    message of a chain and in plain lists."""
    meta: Meta | None = None
    """What the producer recorded about it: time, model, stop reason, token usage."""
    aside: bool = False
    """On a branch of a tree-shaped log that the view does not follow (a rewind or an edit went another way):
    kept, hidden by default."""
    media: tuple[Media, ...] = ()
    """The inline images its parts carried, in source order (their placeholders stand in `content`)."""

    @property
    def is_call(self) -> bool:
        """An assistant message addressed to a tool."""
        return self.role == "assistant" and (self.end == "call" or is_tool_address(self.recipient))

    @property
    def is_reply(self) -> bool:
        """A tool's answer to a call."""
        return self.role == "tool"

    @property
    def tool_name(self) -> str | None:
        """The tool a call goes to or a reply comes from."""
        if self.is_call:
            return self.recipient
        if self.is_reply:
            return self.name
        return None

    def to_json(self) -> dict[str, Any]:
        data = {
            "index": self.index,
            "turn": self.turn,
            "role": self.role,
            "name": self.name,
            "recipient": self.recipient,
            "channel": self.channel,
            "channel_explicit": self.channel_explicit,
            "content_type": self.content_type,
            "constrained": self.constrained,
            "intent": self.intent,
            "call_id": self.call_id,
            "content": self.content,
            "end": self.end,
            "span": list(self.span),
        }
        if self.segments:
            data["segments"] = [segment.to_json() for segment in self.segments]
        if self.thread is not None:
            data["thread"] = self.thread
        if self.parent is not None:
            data["parent"] = self.parent
        if self.meta is not None:
            data["meta"] = self.meta.to_json()
        if self.aside:
            data["aside"] = True
        if self.media:
            data["media"] = [media.to_json() for media in self.media]
        return data


def is_tool_address(recipient: str | None) -> bool:
    """Whether a `to=` value names a tool."""
    return recipient is not None and recipient not in NON_TOOL_RECIPIENTS


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
        if self._lines is None:
            object.__setattr__(self, "_lines", LineIndex(self.source))  # a cache: the dataclass is frozen
        return self._lines.position(offset)

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
            return {"schema": DATASET_SCHEMA, "dialect": self.dialect,
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
