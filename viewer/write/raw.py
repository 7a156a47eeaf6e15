"""What the writers of raw prompt templates share (llama3.py, phi.py, deepseek.py): the model fields no such
template can carry, reported in one sentence per kind with the family's name, and a call's name and arguments
as its JSON writes them."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from viewer.model import Message
from viewer.write.losses import Losses
from viewer.write.names import function_name

_SENTENCES = {
    "HEADER": "{family} has no YAML header: the header was left out",
    "DEVELOPER": "{family} has no developer role: written as system",
    "CHANNEL": "{family} has no channels: only reasoning, calls and replies keep theirs, the rest reads as final",
    "RECIPIENT": "{family} has no recipients except a call's tool: the recipient was left out",
    "CALL_ID": "{family} has no call ids: they were left out, and replies pair with calls in order",
    "INTENT": "{family} has no intents: they were left out",
    "CONTENT_TYPE": "{family} has no content types except a call's JSON: the content type was left out",
    "NAME": "{family} has no names: the name was left out",
    "END": "{family} has one way to end a turn: <|return|> or a cut before the end reads back as a whole turn",
    "ARGUMENTS": "a {family} call carries a JSON object of arguments: these are not one, so the call reads back "
                 "without its tool",
    "TOOL_ADDRESS": "a {family} call names a function: this call's tool has no namespace, and reads back as "
                    "functions.<name>",
    "TRIMMED": "{family} bodies lose their blank edges: this one reads back without them",
    "UNKNOWN_CALL": "{family} cannot write a call of an unknown tool: it was left out (its arguments are not an "
                    "answer)",
    "UNESCAPABLE": "{family} has no escape: this body holds the family's tokens, and will not read back as written",
    "LOOKS_LIKE": "this answer starts as {family} reasoning or a call does, and will read back as one",
}


@dataclass(frozen=True, slots=True)
class Said:
    """The loss sentences of one family: `Said.of("phi").CALL_ID` is "phi has no call ids: …"."""

    HEADER: str
    DEVELOPER: str
    CHANNEL: str
    RECIPIENT: str
    CALL_ID: str
    INTENT: str
    CONTENT_TYPE: str
    NAME: str
    END: str
    ARGUMENTS: str
    TOOL_ADDRESS: str
    TRIMMED: str
    UNKNOWN_CALL: str
    UNESCAPABLE: str
    LOOKS_LIKE: str

    @classmethod
    def of(cls, family: str) -> Said:
        return cls(**{key: sentence.format(family=family) for key, sentence in _SENTENCES.items()})


def note_losses(message: Message, losses: Losses, said: Said, *, unescapable: re.Pattern[str],
                looks_like: Callable[[str], bool], developer: bool = False, call_ids: bool = False) -> None:
    """The losses every raw template has for this message (reasoning, calls and replies are its own);
    `developer` when the family has that role (FunctionGemma), `call_ids` when its calls and results carry ids
    (Mistral)."""
    index, content = message.index, message.content
    analysis = message.role == "assistant" and message.channel == "analysis" and not message.is_call
    plain = not message.is_call and not message.is_reply and not analysis
    checks = ((message.role == "developer" and not developer, said.DEVELOPER),
              (plain and message.channel != "final", said.CHANNEL),
              (message.call_id is not None and not (call_ids and (message.is_call or message.is_reply)),
               said.CALL_ID),
              (message.intent is not None, said.INTENT),
              (message.recipient not in (None, "assistant") and not message.is_call, said.RECIPIENT),
              (message.recipient == "assistant" and not message.is_reply, said.RECIPIENT),
              (message.content_type not in (None, "json") and not message.is_reply, said.CONTENT_TYPE),
              (message.name is not None, said.NAME),
              (message.end == "return", said.END),
              (bool(unescapable.search(content)), said.UNESCAPABLE),
              (plain and message.role == "assistant" and looks_like(content), said.LOOKS_LIKE),
              (not message.is_call and not analysis and content != content.strip(), said.TRIMMED))
    for applies, what in checks:
        if applies:
            losses.add(what, index)


def grouped(messages: Iterable[Message], joins: Callable[[list[Message], Message], bool]) -> Iterator[list[Message]]:
    """Consecutive messages as the turns a template writes: each message joins the turn before it when `joins`
    says so, and starts a turn of its own otherwise."""
    turn: list[Message] = []
    for message in messages:
        if turn and joins(turn, message):
            turn.append(message)
            continue
        if turn:
            yield turn
        turn = [message]
    if turn:
        yield turn


def thought(content: str) -> str:
    """Reasoning as `<think>` blocks write it: a line break after the opener and before the closer, which the
    reader drops (after a carriage return, a CRLF, so that the return stays the text's)."""
    return "<think>\n" + content + ("\r\n" if content.endswith("\r") else "\n") + "</think>"


def call_json(message: Message, losses: Losses, said: Said) -> tuple[str, Any]:
    """The function name and the arguments to write for a call (its recipient is known)."""
    try:
        arguments = json.loads(message.content)
    except (ValueError, RecursionError):
        arguments = message.content
    if not isinstance(arguments, dict):
        losses.add(said.ARGUMENTS, message.index)
    recipient = message.recipient or ""
    name = function_name(recipient)
    if name is None:
        losses.add(said.TOOL_ADDRESS, message.index)
        name = recipient
    return name, arguments
