"""Write a Transcript as OpenAI chat messages: `{"messages": [...]}` (a dataset: one such object per line, as
fine-tuning files are written).

An assistant turn is one object: `reasoning_content` for its reasoning (the field DeepSeek's API and vLLM's
reasoning parsers write, and the one every reader of this shape knows; OpenAI's own chat API returns no
reasoning), `content` for its answer, `tool_calls` for its calls (`{"id", "type": "function", "function":
{"name", "arguments"}}`); a tool reply is `{"role": "tool", "tool_call_id", "name", "content"}`. A turn's parts
stay in that order, so an answer before its reasoning starts a new object.

OpenAI messages have no channels besides that reasoning field, no recipients besides a call's function, no
intents, content types, stop tokens or YAML header: each is reported, not invented. Every call needs an id:
one without is given `call_<index>`, shared with the reply paired to it (reported too). The header's keys are
written beside `messages`, but those by which another format is detected (an ATIF trajectory's
`schema_version`, a mini-swe-agent trajectory's `trajectory_format`), which would make the file read as that
format again: they are left out and reported.
"""
from __future__ import annotations

import json
from typing import Any

from viewer import formats
from viewer.formats import AnyJson, JsonKeys, JsonLines
from viewer.model import Message, Transcript
from viewer.parse.detect import detect
from viewer.parse.json.conversation import ENVELOPE_KEYS
from viewer.parse.json.think import CLOSE, OPEN
from viewer.write.losses import Losses, Written
from viewer.write.names import function_name

HEADER_KEY = "openai-json reads these header keys as part of the conversation: they were left out"
FOREIGN_KEY = ("some header keys are how another format is told apart (an ATIF trajectory's schema_version): "
               "written, they would make the file read as that format, so they were left out")
TOOL_ADDRESS = ("a call names a function: this call's tool has no namespace, and reads back as "
                "functions.<its name>")
EMPTY_REASONING = "openai-json readers skip an empty reasoning_content: this empty reasoning was left out"
CHANNEL = ("openai-json has no channels besides reasoning_content: commentary and other channels read back as "
           "the answer (final)")
RECIPIENT = "openai-json has no recipients besides a call's function: the recipient was left out"
INTENT = "openai-json has no intents: they were left out"
CONTENT_TYPE = "openai-json has no content types besides a call's JSON arguments: the content type was left out"
END = "openai-json has no stop tokens: <|return|> and a cut-off end read back as a plain end"
MADE_UP_IDS = "openai-json needs an id on every tool call: calls without one were given call_<index>"
THINK_TAGS = "this answer holds <think> tags, which readers of openai-json take for reasoning"

_REASONING, _ANSWER, _CALLS = 1, 2, 3
"""Where a message goes in an assistant object, in the order readers take them out."""


def to_openai_json(transcript: Transcript) -> Written:
    """The transcript as OpenAI chat JSON (JSON Lines for a dataset), and what the shape could not express."""
    losses = Losses()
    if transcript.conversations:
        lines = [_conversation(conversation, losses, line=True) for conversation in transcript.conversations]
        return Written("".join(line + "\n" for line in lines), losses.gathered())
    return Written(_conversation(transcript, losses, line=False) + "\n", losses.gathered())


def _conversation(transcript: Transcript, losses: Losses, line: bool) -> str:
    """The conversation object (on one line of JSON Lines, or indented): the header's keys (`model`,
    `temperature` …) as readers take them back, the messages, and the declared tools.

    An agent's session carries its own format's marks in its header (ATIF's `schema_version`): written beside
    `messages`, they would make the file read as that format again, its messages unread. So while the text does
    not read as chat JSON, the header keys of one way of detecting the format it reads as go (the whole header,
    if no way names one of them), and it is written again."""
    header: dict[str, Any] = {}
    for key, value in transcript.header.items():
        if key in ENVELOPE_KEYS:
            losses.add(HEADER_KEY)
        else:
            header[str(key)] = value
    body: dict[str, Any] = {"messages": _objects(transcript, losses)}
    if transcript.tools:
        body["tools"] = [{"type": "function", "function": {"name": function_name(address) or address,
                                                           "parameters": parameters}}
                         for address, parameters in transcript.tools.items()]
    while True:
        text = json.dumps({**header, **body}, ensure_ascii=False, default=str, indent=None if line else 2)
        found = _READ_AS if not header else detect(text)  # detection reads a line of JSON Lines alone
        if found == _READ_AS:
            return text
        marks = next((keys for keys in _marks(found) if keys.intersection(header)), set(header))
        losses.add(FOREIGN_KEY)
        header = {key: value for key, value in header.items() if key not in marks}


