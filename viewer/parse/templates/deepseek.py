"""DeepSeek R1, V3 and V3.1 raw prompts, as their chat templates write them. The tokens' bars are FULLWIDTH
VERTICAL LINE (U+FF5C) and their spaces LOWER ONE EIGHTH BLOCK (U+2581): `<｜User｜>`, `<｜end▁of▁sentence｜>`.

Turns: `<｜begin▁of▁sentence｜>` is frame, and the text right after it is the system prompt (a system turn, up to
the first `<｜User｜>` or `<｜Assistant｜>`); `<｜User｜>` opens a user turn that `<｜Assistant｜>` ends, opening the
answer, which
`<｜end▁of▁sentence｜>` ends. A user turn at the end of the text is whole (a prompt written without asking for
an answer). Tool outputs: `<｜tool▁outputs▁begin｜>` holds one `<｜tool▁output▁begin｜>…<｜tool▁output▁end｜>` per
reply until `<｜tool▁outputs▁end｜>` (R1, V3), or each output stands alone (V3.1); the answer after them follows
with no `<｜Assistant｜>`. Replies pair with calls in order.

Answers: `<think>…</think>` at the start is reasoning. The R1 templates write `<think>\\n` into the generation
prompt and V3.1 writes `</think>` (thinking off) or `<think>`: an answer starting with `</think>` has none; a
completion without an opener of its own (after a tool output, or with `--primed-role assistant`) whose first
think tag is `</think>` has its reasoning before it; an opener at the end of the text followed only by such a
prompt is the generation prompt. `<｜tool▁calls▁begin｜>` holds the calls, one
`<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>` each: `function<｜tool▁sep｜>NAME` and a fenced JSON block (R1, V3), or
`NAME<｜tool▁sep｜>ARGUMENTS` (V3.1).
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Transcript
from viewer.parse.chatml.scanning import UNREADABLE, whole_json
from viewer.parse.options import ParseOptions
from viewer.parse.templates.build import Family, TurnBuilder, read_transcript
from viewer.parse.templates.toolkit import find_token, item_spans, json_call, reasoning, reply
from viewer.parse.templates.turns import Grammar, Mark, Turn


def token(name: str) -> str:
    """A DeepSeek special token: `token("end of sentence")` is `<｜end▁of▁sentence｜>`."""
    return "<\uff5c" + name.replace(" ", "\u2581") + "\uff5c>"


BOS, EOS, USER, ASSISTANT = token("begin of sentence"), token("end of sentence"), token("User"), token("Assistant")
CALLS_BEGIN, CALLS_END = token("tool calls begin"), token("tool calls end")
CALL_BEGIN, CALL_END, SEPARATOR = token("tool call begin"), token("tool call end"), token("tool sep")
OUTPUTS_BEGIN, OUTPUTS_END = token("tool outputs begin"), token("tool outputs end")
OUTPUT_BEGIN, OUTPUT_END = token("tool output begin"), token("tool output end")
_MARKS = {
    BOS: Mark(frame="bos", then="system"),
    USER: Mark(opens="user", ends=("system",)),
    ASSISTANT: Mark(opens="assistant", ends=("user", "system")),
    EOS: Mark(ends=("assistant",)),
    OUTPUTS_BEGIN: Mark(opens="tool_outputs"),
    OUTPUTS_END: Mark(ends=("tool_outputs",), then="assistant"),
    OUTPUT_BEGIN: Mark(opens="tool"),
    OUTPUT_END: Mark(ends=("tool",), then="assistant"),
}
_PATTERN = re.compile("|".join(re.escape(mark) for mark in _MARKS))
GRAMMAR = Grammar(_PATTERN, lambda match: _MARKS[match.group()],
                  prompt_tail=re.compile(r"\s*(?:<think>\s*(?:</think>)?|</think>)?\s*"), open_ended=("user",))
ROLES = {"system": "system", "user": "user", "assistant": "assistant", "tool_outputs": "tool", "tool": "tool"}
_FENCED = re.compile(r"\s*+([^\s`]+)\s*+```(?:json)?\s*+((?:.*?(?<!\s))??)\s*```\s*", re.DOTALL)
r"""The arguments: empty, or the shortest text ending in a non-space before the closing fence (what `(.*?)\s*` found,
without trying `\s*` again at every space of a run: cubic, 1.3 s for 1,000 spaces)."""


def parse_deepseek(text: str, options: ParseOptions) -> Transcript:
    """Read a DeepSeek raw prompt. Never raises: every defect is a diagnostic."""
    return read_transcript(text, options, FAMILY)


def _plain(text: str, turn: Turn, role: str, state: dict[str, Any]) -> bool:
    """A system or user turn, or an answer with no think tag and no calls: what `_read_body` makes one message
    of."""
    if turn.kind in ("system", "user"):
        return True
    start, end = turn.body
    return (turn.kind == "assistant" and text.find("think>", start, end) == -1
            and text.find(CALLS_BEGIN, start, end) == -1)


def _read_body(b: TurnBuilder, state: dict[str, Any]) -> None:
    start, end = b.turn.body
    kind = b.turn.kind
    if kind == "assistant":
        _answer(b, start, end)
    elif kind == "tool_outputs":
        _outputs(b, start, end)
    elif kind == "tool":
        reply(b, (start, end), b.source[start:end].strip(), kind="tool_output")
    else:
        b.text(start, end)


def _answer(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    # Only a completion that starts inside the reasoning (no opener of its own: a primed or implied turn) may
    # have it before a lone </think>; elsewhere an answer that names </think> is talking about it.
    position = reasoning(b, start, end, "<think>", "</think>", prompt_opens=True,
                         opened_in_prompt=b.turn.header is None)
    calls = find_token(text, CALLS_BEGIN, position, end)
    if calls == -1:
        b.text(position, end)
        return
    b.text(position, calls)
    closing = text.find(CALLS_END, calls, end)
    block_end = end if closing == -1 else closing + len(CALLS_END)
    if closing == -1:
        b.note("W-UNCLOSED-BLOCK", f"The tool calls have no {CALLS_END}; they run to the end of the turn.",
               (calls, end))
    _calls(b, calls, block_end, end if closing == -1 else closing)
    b.text(block_end, end)


def _calls(b: TurnBuilder, start: int, block_end: int, inner_end: int) -> None:
    """Each `<｜tool▁call▁begin｜>…<｜tool▁call▁end｜>` of a calls block as a call message."""
    text = b.source
    items = []
    position = start
    while (begin := text.find(CALL_BEGIN, position, inner_end)) != -1:
        close = text.find(CALL_END, begin, inner_end)
        stop = inner_end if close == -1 else close
        items.append((begin + len(CALL_BEGIN), stop, inner_end if close == -1 else close + len(CALL_END)))
        position = items[-1][2]
    if not items:
        json_call(b, (start, block_end), UNREADABLE, text[start:block_end], kind="tool_calls")
        return
    spans = item_spans([(inner_start - len(CALL_BEGIN), item_end) for inner_start, _, item_end in items], start,
                       block_end)
    for (inner_start, inner_stop, _), span in zip(items, spans):
        json_call(b, span, _call_value(text[inner_start:inner_stop]), text[inner_start:inner_stop].strip())


def _call_value(inner: str) -> Any:
    """`{"name", "arguments"}` from one call's text, in the R1/V3 or the V3.1 shape; UNREADABLE otherwise."""
    left, separator, right = inner.partition(SEPARATOR)
    if not separator:
        return UNREADABLE
    fenced = _FENCED.fullmatch(right) if left.strip() == "function" else None
    name, arguments = (fenced.group(1), fenced.group(2)) if fenced else (left.strip(), right)
    value = whole_json(arguments)
    return {"name": name, "arguments": value} if value is not UNREADABLE else UNREADABLE


