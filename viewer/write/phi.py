"""Write a Transcript as a Phi raw prompt, the way the Phi-4-mini (and 4-mini-reasoning) chat template writes it:
`<|role|>body<|end|>` turns for system, user, assistant and tool; an assistant turn holds its reasoning first
(`<think>\\n…\\n</think>`), then an answer or its calls as one `<|tool_call|>[{"name", "arguments"}, …]<|/tool_call|>`
list. A role Phi-4-mini has no token for is written in Phi-4's spelling, `<|im_start|>role<|im_sep|>…<|im_end|>`.

Phi has no channels but reasoning, recipients, call ids, intents, content types, names, developer role or
`<|return|>`: each is reported (raw.py). A call whose tool is unknown is left out. Replies pair in order.
"""
from __future__ import annotations

import json
import re
from typing import Iterator

from viewer.model import Message, Transcript
from viewer.write.losses import Losses, Written
from viewer.write.raw import Said, call_json, grouped, note_losses, thought

SAID = Said.of("phi")
ROLE_WORD = "a phi role is one word: this role is written as 'unknown', hidden as it was"
_UNESCAPABLE = re.compile(r"<\|(?:end|im_end)\|>")
_LOOKS_LIKE = re.compile(r"\s*(?:<think>|<\|tool_call\|>)")
_TOKEN_ROLES = {"system", "user", "assistant", "tool"}
_ROLE_WORD = re.compile(r"[^<>\s]{1,64}")


def to_phi(transcript: Transcript) -> Written:
    """The transcript as a Phi raw prompt, and what Phi could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(SAID.HEADER)
    turns = list(_turns(transcript.messages, losses))
    text = "".join(_turn(turn, losses, number == len(turns) - 1) for number, turn in enumerate(turns))
    return Written(text, losses.gathered())


def _turns(messages: tuple[Message, ...], losses: Losses) -> Iterator[list[Message]]:
    """Messages grouped as Phi writes a turn: an assistant's reasoning with the answer or calls after it, and
    calls one after another; every other message a turn of its own."""
    return grouped(_written(messages, losses), _joins)


def _written(messages: tuple[Message, ...], losses: Losses) -> Iterator[Message]:
    """The messages Phi can write, each with what it loses noted."""
    for message in messages:
        if message.is_call and message.recipient is None:
            losses.add(SAID.UNKNOWN_CALL, message.index)
            continue
        note_losses(message, losses, SAID, unescapable=_UNESCAPABLE, looks_like=lambda text: bool(
            _LOOKS_LIKE.match(text)))
        if _is_thought(message) and "</think>" in message.content:
            losses.add(SAID.UNESCAPABLE, message.index)
        yield message


def _joins(turn: list[Message], message: Message) -> bool:
    last = turn[-1]
    if message.role != "assistant" or last.role != "assistant" or last.end == "eof":
        return False
    if _is_thought(message):
        return False
    if not message.is_call and not message.content.strip():
        return False  # a blank answer after reasoning would be no message: it gets a turn of its own
    return (_is_thought(last) and len(turn) == 1) or (last.is_call and message.is_call)


def _is_thought(message: Message) -> bool:
    return message.role == "assistant" and message.channel == "analysis" and not message.is_call


def _turn(turn: list[Message], losses: Losses, last_turn: bool) -> str:
    first, last = turn[0], turn[-1]
    parts = []
    for message in turn:
        if _is_thought(message):
            parts.append(thought(message.content))
    calls = [message for message in turn if message.is_call]
    if calls:
        written = [dict(zip(("name", "arguments"), call_json(call, losses, SAID))) for call in calls]
        parts.append(f"<|tool_call|>{json.dumps(written, ensure_ascii=False)}<|/tool_call|>")
    parts.extend(message.content for message in turn if not message.is_call and not _is_thought(message))
    role = {"developer": "system"}.get(first.role, first.role)
    if not _ROLE_WORD.fullmatch(role):
        losses.add(ROLE_WORD, first.index)
        role = "unknown"
    cut = last.end == "eof"
    if cut and not last_turn:
        losses.add(SAID.END, last.index)
    if role in _TOKEN_ROLES:
        return f"<|{role}|>{''.join(parts)}{'' if cut and last_turn else '<|end|>'}"
    return f"<|im_start|>{role}<|im_sep|>{''.join(parts)}{'' if cut and last_turn else '<|im_end|>'}"
