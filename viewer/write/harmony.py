"""Write a Transcript as raw Harmony, the way openai-harmony renders it: no YAML header, no whitespace between
messages, `<|start|>author[ to=recipient]<|channel|>channel[ type | <|constrain|>type]<|message|>body` and the
stop token from `end` (none for `eof`). A tool replying is its own author (`functions.get_weather to=assistant`),
a named author is `user:alice`.

What Harmony cannot say is reported, not invented: the YAML header; call ids (Harmony pairs a reply with the
earliest unanswered call to its tool); intents (openai-harmony reads `intent=preamble` as a recipient; raw
Harmony shows a recipient-less commentary as a preamble anyway); names a role word cannot carry; and control
tokens inside a body, which Harmony cannot escape: they are written with OpenChatML 2.2's `<<|`, which this
viewer reads back as text and other Harmony readers do not.
"""
from __future__ import annotations

import re

from msgspec.structs import replace as replace_fields

from viewer import formats
from viewer.model import ROLES, Message, Transcript
from viewer.parse.harmony.header import TOOL_AUTHOR_PREFIXES
from viewer.parse.harmony.tokens import CHANNEL, CONSTRAIN, MESSAGE, START
from viewer.write.losses import Losses, Written
from viewer.write.openchatml import STOP_TOKENS, escaped_body

HEADER = "harmony has no YAML header: the header was left out"
CALL_ID = "harmony has no call ids: they were left out, and replies pair with calls by tool name"
INTENT = "harmony has no intents: they were left out (a recipient-less commentary reads as a preamble)"
NAME = "harmony cannot write this name as part of the role word: it was left out"
ESCAPED = ("harmony has no escape for control tokens in a body: they were written as OpenChatML 2.2's <<| "
           "(other Harmony readers keep the extra <)")
SPELLED = ("a body spells a control token: the model received it as ordinary text, which looks the same here as "
           "the token")

_WORD = re.compile(r"[^\s=:<]+")
"""What a role word or a name may be to read back as itself: no space, no `=` (an attribute), no `:` (the
alias separator) and no `<` (a token)."""


def to_harmony(transcript: Transcript, as_received: bool = False) -> Written:
    """The transcript as raw Harmony text, and what Harmony could not express. With `as_received`, bodies are
    written as the model received them: openai-harmony renders a body's text as ordinary tokens, so a control
    token spelled in it was text to the model and is not escaped (which this text cannot show: it is reported)."""
    losses = Losses()
    if transcript.header:
        losses.add(HEADER)
    record = formats.find(transcript.dialect)
    channels_read = record is not None and record.channels_written
    text = "".join(_message(message, losses, channels_read, as_received) for message in transcript.messages)
    return Written(text, losses.gathered())


def as_received(transcript: Transcript) -> Written:
    """`to_harmony(transcript, as_received=True)`: what the model read (viewer.context.text)."""
    return to_harmony(transcript, as_received=True)


def as_history(message: Message) -> Message:
    """`message` as openai-harmony's `render_conversation` writes an earlier message for the model to read:
    `<|call|>` after an assistant's message to a recipient and `<|end|>` after every other, whatever the log
    ended it with (`<|return|>` is only ever sampled, gpt-oss is trained to see `<|end|>` there; a message cut
    short is closed); `to=all` (everyone) is not written."""
    end = "call" if message.role == "assistant" and message.recipient else "end"
    recipient = None if message.recipient == "all" else message.recipient
    if (end, recipient) == (message.end, message.recipient):
        return message
    return replace_fields(message, end=end, recipient=recipient)


def _message(message: Message, losses: Losses, channels_read: bool, as_received: bool) -> str:
    if message.call_id:
        losses.add(CALL_ID, message.index)
    if message.intent:
        losses.add(INTENT, message.index)
    if "<|" in message.content or message.content.endswith("<"):
        losses.add(SPELLED if as_received else ESCAPED, message.index)
    author = _author(message, losses)
    recipient = f" to={message.recipient}" if message.recipient else ""
    # A role word the reader does not know, followed by more words, would read as a tool speaking (HARMONY.md):
    # its recipient goes after the channel, where it means the same.
    known = message.role in ROLES
    start = f"{START}{author}{recipient if known else ''}"
    body = message.content if as_received else escaped_body(message.content)
    return (f"{start}{_channel(message, '' if known else recipient, channels_read)}{MESSAGE}{body}"
            f"{STOP_TOKENS.get(message.end, '')}")


def _author(message: Message, losses: Losses) -> str:
    """The role word: `functions.get_weather` for a tool speaking as itself, `user:alice` for a named author."""
    name = message.name
    if not name:
        return message.role
    if not _WORD.fullmatch(name):
        losses.add(NAME, message.index)
        return message.role
    if message.role == "tool" and name not in ROLES and (message.recipient or name.startswith(TOOL_AUTHOR_PREFIXES)):
        return name  # read back as a tool because words follow it, or by its namespace
    if message.role in ROLES:
        return f"{message.role}:{name}"
    losses.add(NAME, message.index)
    return message.role


def _channel(message: Message, extra: str, channels_read: bool) -> str:
    """`<|channel|>` and what follows it: any attributes that could not stand after the role, and the content
    type (a bare word is a hint, `<|constrain|>` binds). The channel is left out where openai-harmony writes
    none: a message on the implied `final` channel, except an assistant's from a dialect without channels
    (gpt-oss writes a channel on every message of its own; one read from Harmony without a channel stays
    without). The content type then follows the recipient, as openai-harmony writes it (`to=python code`), but
    a bare one with no recipient before it needs the channel to read back as a content type."""
    content_type = _content_type(message)
    if (message.role == "assistant" and not channels_read or message.channel_explicit or message.channel != "final"
            or extra or content_type and not (message.recipient or message.constrained)):
        return f"{CHANNEL}{message.channel}{extra}{content_type}"
    return content_type


def _content_type(message: Message) -> str:
    if not message.content_type:
        return ""
    return f" {CONSTRAIN}{message.content_type}" if message.constrained else f" {message.content_type}"