_READ_AS = next(dialect.name for dialect, _ in formats.detected_by(AnyJson))
"""The dialect openai-json reads back as: plain chat JSON."""


def _marks(dialect: str) -> list[set[str]]:
    """The top-level keys each way of detecting the dialect looks for (but the ones this writer writes)."""
    found = []
    for way in formats.dialect(dialect).detection:
        if isinstance(way, JsonKeys):
            found.append({*way.keys, *way.objects, *way.arrays})
        elif isinstance(way, JsonLines):
            found += [{"type", "event", *line.with_any, *line.with_all, *line.objects} for line in way.lines]
    return [keys - {"messages", "tools"} for keys in found]


def _objects(transcript: Transcript, losses: Losses) -> list[dict[str, Any]]:
    ids = _call_ids(transcript, losses)
    objects: list[dict[str, Any]] = []
    assistant: dict[str, Any] | None = None
    filled = 0
    for message in transcript.messages:
        _note_losses(message, losses)
        # Readers keep an empty answer only in an object that holds nothing else.
        if message.role != "assistant" or (_slot(message) == _ANSWER and not message.content):
            assistant = None
            objects.append(_other(message, ids.get(message.index)))
            continue
        slot = _slot(message)
        if slot == _REASONING and not message.content:
            continue  # readers skip it (a loss noted above): an object of it alone would read as an empty answer
        if assistant is None or slot < filled or (slot == filled != _CALLS) or assistant.get("name") != message.name:
            assistant = {"role": "assistant", **({"name": message.name} if message.name else {}), "content": None}
            objects.append(assistant)
        _fill(assistant, slot, message, ids.get(message.index))
        filled = slot
    return objects


def _slot(message: Message) -> int:
    if message.is_call:
        return _CALLS
    return _REASONING if message.channel == "analysis" else _ANSWER


def _fill(assistant: dict[str, Any], slot: int, message: Message, call_id: str | None) -> None:
    if slot == _REASONING:
        assistant["reasoning_content"] = message.content
    elif slot == _ANSWER:
        assistant["content"] = message.content
    else:
        name = function_name(message.recipient) or message.recipient if message.recipient else ""
        call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": message.content}}
        assistant.setdefault("tool_calls", []).append(call)


def _other(message: Message, call_id: str | None) -> dict[str, Any]:
    """A system, developer, user or tool message (or one of an unknown role, kept as written)."""
    data: dict[str, Any] = {"role": message.role}
    if message.role == "tool" and call_id:
        data["tool_call_id"] = call_id
    if message.name:
        data["name"] = message.name
    data["content"] = message.content
    return data


def _call_ids(transcript: Transcript, losses: Losses) -> dict[int, str]:
    """The id of every call and of every reply that has or is paired with one: its own, its partner's, or made
    up from the call's index."""
    messages = transcript.messages
    ids = {message.index: message.call_id for message in messages if message.call_id}
    for pair in transcript.pairs:
        shared = ids.get(pair.call) or ids.get(pair.reply)
        if shared is None:
            shared = f"call_{pair.call}"
            losses.add(MADE_UP_IDS, pair.call)
        ids.setdefault(pair.call, shared)
        ids.setdefault(pair.reply, shared)
    for message in messages:
        if message.is_call and message.index not in ids:
            ids[message.index] = f"call_{message.index}"
            losses.add(MADE_UP_IDS, message.index)
    return ids


def _note_losses(message: Message, losses: Losses) -> None:
    reasoning = message.role == "assistant" and message.channel == "analysis" and not message.is_call
    expected_channel = "commentary" if message.is_call or message.is_reply else (
        "analysis" if reasoning else "final")
    checks = ((message.channel != expected_channel, CHANNEL), (message.intent is not None, INTENT),
              (message.recipient not in (None, "assistant") and not message.is_call, RECIPIENT),
              (message.recipient == "assistant" and not message.is_reply, RECIPIENT),
              (message.content_type not in (None, "json"), CONTENT_TYPE),
              (message.end in ("return", "eof"), END),
              (message.is_call and message.recipient is not None and function_name(message.recipient) is None,
               TOOL_ADDRESS),
              (reasoning and not message.content, EMPTY_REASONING),
              (message.role == "assistant" and not reasoning and not message.is_call
               and (OPEN in message.content or CLOSE in message.content), THINK_TAGS))
    for applies, what in checks:
        if applies:
            losses.add(what, message.index)
