"""Write a Transcript as a Llama 3.x raw prompt, the way the Llama 3.1 chat template writes it:
`<|begin_of_text|>`, then one `<|start_header_id|>role<|end_header_id|>\\n\\nbody<|eot_id|>` turn per message;
a call as `{"name": …, "parameters": {…}}` (a call to the code interpreter, `python`, as `<|python_tag|>` and
its code, ending `<|eom_id|>`), a tool reply as an `ipython` turn.

Llama 3 has no reasoning, channels, recipients, call ids, intents, content types, names, developer role or
`<|return|>`: each is reported, not invented. Reasoning is left out (writing it as text would show it to the
user); so is a call whose tool is unknown (its arguments are not an answer). Replies pair with calls in order.
The reader strips a body's blank edges, and reads an answer that starts like a call as one: both are reported.
"""
from __future__ import annotations

import json
import re

from viewer.model import Message, Transcript
from viewer.parse.chatml.pieces import whole_json
from viewer.parse.templates.llama3 import CALL_START, PYTHON_TAG, USER_TOOLS
from viewer.write.losses import Losses, Written
from viewer.write.names import function_name

HEADER = "llama3 has no YAML header: the header was left out"
DEVELOPER = "llama3 has no developer role: written as system"
REASONING = "llama3 has no reasoning: it was left out, since as text it would read as the answer"
UNKNOWN_CALL = "llama3 cannot write a call of an unknown tool: it was left out"
CHANNEL = "llama3 has no channels: only calls and replies keep theirs, the rest reads as final"
RECIPIENT = "llama3 has no recipients except a call's tool: the recipient was left out"
CALL_ID = "llama3 has no call ids: they were left out, and replies pair with calls in order"
INTENT = "llama3 has no intents: they were left out"
CONTENT_TYPE = "llama3 has no content types except a call's JSON: the content type was left out"
NAME = "llama3 has no names: the name was left out"
END = "llama3 ends every turn with <|eot_id|>: <|return|> or a cut reads back as a whole turn"
ARGUMENTS = "a llama3 JSON call carries an object of parameters: these are not one, so the call reads back as text"
TOOL_ADDRESS = "a llama3 call names a function: this call's tool has no namespace, and reads back as functions.<name>"
TRIMMED = "llama3 bodies lose their blank edges: this one reads back without them"
LOOKS_LIKE_CALL = "this answer starts as a llama3 call does, and will read back as one"
UNESCAPABLE = "llama3 has no escape: this body holds <|eot_id|> or <|eom_id|>, and will not read back as written"
ROLE_WORD = "a llama3 role is one word on the header line: this role is written as 'unknown', hidden as it was"

_CLOSERS = re.compile(r"<\|eo[tm]_id\|>")
_ROLE_WORD = re.compile(r"[^<>\n]{1,64}")
_ROLES = {"developer": "system", "tool": "ipython"}


def to_llama3(transcript: Transcript) -> Written:
    """The transcript as a Llama 3 raw prompt, and what Llama 3 could not express."""
    losses = Losses()
    if transcript.header:
        losses.add(HEADER)
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
        losses.add(UNKNOWN_CALL, index)
        return ""
    _note_losses(message, losses, first_user)
    role = _ROLES.get(message.role, message.role)
    if not _ROLE_WORD.fullmatch(role) or role != role.strip():
        losses.add(ROLE_WORD, index)
        role = "unknown"
    body, closer = _call(message, losses) if message.is_call else (message.content, "<|eot_id|>")
    if message.end == "eof" and last:
        closer = ""
    elif message.end in ("eof", "return"):
        losses.add(END, index)
    return f"<|start_header_id|>{role}<|end_header_id|>\n\n{body}{closer}"


def _call(message: Message, losses: Losses) -> tuple[str, str]:
    if message.recipient == "python":
        return f"<|python_tag|>{message.content}", "<|eom_id|>"
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
    return json.dumps({"name": name, "parameters": arguments}, ensure_ascii=False), "<|eot_id|>"


def _note_losses(message: Message, losses: Losses, first_user: bool) -> None:
    index, content = message.index, message.content
    plain = not message.is_call and not message.is_reply
    checks = ((message.role == "developer", DEVELOPER),
              (message.channel != ("commentary" if not plain else "final"), CHANNEL),
              (message.call_id is not None, CALL_ID), (message.intent is not None, INTENT),
              (message.recipient not in (None, "assistant") and not message.is_call, RECIPIENT),
              (message.recipient == "assistant" and not message.is_reply, RECIPIENT),
              (message.content_type not in (None, "json") and not message.is_reply, CONTENT_TYPE),
              (message.name is not None, NAME),
              (bool(_CLOSERS.search(content)), UNESCAPABLE),
              (first_user and content.lstrip().startswith(USER_TOOLS), UNESCAPABLE),
              (plain and message.role == "assistant" and _reads_as_call(content), LOOKS_LIKE_CALL),
              ((not message.is_call or message.recipient == "python") and content != content.strip(), TRIMMED))
    for applies, what in checks:
        if applies:
            losses.add(what, index)


def _reads_as_call(content: str) -> bool:
    """Whether the reader takes this answer for a call (viewer/parse/templates/llama3.py, `_assistant`)."""
    stripped = content.strip()
    value = whole_json(stripped) if stripped.startswith("{") else None
    return (stripped.startswith(PYTHON_TAG) or bool(CALL_START.match(content))
            or (isinstance(value, dict) and isinstance(value.get("name"), str)
                and ("parameters" in value or "arguments" in value)))
