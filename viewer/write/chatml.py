"""Write a Transcript as ChatML the way the Qwen3 and Hermes chat templates write it: `<|im_start|>role\\nbody
<|im_end|>` turns, one line break between them; in an assistant turn, reasoning in `<think>…</think>`, the answer,
then each call as `<tool_call>\\n{"name": …, "arguments": …}\\n</tool_call>`; each tool reply a `tool` turn holding
`<tool_response>…</tool_response>`.

ChatML has no channels, recipients, call ids, intents, content types, developer role or `<|return|>`: each is
reported, not invented. Reasoning stays reasoning (`<think>`) and calls stay calls (recipient `functions.<name>`
read back from the call's name; arguments re-encoded as JSON, so spacing may change); a commentary that calls
nothing becomes part of the answer (`final`); replies pair with calls in order, and a reply's tool name survives
only when its JSON says it (`{"name": …}`). ChatML has no escape: a body holding its tokens or tags is reported
(it will not read back as written).
"""
from __future__ import annotations

import json
import re
from typing import Iterator

from viewer.model import Message, Transcript
from viewer.parse.common import qualified_tool_name
from viewer.write.losses import Losses, Written
from viewer.write.names import function_name

HEADER = "chatml has no YAML header: the header was left out"
DEVELOPER = "chatml has no developer role: written as system"
CHANNEL = "chatml has no channels: only reasoning (<think>), calls and replies keep theirs, the rest reads as final"
RECIPIENT = "chatml has no recipients except a call's tool: the recipient was left out"
CALL_ID = "chatml has no call ids: they were left out, and replies pair with calls in order"
INTENT = "chatml has no intents: they were left out"
CONTENT_TYPE = "chatml has no content types except a call's JSON: the content type was left out"
END = "chatml has one stop token: <|return|> (or a call's end) reads back as <|im_end|>"
ARGUMENTS = ("a <tool_call> carries a JSON object of arguments: these are not one, so the call reads back without "
             "its tool")
REPLY_NAME = "a <tool_response> names its tool only in its JSON: the reply's tool name was left out"
TOOL_ADDRESS = ("a <tool_call> names a function: this call's tool has no namespace, and reads back as "
                "functions.<its name>")
NAME = "a chatml name is one word without spaces: the name was left out"
BLANK = "a blank answer beside reasoning or calls is no message of its own in chatml: it was left out"
LAYOUT = "chatml skips the line breaks after </think>: those at the start of this answer were left out"
UNESCAPABLE = "chatml has no escape: this body holds chatml tokens or tags, and will not read back as written"

_TOKENS = r"<\|[a-z_]+\|>|\[(?:BOS|EOS)\]"
_READ_BY = {"assistant": re.compile(rf"{_TOKENS}|</?(?:think|tool_call|tool_response)>"),
            "user": re.compile(rf"{_TOKENS}|</?(?:tool_call|tool_response)>"),
            "tool": re.compile(rf"{_TOKENS}|</?(?:tool_call|tool_response)>")}
_ANY_ROLE = re.compile(_TOKENS)
_NAME = re.compile(r"[^\s<]+")
_LEADING_BREAK = re.compile(r"\r?\n")


