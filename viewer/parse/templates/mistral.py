"""Mistral raw prompts in each version of mistral-common's instruct tokenizers (V1 to V13), with or without
sentencepiece's spacing (`[INST] Hi [/INST]` in V1, `[INST]Hi[/INST]` in Tekken).

Turns: `[INST]` user text `[/INST]`, then the answer up to `</s>`; `[SYSTEM_PROMPT]…[/SYSTEM_PROMPT]` (V7 on);
`[AVAILABLE_TOOLS]…[/AVAILABLE_TOOLS]` (the tools' JSON: declared, a system message named `available_tools`);
`[TOOL_RESULTS]…[/TOOL_RESULTS]`, after which the answer follows with no opener. `<s>` between turns is frame.
Before V7 mistral-common writes the system prompt into the first (V1) or last (V2, V3) user turn, before a
blank line, unmarked: when the text has no `[SYSTEM_PROMPT]`, those turns get W-FOLDED-TEXT.

Answers: `[THINK]…[/THINK]` at the start is reasoning (Magistral, V13). `[TOOL_CALLS]` starts calls, in each
version's shape: a JSON list `[{"name", "arguments", "id"?}]` (V2 to V7), `name[CALL_ID]id[ARGS]{…}` (V11),
`name[ARGS]{…}` (V13, one `[TOOL_CALLS]` per call). Tool results: `[{"name", "content"}]` (V2),
`{"content", "call_id"}` (V3), `id[TOOL_CONTENT]content` (V7, V11), or the content alone (V13); replies
without an id pair with calls in order. `[IMG]`, `[IMG_BREAK]` and `[IMG_END]` runs in a user turn are
`image` segments, left out of the content.
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Segment, Transcript
from viewer.parse.chatml.scanning import SPACE, UNREADABLE, whole_json
from viewer.parse.common import shown_json
from viewer.parse.options import ParseOptions
from viewer.parse.templates.build import Family, TurnBuilder, read_transcript
from viewer.parse.templates.toolkit import (LEAD, declare_all, find_token, item_spans, json_call, json_list_items,
                                           reasoning, reply)
from viewer.parse.templates.turns import Grammar, Mark, Turn

_PATTERN = re.compile(r"\[/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_RESULTS)\]|</?s>")
_MARKS = {
    "<s>": Mark(frame="bos"),
    "</s>": Mark(ends=("assistant",)),
    "[INST]": Mark(opens="user"),
    "[/INST]": Mark(ends=("user",), opens="assistant"),
    "[SYSTEM_PROMPT]": Mark(opens="system"),
    "[/SYSTEM_PROMPT]": Mark(ends=("system",)),
    "[AVAILABLE_TOOLS]": Mark(opens="available_tools"),
    "[/AVAILABLE_TOOLS]": Mark(ends=("available_tools",)),
    "[TOOL_RESULTS]": Mark(opens="tool"),
    "[/TOOL_RESULTS]": Mark(ends=("tool",), then="assistant"),
}
ROLES = {"user": "user", "assistant": "assistant", "system": "system", "available_tools": "system", "tool": "tool"}
GRAMMAR = Grammar(_PATTERN, lambda match: _MARKS[match.group()])
TOOL_CALLS = "[TOOL_CALLS]"
_IMAGE = re.compile(r"(?:\[IMG\]|\[IMG_BREAK\])+(?:\[IMG_END\])?|\[IMG_END\]")
_NAMED_CALL = re.compile(r"\s*([^\s\[\]{]+)\s*(?:\[CALL_ID\]\s*([^\s\[]+)\s*)?\[ARGS\]")


def parse_mistral(text: str, options: ParseOptions) -> Transcript:
    """Read a Mistral raw prompt. Never raises: every defect is a diagnostic."""
    return read_transcript(text, options, family_for(text))


def family_for(text: str) -> Family:
    """The family's description for this text: which user turns may hold a folded system prompt depends on it."""
    folded = "[SYSTEM_PROMPT]" not in text
    users = (text.find("[INST]"), text.rfind("[INST]")) if folded else ()

    def read_body(b: TurnBuilder, state: dict[str, Any]) -> None:
        _read_body(b, state, users)

    def plain(text: str, turn: Turn, role: str, state: dict[str, Any]) -> bool:
        """A user turn with no image that cannot hold a folded system prompt, or an answer with no [THINK] at its
        start and no call: what `_read_body` makes one message of."""
        start, end = turn.body
        if turn.kind == "user":
            return turn.span[0] not in users and text.find("[IMG", start, end) == -1
        if turn.kind == "assistant":
            return (not text.startswith("[THINK]", LEAD.match(text, start, end).end(), end)
                    and text.find(TOOL_CALLS, start, end) == -1)
        return turn.kind == "system"
    return Family("mistral", GRAMMAR, ROLES, read_body, plain, "Unknown turn {role!r}.",
                  reasoning=("[THINK]", "[/THINK]", TOOL_CALLS), reply=_plain_result)


