"""Write a Transcript as a Gemma raw prompt with FunctionGemma's tool blocks: `<bos>`, then
`<start_of_turn>role\\nbody<end_of_turn>\\n` turns (`model` for the assistant; system and developer turns are
written with their own role words, which the reader keeps, rather than folded into a user turn, where they would
show); a model turn starts with its calls (`<start_function_call>call:NAME{…}<end_function_call>`) and the replies
to them (`<start_function_response>response:NAME{…}<end_function_response>`), then the answer. A reply that no
model turn precedes is a user turn of its own. Arguments and JSON replies are written in FunctionGemma's notation
(strings between `<escape>` tokens).

Gemma has no reasoning (left out: as text it would show), channels, recipients, call ids, intents, content
types, names or `<|return|>`: each is reported (raw.py). A call whose tool is unknown is left out.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from viewer.model import Message, Transcript
from viewer.write.losses import Losses, Written
from viewer.write.names import function_name
from viewer.write.raw import Said, call_json, grouped, note_losses

SAID = Said.of("gemma")
REASONING = "gemma has no reasoning: it was left out, since as text it would read as the answer"
ROLE_WORD = "a gemma role is one word on the turn's first line: this role is written as 'unknown', hidden as it was"
REPLY_AS_JSON = "a FunctionGemma reply is written in its notation: this one reads back as its JSON, re-encoded"
REPLY_UNWRITABLE = ("a FunctionGemma reply is an object in its notation: this one is not, or holds what the "
                    "notation cannot write, and reads back as an object holding its text")
REPLY_NAME = "a FunctionGemma reply names its tool: this one has none, and is written as answering 'unknown'"
_UNESCAPABLE = re.compile(r"<end_of_turn>|<start_function_|<end_function_|<start_of_(?:image|audio)>"
                          r"|<(?:image|audio)_soft_token>|<escape>")
_BARE_KEY = re.compile(r"[^{}\[\],:<\s](?:[^{}\[\],:<]*[^{}\[\],:<\s])?")
_ROLE_WORD = re.compile(r"[^<>\s]{1,64}")
_CALL_NAME = re.compile(r"[^{\s<]+")


class Unwritable(ValueError):
    """A value FunctionGemma's notation cannot write so that it reads back the same."""


def notation(value: Any) -> str:
    """A JSON value in FunctionGemma's notation; Unwritable when it would not read back as itself."""
    if isinstance(value, str):
        if "<escape>" in value:
            raise Unwritable(value)
        return f"<escape>{value}<escape>"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        written = json.dumps(value)
        if written in ("NaN", "Infinity", "-Infinity"):
            raise Unwritable(written)
        return written
    if isinstance(value, list):
        return "[" + ",".join(notation(item) for item in value) + "]"
    if isinstance(value, dict):
        if not all(isinstance(key, str) and _BARE_KEY.fullmatch(key) for key in value):
            raise Unwritable(value)
        return "{" + ",".join(f"{key}:{notation(item)}" for key, item in value.items()) + "}"
    raise Unwritable(value)


def to_gemma(transcript: Transcript) -> Written:
    """The transcript as a Gemma raw prompt, and what Gemma could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(SAID.HEADER)
    turns = list(_turns(transcript.messages, losses))
    text = "".join(_turn(turn, losses, number == len(turns) - 1) for number, turn in enumerate(turns))
    return Written("<bos>" + text, losses.gathered())


def _turns(messages: tuple[Message, ...], losses: Losses) -> Iterator[list[Message]]:
    """A model turn: calls and the replies to them first, then at most one answer; other messages a turn each."""
    return grouped(_written(messages, losses), _joins)


def _written(messages: tuple[Message, ...], losses: Losses) -> Iterator[Message]:
    """The messages Gemma can write (it has no reasoning), each with what it loses noted."""
    for message in messages:
        if message.role == "assistant" and message.channel == "analysis" and not message.is_call:
            losses.add(REASONING, message.index)
            continue
        if message.is_call and message.recipient is None:
            losses.add(SAID.UNKNOWN_CALL, message.index)
            continue
        note_losses(message, losses, SAID, unescapable=_UNESCAPABLE, looks_like=lambda text: False, developer=True)
        yield message


def _joins(turn: list[Message], message: Message) -> bool:
    first, last = turn[0], turn[-1]
    if first.role != "assistant" or not (last.is_call or last.is_reply) or last.end == "eof":
        return False
    if message.is_call or message.is_reply:
        return True
    return message.role == "assistant" and bool(message.content.strip())  # a blank one would be no message


def _turn(turn: list[Message], losses: Losses, last_turn: bool) -> str:
    first, last = turn[0], turn[-1]
    role = {"assistant": "model", "tool": "user"}.get(first.role, first.role)
    if not _ROLE_WORD.fullmatch(role):
        losses.add(ROLE_WORD, first.index)
        role = "unknown"
    body = "".join(_block(message, losses) for message in turn)
    cut = last.end == "eof"
    if cut and not last_turn:
        losses.add(SAID.END, last.index)
    return f"<start_of_turn>{role}\n{body}" + ("" if cut and last_turn else "<end_of_turn>\n")


def _block(message: Message, losses: Losses) -> str:
    if message.is_call:
        name, arguments = call_json(message, losses, SAID)
        try:
            written = notation(arguments) if isinstance(arguments, dict) and _CALL_NAME.fullmatch(name) else None
        except Unwritable:
            written = None
        if written is None:
            losses.add(SAID.ARGUMENTS, message.index)
            written = "{}"
        return f"<start_function_call>call:{name}{written}<end_function_call>"
    if message.is_reply:
        return _reply(message, losses)
    return message.content


def _reply(message: Message, losses: Losses) -> str:
    name = function_name(message.name) if message.name else None
    if name is None or not _BARE_KEY.fullmatch(name) or "{" in name:
        losses.add(REPLY_NAME, message.index)
        name = "unknown"
    try:
        value = json.loads(message.content)
        written = notation(value) if isinstance(value, dict) else None
    except (ValueError, RecursionError, Unwritable):
        written = None
    if written is None:
        losses.add(REPLY_UNWRITABLE, message.index)
        written = "{value:" + notation(message.content.replace("<escape>", "")) + "}"
    else:
        losses.add(REPLY_AS_JSON, message.index)
    return f"<start_function_response>response:{name}{written}<end_function_response>"