def to_chatml(transcript: Transcript) -> Written:
    """The transcript as ChatML text, and what ChatML could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(HEADER)
    text = "".join(_turn(turn, losses) for turn in _turns(transcript.messages))
    return Written(text, losses.gathered())


def _turns(messages: tuple[Message, ...]) -> Iterator[list[Message]]:
    """Messages grouped into turns: consecutive assistant messages share one (reasoning, answer and calls), as
    long as no two answers meet (they would read back as one) and the name stays the same."""
    turn: list[Message] = []
    for message in messages:
        joins = (turn and message.role == "assistant" and turn[-1].role == "assistant"
                 and turn[-1].name == message.name and turn[-1].end != "eof"
                 and not (_kind(turn[-1]) == _kind(message) == "text"))
        if turn and not joins:
            yield turn
            turn = []
        turn.append(message)
    if turn:
        yield turn


def _kind(message: Message) -> str:
    if message.is_call:
        return "call"
    return "think" if message.channel == "analysis" else "text"


def _turn(turn: list[Message], losses: Losses) -> str:
    first, last = turn[0], turn[-1]
    for message in turn:
        _note_losses(message, losses)
    if first.role == "tool":
        body = f"<tool_response>\n{first.content}{_break(first.content)}</tool_response>"
    elif first.role == "assistant":
        body = _assistant_body(turn, losses)
    else:
        body = first.content
    role = "system" if first.role == "developer" else first.role
    header = f"{role} name={first.name}" if first.name and role != "tool" and _NAME.fullmatch(first.name) else role
    # The envelope drops one line break before its closing token (or the end of the input): keep a body's own.
    closing = _break(body) if last.end == "eof" else ("\n" if body.endswith("\n") else "") + "<|im_end|>\n"
    return f"<|im_start|>{header}\n{body}{closing}"


def _assistant_body(turn: list[Message], losses: Losses) -> str:
    _note_layout_losses(turn, losses)
    parts = []
    for number, message in enumerate(turn):
        kind = _kind(message)
        if kind == "think":
            # Templates put `</think>` two line breaks before the answer; the reader skips them.
            parts.append(f"<think>\n{message.content}{_break(message.content)}</think>\n\n")
            continue
        parts.append(_call(message, losses) if kind == "call" else message.content)
        if number + 1 < len(turn):
            parts.append(_break(parts[-1]))  # the reader drops one line break before the next block
    return "".join(parts)


def _note_layout_losses(turn: list[Message], losses: Losses) -> None:
    """What the reader's layout rules take from an answer beside other blocks: all of a blank one, and the line
    breaks that open one after `</think>`."""
    for number, message in enumerate(turn):
        if _kind(message) != "text" or len(turn) == 1:
            continue
        if not message.content.strip():
            losses.add(BLANK, message.index)
        elif number and _kind(turn[number - 1]) == "think" and _LEADING_BREAK.match(message.content):
            losses.add(LAYOUT, message.index)


def _break(text: str) -> str:
    """The line break that lays out a block after `text`, which the reader drops: after a carriage return, a
    lone line feed would make a CRLF with it and take it along."""
    return "\r\n" if text.endswith("\r") else "\n"


def _call(message: Message, losses: Losses) -> str:
    if message.recipient is None:
        return f"<tool_call>\n{message.content}\n</tool_call>"  # a call of an unknown tool reads back as one
    try:
        arguments = json.loads(message.content)
    except (ValueError, RecursionError):
        arguments = message.content
    if not isinstance(arguments, dict):
        losses.add(ARGUMENTS, message.index)
    name = function_name(message.recipient)
    if name is None:
        losses.add(TOOL_ADDRESS, message.index)
        name = message.recipient
    return f"<tool_call>\n{json.dumps({'name': name, 'arguments': arguments}, ensure_ascii=False)}\n</tool_call>"


def _note_losses(message: Message, losses: Losses) -> None:
    index = message.index
    expected_channel = "commentary" if message.is_call or message.is_reply else (
        "analysis" if message.role == "assistant" and message.channel == "analysis" else "final")
    checks = ((message.role == "developer", DEVELOPER), (message.channel != expected_channel, CHANNEL),
              (message.call_id is not None, CALL_ID), (message.intent is not None, INTENT),
              (message.recipient not in (None, "assistant") and not message.is_call, RECIPIENT),
              (message.recipient == "assistant" and not message.is_reply, RECIPIENT),
              (message.content_type not in (None, "json") and not message.is_reply, CONTENT_TYPE),
              (message.end == "return" or (message.end == "end" and message.is_call), END),
              (message.name is not None and not message.is_reply and not _NAME.fullmatch(message.name), NAME),
              (message.is_reply and message.name is not None and _reply_name(message) != message.name, REPLY_NAME),
              (bool(_READ_BY.get(message.role, _ANY_ROLE).search(message.content)), UNESCAPABLE))
    for applies, what in checks:
        if applies:
            losses.add(what, index)


def _reply_name(message: Message) -> str | None:
    """The tool name a reply reads back with: its JSON's `name`, if it has one."""
    try:
        value = json.loads(message.content)
    except (ValueError, RecursionError):
        return None
    name = value.get("name") if isinstance(value, dict) else None
    return qualified_tool_name(name) if isinstance(name, str) and name else None
