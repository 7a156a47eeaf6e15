"""Write a Transcript of any dialect as canonical OpenChatML 2.2 text.

Canonical means: a YAML header (`version: 2.2` first, the transcript's other header keys after it) between
`---` fences; one message a line; attributes in the start header in the order of the 2.2 grammar (§6);
`<|channel|>` always; `<|constrain|>` for a binding content type, `content_type=` for a hint; the stop token
from `end` (none for `eof`); bodies escaped with `<<|`. `parse(to_openchatml(t))` gives back every message's
role, name, recipient, channel, content type, intent, call id, content and end, but for one thing the grammar
cannot say: an attribute's value is one word, so a value of several (an agent's `name=system reminder`) is
written with `_` for its blanks (`one_word`), and the converter reports it.
"""
from __future__ import annotations

import re
from typing import Any

import yaml

from viewer.model import ROLES, Message, Transcript
from viewer.parse.harmony.tokens import CHANNEL, CONSTRAIN, ENDLITERAL, LITERAL, MESSAGE, START, escape
from viewer.write.losses import Losses, Written

STOP_TOKENS = {"end": "<|end|>", "call": "<|call|>", "return": "<|return|>", "eof": ""}
ATTRIBUTES = ("recipient", "call_id", "name", "intent", "content_type")
"""The fields written as `key=value` attributes (the 2.2 grammar's `to`, `call_id`, `name`, `intent`,
`content_type`)."""
WORDS = ("openchatml writes an attribute's value (a name, a recipient …) as one word: values of several words were "
         "written with _ for their blanks")
_NOT_IN_A_WORD = re.compile(r"\s+|<+(?=\|)")
"""What ends an attribute's word when the header is read: blanks, and the `<` of a control token."""


def to_openchatml_written(transcript: Transcript) -> Written:
    """`to_openchatml` as every writer answers: OpenChatML 2.2 expresses everything but an attribute's value of
    several words."""
    losses = Losses()
    return Written(to_openchatml(transcript, losses), losses.gathered())


def one_word(value: str) -> str:
    """An attribute's value as it is written: its blanks (and a `<` that would open a control token) as `_`,
    none at its edges."""
    return _NOT_IN_A_WORD.sub("_", value.strip())


def to_openchatml(transcript: Transcript, losses: Losses | None = None) -> str:
    """The transcript as OpenChatML 2.2 text (the values written as one word noted in `losses`)."""
    for message in transcript.messages:
        if losses is not None and any(_value(message, field) != getattr(message, field) for field in ATTRIBUTES):
            losses.add(WORDS, message.index)
    parts = [_yaml_header(transcript.header)]
    for message in transcript.messages:
        parts.append(_message(message))
        # A separator after a message with no stop token would become part of its body.
        if message.end != "eof":
            parts.append("\n")
    return "".join(parts)


def _yaml_header(header: dict[str, Any]) -> str:
    values = {"version": 2.2, **{key: value for key, value in header.items() if key != "version"}}
    return "---\n" + yaml.safe_dump(values, sort_keys=False, allow_unicode=True) + "---\n"


def _message(message: Message) -> str:
    attributes = _attributes(message)
    # An unknown role word followed by more words would read back as a tool author (HARMONY.md), so its
    # attributes go after the channel, where they mean the same.
    role_is_known = message.role in ROLES
    start = f"{START}{message.role}{attributes if role_is_known else ''}"
    channel = f"{CHANNEL}{message.channel}{'' if role_is_known else attributes}"
    content_type = _value(message, "content_type")
    constrain = f"{CONSTRAIN}{content_type}" if message.constrained and content_type else ""
    return f"{start}{channel}{constrain}{MESSAGE}{escaped_body(message.content)}{STOP_TOKENS.get(message.end, '')}"


def _attributes(message: Message) -> str:
    content_type = None if message.constrained else _value(message, "content_type")
    pairs = (("to", _value(message, "recipient")), ("call_id", _value(message, "call_id")),
             ("name", _value(message, "name")), ("intent", _value(message, "intent")), ("content_type", content_type))
    return "".join(f" {key}={value}" for key, value in pairs if value)


def _value(message: Message, field: str) -> str | None:
    """A field written as an attribute, as one word (None: not written)."""
    value = getattr(message, field)
    return one_word(value) or None if value else value


def escaped_body(content: str) -> str:
    """The content with every `<|` escaped. A body that ends in `<` would glue onto the stop token (`<` +
    `<|end|>` reads as an escaped `<|end|>`), so its trailing `<`s go into a literal block, whose own newlines
    keep them apart from `<|endliteral|>`."""
    stripped = content.rstrip("<")
    if stripped == content:
        return escape(content)
    return f"{escape(stripped)}{LITERAL}\n{content[len(stripped):]}\n{ENDLITERAL}"