def _outputs(b: TurnBuilder, start: int, end: int) -> None:
    """The outputs of a `<｜tool▁outputs▁begin｜>` block, one reply each; other text there is stray."""
    text = b.source
    position = start
    while (begin := text.find(OUTPUT_BEGIN, position, end)) != -1:
        _stray(b, position, begin)
        close = text.find(OUTPUT_END, begin, end)
        inner_end, item_end = (end, end) if close == -1 else (close, close + len(OUTPUT_END))
        if close == -1:
            b.note("W-UNCLOSED-BLOCK", f"This tool output has no {OUTPUT_END}.", (begin, end))
        content = text[begin + len(OUTPUT_BEGIN):inner_end].strip()
        reply(b, (begin, item_end), content, kind="tool_output")
        position = item_end
    _stray(b, position, end)


def _stray(b: TurnBuilder, start: int, end: int) -> None:
    if b.source[start:end].strip():
        b.note("W-STRAY-TEXT", "This text stands between tool outputs.", (start, end))


FAMILY = Family("deepseek", GRAMMAR, ROLES, _read_body, _plain, "Unknown turn {role!r}.",
                reasoning=("<think>", "</think>", CALLS_BEGIN),
                reply=lambda text, turn: "tool_output" if turn.kind == "tool" else None)