def _read_body(b: TurnBuilder, state: dict[str, Any], folded_users: tuple[int, ...]) -> None:
    start, end = b.turn.body
    kind = b.turn.kind
    if kind == "available_tools":
        value = whole_json(b.source[start:end])
        declare_all(b, state["tools"], value, (start, end), "in [AVAILABLE_TOOLS]")
        b.text(start, end, name="available_tools")
    elif kind == "assistant":
        _answer(b, start, end)
    elif kind == "tool":
        _tool_result(b, start, end)
    elif kind == "user":
        if b.turn.span[0] in folded_users:
            _folded_system(b, start, end)
        _user(b, start, end)
    else:
        b.text(start, end)


def _folded_system(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    lead = LEAD.match(text, start, end).end()
    blank = text.find("\n\n", lead, end)
    if blank != -1 and text[blank:end].strip():
        b.note("W-FOLDED-TEXT", "mistral-common before V7 writes the system prompt into a user turn, before a blank "
                                "line; this paragraph may be one.", (lead, blank))


def _user(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    images = list(_IMAGE.finditer(text, start, end)) if text.find("[IMG", start, end) != -1 else ()
    if not images:
        b.text(start, end)
        return
    parts, segments, position = [], [], start
    for image in images:
        parts.append(text[position:image.start()])
        segments.append(Segment.of("image", "", image.span()))
        position = image.end()
    parts.append(text[position:end])
    b.add((start, end), "".join(parts).strip(), segments=tuple(segments))


def _answer(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    position = reasoning(b, start, end, "[THINK]", "[/THINK]")
    calls = find_token(text, TOOL_CALLS, position, end)
    if calls == -1:
        b.text(position, end)
        return
    b.text(position, calls)
    while calls != -1:
        following = find_token(text, TOOL_CALLS, calls + len(TOOL_CALLS), end)
        stop = end if following == -1 else following
        _calls(b, calls, stop)
        calls = following


def _calls(b: TurnBuilder, start: int, end: int) -> None:
    """The calls after one `[TOOL_CALLS]`, in [start, end)."""
    text = b.source
    after = start + len(TOOL_CALLS)
    first = SPACE.match(text, after, end).end()
    if text.startswith("[", first, end):  # V2 to V7: a JSON list of calls
        items = json_list_items(text, first, end)
        if not items:
            json_call(b, (start, end), UNREADABLE, text[after:end].strip())
            return
        for (item, _), span in zip(items, item_spans([span for _, span in items], start, end)):
            json_call(b, span, item, shown_json(item))
        return
    named = _NAMED_CALL.match(text, after, end)
    if named is None:
        json_call(b, (start, end), UNREADABLE, text[after:end].strip())
        return
    arguments = whole_json(text[named.end():end])
    call = {"name": named.group(1), "arguments": arguments} if arguments is not UNREADABLE else UNREADABLE
    json_call(b, (start, end), call, text[after:end].strip(), call_id=named.group(2))


def _plain_result(text: str, turn: Turn) -> str | None:
    """`tool_response` for a V13 result (its content alone), which `_tool_result` makes one reply of; None for
    the other versions' shapes."""
    start, end = turn.body
    if text.find("[TOOL_CONTENT]", start, end) != -1:
        return None
    return None if _result_object(whole_json(text[start:end].strip())) else "tool_response"


def _result_object(value: Any) -> dict | None:
    """The V2 or V3 result object a JSON result is (V2 wraps it in a list), if it is one."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], dict):
        value = value[0]
    if isinstance(value, dict) and "content" in value and ("call_id" in value or "name" in value):
        return value
    return None


def _tool_result(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    content_at = find_token(text, "[TOOL_CONTENT]", start, end)
    if content_at != -1:  # V7, V11: the call's id, then the content
        call_id = text[start:content_at].strip() or None
        reply(b, (start, end), text[content_at + len("[TOOL_CONTENT]"):end].strip(), call_id=call_id)
        return
    body = text[start:end].strip()
    value = _result_object(whole_json(body))
    if value is not None:
        content = value["content"]
        call_id, name = value.get("call_id"), value.get("name")
        reply(b, (start, end), content if isinstance(content, str) else shown_json(content),
              call_id=call_id if isinstance(call_id, str) else None, name=name if isinstance(name, str) else None)
        return
    reply(b, (start, end), body)
