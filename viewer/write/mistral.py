"""Write a Transcript as a Mistral raw prompt in mistral-common's Tekken shapes: `<s>`, `[SYSTEM_PROMPT]…
[/SYSTEM_PROMPT]`, `[INST]…[/INST]` and the answer after it up to `</s>`, holding reasoning first (`[THINK]…
[/THINK]`, Magistral), then the answer and the calls (`[TOOL_CALLS]name[CALL_ID]id[ARGS]{…}` as V11 writes a call
with an id, `[TOOL_CALLS]name[ARGS]{…}` as V13 writes one without); tool results as `[TOOL_RESULTS]id[TOOL_CONTENT]
…[/TOOL_RESULTS]` (V7, V11) or `[TOOL_RESULTS]…[/TOOL_RESULTS]` (V13), after which the answer follows with no opener.

Only an answer can follow `[/INST]`, and an answer only `[/INST]` or a tool result: a message that cannot stand
where it comes is left out and reported, as is one of a role Mistral has no turn for. Mistral has no channels but
reasoning, recipients, intents, content types, names or `<|return|>`: each is reported (raw.py).
"""
from __future__ import annotations

import json
import re

from viewer.model import Message, Transcript
from viewer.write.losses import Losses, Written
from viewer.write.raw import Said, call_json, note_losses

SAID = Said.of("mistral")
UNPLACED = ("mistral writes an answer only after [/INST] or a tool result, and after [/INST] only an answer: this "
            "message cannot stand where it comes and was left out")
OTHER_ROLE = "mistral has only system, user, assistant and tool turns: this message was left out"
BLANK = "a blank answer beside reasoning or calls is no message of its own in mistral: it was left out"
REPLY_SHAPE = "this tool result looks like a V2 or V3 result object, and will read back unwrapped"
_UNESCAPABLE = re.compile(r"\[/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_RESULTS|TOOL_CALLS|TOOL_CONTENT|THINK|ARGS"
                          r"|CALL_ID|IMG|IMG_BREAK|IMG_END)\]|</?s>")
_WORD = re.compile(r"[^\s\[\]{]+")
_ID = re.compile(r"[^\s\[]+")


def to_mistral(transcript: Transcript) -> Written:
    """The transcript as a Mistral raw prompt, and what Mistral could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(SAID.HEADER)
    writer = _Writer(losses)
    for message in transcript.messages:
        writer.add(message)
    return Written("<s>" + writer.finish(), losses.gathered())


class _Writer:
    """Messages written in order; `state` says what may come next: `boundary` (a system prompt, a user turn or
    tool results), `answer` (only an answer: `[/INST]` was written), `results` (an answer or anything)."""

    def __init__(self, losses: Losses) -> None:
        self.losses = losses
        self.parts: list[str] = []
        self.state = "boundary"
        self.group: list[Message] = []
        self.after = "answer"
        """The state the open answer started in."""

    def add(self, message: Message) -> None:
        losses, index = self.losses, message.index
        if message.role not in ("system", "developer", "user", "assistant", "tool"):
            losses.add(OTHER_ROLE, index)
            return
        if message.is_call and message.recipient is None:
            losses.add(SAID.UNKNOWN_CALL, index)
            return
        if message.role == "assistant":
            self._answer(message)
            return
        if self.group:
            self._close_group()
        if self.state == "answer":
            losses.add(UNPLACED, index)
            return
        self._note(message)
        if message.role == "tool":
            self.parts.append(_result(message, losses))
            self.state = "results"
        elif message.role == "user":
            self.parts.append(f"[INST]{message.content}[/INST]")
            self.state = "answer"
        else:
            self.parts.append(f"[SYSTEM_PROMPT]{message.content}[/SYSTEM_PROMPT]")
            self.state = "boundary"

    def _note(self, message: Message) -> None:
        note_losses(message, self.losses, SAID, unescapable=_UNESCAPABLE, looks_like=lambda text: False,
                    call_ids=True)

    def _answer(self, message: Message) -> None:
        """An assistant message: it joins the open answer (reasoning first, one answer, calls last) or opens one
        where an answer may stand."""
        kind = "call" if message.is_call else "thought" if message.channel == "analysis" else "text"
        kinds = [_kind(member) for member in self.group]
        joins = self.group and self.group[-1].end != "eof" and (
            kind == "call" or (kind == "text" and kinds in (["thought"],)))
        if not joins:
            if self.group:
                self._close_group()
            if self.state == "boundary":
                self.losses.add(UNPLACED, message.index)
                return
            self.after = self.state
        self._note(message)
        self.group.append(message)

    def _close_group(self, final: bool = False) -> None:
        only = self.group[0]
        if len(self.group) == 1 and self.after == "results" and _kind(only) == "text" and not only.content.strip():
            # After a tool result the answer has no opener: a blank one would be no turn at all.
            self.losses.add(BLANK, only.index)
            self.group, self.state = [], "boundary"
            return
        parts = []
        for message in self.group:
            kind = _kind(message)
            if kind == "text" and len(self.group) > 1 and not message.content.strip():
                self.losses.add(BLANK, message.index)
                continue
            if kind == "thought":
                parts.append(f"[THINK]{_padded(message.content)}[/THINK]")
            elif kind == "call":
                parts.append(_call(message, self.losses))
            else:
                parts.append(message.content)
        last = self.group[-1]
        if last.end == "eof" and not final:
            self.losses.add(SAID.END, last.index)
        self.parts.append("".join(parts) + ("" if last.end == "eof" and final else "</s>"))
        self.group = []
        self.state = "boundary"

    def finish(self) -> str:
        if self.group:
            self._close_group(final=True)
        return "".join(self.parts)


def _kind(message: Message) -> str:
    return "call" if message.is_call else "thought" if message.channel == "analysis" else "text"


def _padded(content: str) -> str:
    """Reasoning with the line breaks the reader drops at its edges added back where it has its own."""
    lead = "\n" if content.startswith(("\n", "\r\n")) else ""
    tail = "\n" if content.endswith("\n") else ""
    return lead + content + tail


def _call(message: Message, losses: Losses) -> str:
    name, arguments = call_json(message, losses, SAID)
    if not _WORD.fullmatch(name):
        losses.add(SAID.ARGUMENTS, message.index)
    call_id = message.call_id
    if call_id is not None and not _ID.fullmatch(call_id):
        losses.add(SAID.CALL_ID, message.index)
        call_id = None
    written_id = f"[CALL_ID]{call_id}" if call_id else ""
    return f"[TOOL_CALLS]{name}{written_id}[ARGS]{json.dumps(arguments, ensure_ascii=False)}"


def _result(message: Message, losses: Losses) -> str:
    call_id = message.call_id
    if call_id is not None and not _ID.fullmatch(call_id):
        losses.add(SAID.CALL_ID, message.index)
        call_id = None
    if call_id:
        return f"[TOOL_RESULTS]{call_id}[TOOL_CONTENT]{message.content}[/TOOL_RESULTS]"
    try:
        value = json.loads(message.content)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, dict) and "content" in value and ("call_id" in value or "name" in value):
        losses.add(REPLY_SHAPE, message.index)
    return f"[TOOL_RESULTS]{message.content}[/TOOL_RESULTS]"
