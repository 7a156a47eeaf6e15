"""Write a Transcript as a DeepSeek raw prompt, the way the V3.1 chat template writes it: `<｜begin▁of▁sentence｜>`
and the system prompt, `<｜User｜>` turns, `<｜Assistant｜>` turns ended by `<｜end▁of▁sentence｜>` holding the
reasoning first (`<think>\\n…\\n</think>`), then the answer and the calls (`<｜tool▁calls▁begin｜>`, one
`<｜tool▁call▁begin｜>name<｜tool▁sep｜>arguments<｜tool▁call▁end｜>` each), and each tool reply as a
`<｜tool▁output▁begin｜>…<｜tool▁output▁end｜>`.

The system prompt has one place, after the BOS token: system messages there are joined by a blank line, as the
templates join them, and a later one is left out (it stays hidden). DeepSeek has no roles but these, no channels
but reasoning, no recipients, call ids, intents, content types, names or `<|return|>`: each is reported (raw.py).
A call whose tool is unknown is left out. Replies pair with calls in order.
"""
from __future__ import annotations

import json
import re
from typing import Iterator

from viewer.model import Message, Transcript
from viewer.parse.templates.deepseek import (ASSISTANT, BOS, CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, EOS,
                                             OUTPUT_BEGIN, OUTPUT_END, SEPARATOR, USER)
from viewer.write.losses import Losses, Written
from viewer.write.raw import Said, call_json, grouped, note_losses, thought

SAID = Said.of("deepseek")
LATE_SYSTEM = "deepseek writes the system prompt only at the start: this system message was left out"
JOINED_SYSTEM = "deepseek has one system prompt: the system messages at the start were written as one"
JOINED_INTO = "deepseek has one system prompt: this system message was joined into the first by a blank line"
OTHER_ROLE = "deepseek has only system, user, assistant and tool turns: this message was left out"
BLANK_SYSTEM = "a blank system prompt is no message in deepseek: it was left out"
UNPLACED = ("deepseek ends a user turn (or the system prompt) only with the assistant's: this message cannot follow "
            "it and was left out")
_UNESCAPABLE = re.compile("<\uff5c[^\uff5c]{1,40}\uff5c>")
_LOOKS_LIKE = re.compile(r"\s*</?think>")
_ROLES = ("system", "developer", "user", "assistant", "tool")


def to_deepseek(transcript: Transcript) -> Written:
    """The transcript as a DeepSeek raw prompt, and what DeepSeek could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(SAID.HEADER)
    messages = list(transcript.messages)
    systems = []
    while messages and messages[0].role in ("system", "developer"):
        systems.append(messages.pop(0))
    if len(systems) > 1:
        losses.add(JOINED_SYSTEM, systems[0].index)
        for message in systems[1:]:
            losses.add(JOINED_INTO, message.index)
    for message in systems:
        note_losses(message, losses, SAID, unescapable=_UNESCAPABLE, looks_like=_looks_like)
    system = "\n\n".join(message.content for message in systems)
    if systems and not system.strip():
        system = ""
        for message in systems:
            losses.add(BLANK_SYSTEM, message.index)
    parts = [BOS, system]
    turns = list(_turns(messages, losses, "system" if system else None))
    parts += [_turn(turn, losses, number == len(turns) - 1) for number, turn in enumerate(turns)]
    return Written("".join(parts), losses.gathered())


def _looks_like(text: str) -> bool:
    return bool(_LOOKS_LIKE.match(text))


def _turns(messages: list[Message], losses: Losses, before: str | None) -> Iterator[list[Message]]:
    """An assistant turn is its reasoning, then answer and calls (the calls last); every other message is a turn
    of its own. Messages DeepSeek cannot place are left out: only an answer ends a user turn or the system prompt
    (`before` says which of them the text starts in)."""
    return grouped(_written(messages, losses, before), _joins)


def _written(messages: list[Message], losses: Losses, before: str | None) -> Iterator[Message]:
    """The messages DeepSeek can write, each with what it loses noted."""
    open_ended = before  # the role of the last message written: the turn that is still open
    for message in messages:
        if open_ended in ("user", "system") and message.role in ("user", "tool"):
            losses.add(UNPLACED, message.index)
            continue
        if message.role in ("system", "developer") or message.role not in _ROLES:
            losses.add(LATE_SYSTEM if message.role in ("system", "developer") else OTHER_ROLE, message.index)
            continue
        if message.is_call and message.recipient is None:
            losses.add(SAID.UNKNOWN_CALL, message.index)
            continue
        note_losses(message, losses, SAID, unescapable=_UNESCAPABLE, looks_like=_looks_like)
        if _is_thought(message) and "</think>" in message.content:
            losses.add(SAID.UNESCAPABLE, message.index)
        open_ended = message.role
        yield message


def _is_thought(message: Message) -> bool:
    return message.role == "assistant" and message.channel == "analysis" and not message.is_call


def _joins(turn: list[Message], message: Message) -> bool:
    last = turn[-1]
    if message.role != "assistant" or last.role != "assistant" or last.end == "eof" or _is_thought(message):
        return False
    if message.is_call:  # after reasoning, an answer that is not blank (it would be no message), or calls
        return last.is_call or _is_thought(last) or bool(last.content.strip())
    # One answer per turn, before any call, and not blank beside reasoning (it would be no message).
    return not last.is_call and _is_thought(last) and len(turn) == 1 and bool(message.content.strip())


def _turn(turn: list[Message], losses: Losses, last_turn: bool) -> str:
    first, last = turn[0], turn[-1]
    cut = last.end == "eof"
    if cut and not last_turn:
        losses.add(SAID.END, last.index)
    if first.role == "user":
        return USER + first.content
    if first.role == "tool":
        return OUTPUT_BEGIN + first.content + ("" if cut and last_turn else OUTPUT_END)
    parts = [ASSISTANT]
    parts += [thought(message.content) for message in turn if _is_thought(message)]
    parts += [message.content for message in turn if not message.is_call and not _is_thought(message)]
    calls = [message for message in turn if message.is_call]
    if calls:
        written = []
        for call in calls:
            name, arguments = call_json(call, losses, SAID)
            written.append(f"{CALL_BEGIN}{name}{SEPARATOR}{json.dumps(arguments, ensure_ascii=False)}{CALL_END}")
        parts.append(CALLS_BEGIN + "".join(written) + CALLS_END)
    return "".join(parts) + ("" if cut and last_turn else EOS)
