"""Write a Transcript as a Llama 3.x raw prompt, the way the Llama 3.1 chat template writes it:
`<|begin_of_text|>`, then one `<|start_header_id|>role<|end_header_id|>\\n\\nbody<|eot_id|>` turn per message;
a call as `{"name": …, "parameters": {…}}` (a call to the code interpreter, `python`, as `<|python_tag|>` and
its code, ending `<|eom_id|>`), a tool reply as an `ipython` turn.

Llama 3 has no reasoning, channels, recipients, call ids, intents, content types, names, developer role or
`<|return|>`: each is reported, not invented (raw.py). Reasoning is left out (writing it as text would show it
to the user); so is a call whose tool is unknown. Replies pair with calls in order. The reader strips a body's
blank edges, and reads an answer that starts like a call as one: both are reported.
"""
from __future__ import annotations

import json
import re

from viewer.model import Message, Transcript
from viewer.parse.chatml.scanning import whole_json
from viewer.parse.templates.llama3 import CALL_START, PYTHON_TAG, USER_TOOLS
from viewer.write.losses import Losses, Written
from viewer.write.raw import Said, call_json, note_losses

SAID = Said.of("llama3")
REASONING = "llama3 has no reasoning: it was left out, since as text it would read as the answer"
ROLE_WORD = "a llama3 role is one word on the header line: this role is written as 'unknown', hidden as it was"
_UNESCAPABLE = re.compile(r"<\|eo[tm]_id\|>")
_ROLE_WORD = re.compile(r"[^<>\s]{1,64}")
_ROLES = {"developer": "system", "tool": "ipython"}


def to_llama3(transcript: Transcript) -> Written:
    """The transcript as a Llama 3 raw prompt, and what Llama 3 could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(SAID.HEADER)
    last = len(transcript.messages) - 1
    first_user = next((number for number, message in enumerate(transcript.messages) if message.role == "user"), -1)
    turns = [_turn(message, losses, number == last, number == first_user)
             for number, message in enumerate(transcript.messages)]
    return Written("<|begin_of_text|>" + "".join(turns), losses.gathered())


def _turn(message: Message, losses: Losses, last: bool, first_user: bool) -> str:
    index = message.index
    if message.role == "assistant" and message.channel == "analysis" and not message.is_call:
        losses.add(REASONING, index)
        return ""
    if message.is_call and message.recipient is None:
        losses.add(SAID.UNKNOWN_CALL, index)
        return ""
    note_losses(message, losses, SAID, unescapable=_UNESCAPABLE, looks_like=_reads_as_call)
    if first_user and message.content.lstrip().startswith(USER_TOOLS):
        losses.add(SAID.UNESCAPABLE, index)
    role = _ROLES.get(message.role, message.role)
    if not _ROLE_WORD.fullmatch(role):
        losses.add(ROLE_WORD, index)
        role = "unknown"
    body, closer = _call(message, losses) if message.is_call else (message.content, "<|eot_id|>")
    if message.end == "eof" and last:
        closer = ""
    elif message.end == "eof":
        losses.add(SAID.END, index)
    return f"<|start_header_id|>{role}<|end_header_id|>\n\n{body}{closer}"


def _call(message: Message, losses: Losses) -> tuple[str, str]:
    if message.recipient == "python":
        if message.content != message.content.strip():
            losses.add(SAID.TRIMMED, message.index)
        return f"{PYTHON_TAG}{message.content}", "<|eom_id|>"
    name, arguments = call_json(message, losses, SAID)
    return json.dumps({"name": name, "parameters": arguments}, ensure_ascii=False), "<|eot_id|>"


def _reads_as_call(content: str) -> bool:
    """Whether the reader takes this answer for a call (viewer/parse/templates/llama3.py, `_assistant`)."""
    stripped = content.strip()
    value = whole_json(stripped) if stripped.startswith("{") else None
    return (stripped.startswith(PYTHON_TAG) or bool(CALL_START.match(content))
            or (isinstance(value, dict) and isinstance(value.get("name"), str)
                and ("parameters" in value or "arguments" in value)))
