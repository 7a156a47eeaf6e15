"""Phi-3, 3.5, 4, 4-mini and 4-reasoning raw prompts, as their chat templates write them.

Turns come in two spellings: `<|user|>` (a line break after it in Phi-3 and 3.5) … `<|end|>` for Phi-3, 3.5,
4-mini and 4-mini-reasoning, and `<|im_start|>user<|im_sep|>` … `<|im_end|>` for Phi-4 and 4-reasoning.
`<|endoftext|>` between turns is frame. Roles system, user, assistant and tool (a tool's result). `<|end|>` is
Harmony's token too; a Phi text is told apart by its openers (detect.py).

Inside bodies (a token between backticks is text):
- system: `<|tool|>[…]<|/tool|>` (Phi-4-mini) holds the tools' JSON definitions: declared, the text stays.
- assistant: `<think>…</think>` at the start is reasoning (the reasoning models); `<|tool_call|>…<|/tool_call|>`
  at the start of the answer or right after another such block holds a call or a JSON list of calls
  (`{"name", "arguments"}`); elsewhere the tokens are text the answer talks about.
- tool: the reply; replies pair with calls in order.
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Transcript
from viewer.parse.chatml.scanning import whole_json
from viewer.parse.options import ParseOptions
from viewer.parse.templates.build import Family, TurnBuilder, read_transcript
from viewer.parse.templates.toolkit import (LEAD, declare_all, find_token, item_spans, json_call, json_list_items,
                                           reasoning, reply)
from viewer.parse.templates.turns import ANY, Grammar, Mark, Turn

_PATTERN = re.compile(r"<\|(?:(?P<role>system|user|assistant|tool)\|>(?:\r?\n)?"
                      r"|im_start\|>(?P<named>[^<>\n]{0,64})<\|im_sep\|>|end\|>|im_end\|>|endoftext\|>)")
_FIXED = {"<|end|>": Mark(ends=(ANY,)), "<|im_end|>": Mark(ends=(ANY,)), "<|endoftext|>": Mark(frame="eos")}
ROLES = {"system": "system", "user": "user", "assistant": "assistant", "tool": "tool"}
CALL_OPEN, CALL_CLOSE = "<|tool_call|>", "<|/tool_call|>"


def _mark(match: re.Match[str]) -> Mark:
    role = match.group("role") or match.group("named")
    return _FIXED[match.group()] if role is None else Mark(opens=role.strip())


GRAMMAR = Grammar(_PATTERN, _mark)


def parse_phi(text: str, options: ParseOptions) -> Transcript:
    """Read a Phi raw prompt. Never raises: every defect is a diagnostic."""
    return read_transcript(text, options, FAMILY)


def _plain(text: str, turn: Turn, role: str, state: dict[str, Any]) -> bool:
    """A user turn, or an answer with no reasoning at its start and no call token: what `_read_body` makes one
    message of."""
    if role == "user":
        return True
    start, end = turn.body
    return (role == "assistant" and not text.startswith("<think>", LEAD.match(text, start, end).end(), end)
            and text.find(CALL_OPEN, start, end) == -1)


def _read_body(b: TurnBuilder, state: dict[str, Any]) -> None:
    start, end = b.turn.body
    if b.role == "assistant":
        _answer(b, start, end)
    elif b.role == "tool":
        reply(b, (start, end), b.source[start:end].strip(), kind="tool")
    elif b.role == "system":
        _declarations(b, start, end, state["tools"])
        b.text(start, end)
    else:
        b.text(start, end)


def _declarations(b: TurnBuilder, start: int, end: int, tools: dict[str, Any]) -> None:
    text = b.source
    opening = find_token(text, "<|tool|>", start, end)
    if opening == -1:
        return
    inner = opening + len("<|tool|>")
    close = text.find("<|/tool|>", inner, end)
    inner_end = end if close == -1 else close
    span = (opening, end if close == -1 else close + len("<|/tool|>"))
    declare_all(b, tools, whole_json(text[inner:inner_end]), span, "inside <|tool|>")


def _answer(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    position = reasoning(b, start, end, "<think>", "</think>")
    text_from = position
    while (opening := find_token(text, CALL_OPEN, position, end)) != -1:
        if text[text_from:opening].strip():
            break  # after other text the token is being talked about
        inner = opening + len(CALL_OPEN)
        close = text.find(CALL_CLOSE, inner, end)
        inner_end, block_end = (end, end) if close == -1 else (close, close + len(CALL_CLOSE))
        if close == -1:
            b.note("W-UNCLOSED-BLOCK", f"The {CALL_OPEN} block has no {CALL_CLOSE}; it runs to the end of the turn.",
                   (opening, end))
        _calls(b, opening, inner, inner_end, block_end)
        position = text_from = block_end
    b.text(text_from, end)


def _calls(b: TurnBuilder, opening: int, inner: int, inner_end: int, block_end: int) -> None:
    """One `<|tool_call|>` block: one call, or a JSON list of calls, each a call message."""
    text = b.source
    first = LEAD.match(text, inner, inner_end).end()
    items = json_list_items(text, first, inner_end) if text.startswith("[", first, inner_end) else None
    if items is None:
        value = whole_json(text[inner:inner_end])
        json_call(b, (opening, block_end), value, text[inner:inner_end].strip())
        return
    for (item, span), item_span in zip(items, item_spans([span for _, span in items], opening, block_end)):
        json_call(b, item_span, item, text[span[0]:span[1]])



FAMILY = Family("phi", GRAMMAR, ROLES, _read_body, _plain,
                "Unknown role {role!r}; Phi roles are system, user, assistant and tool.",
                reasoning=("<think>", "</think>", CALL_OPEN), reply=lambda text, turn: "tool")
