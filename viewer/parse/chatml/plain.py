"""Plain ChatML envelopes, most of any real transcript, read without the general machinery.

An envelope is plain when nothing but blanks stands before it, its header line is a known role alone
(`<|im_start|>assistant` and a line feed), its body holds no `<|` token and no `[BOS]`/`[EOS]`, and it ends
with `<|im_end|>`; and its body is one of the shapes chat templates write (the rules are the package
docstring's):

- text with no tag its role reads (a system prompt's `<tools>` blocks declare their tools);
- an assistant's `<think>` block at its start, then `<tool_call>` blocks and an answer, blank between them;
- a user's or tool's `<tool_response>` blocks, blank around them.

A few `str.find` calls find the envelope (`_envelope`); its messages are made here, exactly as the general
reader (envelopes.py, body.py, turns.py) makes them, which tests/parse/chatml/test_plain.py checks on generated
envelopes. Anything else (a note to report, a tag in backticks, text beside a tool call …) is left to the
general reader.
"""
from __future__ import annotations

import re
import sys
from typing import Any

from viewer.model import Message, Segment, Span
from viewer.parse.chatml.scanning import UNREADABLE, call_target, whole_json
from viewer.parse.chatml.tags import declare_tool_blocks, json_run
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.patterns import always_matching

_ROLES = {role: role for role in ("system", "user", "assistant", "tool")}
"""Each role word once: a slice of the text is a new string, which every message would keep."""
_LONGEST_ROLE = max(map(len, _ROLES))
_LEAD = always_matching(r"\s*")
_NOT_BLANK = re.compile(r"\S")
_LAST_NOT_BLANK = re.compile(r"\S(?=\s*\Z)")
_ASSISTANT_TAG = re.compile(r"</?(?:think|tool_call|tool_response)>")
_REPLY_TAG = re.compile(r"</?(?:tool_call|tool_response)>")
_LINE_BREAKS = always_matching(r"(?:\r?\n)*")
_OPEN, _CLOSE = "<|im_start|>", "<|im_end|>"
_START, _END = len(_OPEN), len(_CLOSE)

# A message before its index and turn: role, name, content, span, segments, recipient, channel, content_type,
# end (a list: its span grows to the envelope's edges). Its content is a string, or where it is in the text
# (`Stretch`): a body left in the text (viewer/model/pieces.py says why).
Draft = list
Stretch = tuple[int, int]
"""Where a piece of text is: its start and its length."""


def read_plain(reader: Any, position: int) -> int:
    """Read consecutive plain envelopes from `position` into the reader; return where the first one that is not
    plain (or the end of the text) begins."""
    text, messages = reader.text, reader.messages
    while (found := _envelope(text, position)) is not None:
        start, role, body_start, close = found
        resume = close + _END
        # The line break before <|im_end|> belongs to the token.
        body_end = close - (2 if text.endswith("\r\n", body_start, close) else
                            1 if text.endswith("\n", body_start, close) else 0)
        if text.find("<", body_start, close) == -1:  # no tag: one message of the body (most user and system turns)
            messages.append(Message(len(messages), reader.turn, role, None, start, resume, None, None, "final", False,
                                    None, False, None, None, "end", (), start, body_start - 1, None, None, None,
                                    False, (), text, body_start, body_end - body_start))
            reader.turn += 1
            position = resume
            continue
        drafts = _drafts(text, role, body_start, body_end, reader.tools)
        if drafts is None:
            break
        drafts[0][3] = (start, drafts[0][3][1])
        drafts[-1][3] = (drafts[-1][3][0], resume)
        header_end: int | None = body_start - 1
        for role, name, content, span, segments, recipient, channel, content_type, end in drafts:
            if type(content) is str:
                body, at, length = content, 0, 0
            else:
                body, (at, length) = None, content
            messages.append(Message(len(messages), reader.turn, role, body, span[0], span[1], name, recipient,
                                    channel, False, content_type, False, None, None, end, segments,
                                    None if header_end is None else start, header_end, None, None, None, False, (),
                                    None if body is not None else text, at, length))
            header_end = None
        reader.turn += 1
        position = resume
    return position


def _envelope(text: str, position: int) -> tuple[int, str, int, int] | None:
    """Where the plain envelope at `position` (blanks may stand before it) starts, its role, where its body
    starts and where its `<|im_end|>` is; None when none is there. Plain: the header line is a known role alone,
    and the body holds no `<|` and no `[BOS]` / `[EOS]` (found with `str.find`, which outruns a regex that
    walks the body character by character)."""
    if text.startswith(_OPEN, position):
        start = position
    elif text.startswith("\n" + _OPEN, position):  # the line break between envelopes that templates write
        start = position + 1
    else:
        start = _LEAD.match(text, position).end()
        if not text.startswith(_OPEN, start):
            return None
    newline = text.find("\n", start + _START, start + _START + _LONGEST_ROLE + 1)
    role = _ROLES.get(text[start + _START:newline])
    if newline == -1 or role is None:
        return None
    close = text.find("<|", newline)
    if close == -1 or not text.startswith(_CLOSE, close):
        return None
    if text.find("[", newline, close) != -1 and (text.find("[BOS]", newline, close) != -1
                                                  or text.find("[EOS]", newline, close) != -1):
        return None
    return start, role, newline + 1, close


def _drafts(text: str, role: str, start: int, end: int, tools: dict[str, Any]) -> list[Draft] | None:
    """The messages of a body with a `<` in it, by the shapes of the module docstring; None for any other."""
    if role == "system":
        if text.find("<tools>", start, end) != -1:
            declared: dict[str, Any] = {}
            notes: list = []
            declare_tool_blocks(text, start, end, declared, notes)
            if notes:
                return None
            tools.update(declared)
        return [_said(role, text, start, end)]
    tag = (_ASSISTANT_TAG if role == "assistant" else _REPLY_TAG).search(text, start, end)
    if tag is None:
        return [_said(role, text, start, end)]
    if role == "assistant":
        return _assistant(text, tag, start, end)
    return _replies(text, tag, start, end)


def _said(role: str, text: str, start: int, end: int, lead: bool = False) -> Draft:
    """A stretch of text as its message (turns.run_message)."""
    return [role, None, _trimmed(text, start, end, lead=lead, tail=False), (start, end), (), None, "final", None,
            "end"]


def _trimmed(text: str, start: int, end: int, *, lead: bool, tail: bool) -> Stretch:
    """Where `trim_newline(text[start:end], lead=lead, tail=tail)` is in the text, without copying it."""
    if lead:
        start += 2 if text.startswith("\r\n", start, end) else 1 if text.startswith("\n", start, end) else 0
    if tail:
        end -= 2 if text.endswith("\r\n", start, end) else 1 if text.endswith("\n", start, end) else 0
    return start, end - start


def _stripped(text: str, start: int, end: int) -> Stretch:
    """Where `text[start:end].strip()` is in the text (an empty stretch at `start` when it is all blank)."""
    if start < end and not text[start].isspace() and not text[end - 1].isspace():
        return start, end - start  # most: a JSON value's own span
    found = _NOT_BLANK.search(text, start, end)
    if found is None:
        return start, 0
    last = _LAST_NOT_BLANK.search(text, start, end)
    assert last is not None  # there is a character that is not blank: `found`
    return found.start(), last.end() - found.start()


def _assistant(text: str, first: re.Match[str], start: int, end: int) -> list[Draft] | None:
    """`<think>…</think>` at the start, then `<tool_call>` blocks, then the answer; blank between them."""
    drafts: list[Draft] = []
    position = start
    tag: re.Match[str] | None = first
    if first.start() != start or first[0] != "<think>":
        if text.find("</think>", start, end) != -1:
            return None  # reasoning opened in the prompt (tags.reasoning_opened_in_prompt): the general way
    else:
        close = text.find("</think>", first.end(), end)
        if close == -1:
            return None
        span = (start, close + len("</think>"))
        inner = _trimmed(text, first.end(), close, lead=True, tail=True)
        drafts.append(["assistant", None, inner, span, (Segment.stretch("think", text, *inner, span),), None,
                       "analysis", None, "end"])
        position = _LINE_BREAKS.match(text, span[1], end).end()
        tag = _ASSISTANT_TAG.search(text, position, end)
    while tag is not None:
        if tag[0] != "<tool_call>" or _quoted(text, tag, end) or text[position:tag.start()].strip():
            return None
        close = text.find("</tool_call>", tag.end(), end)
        calls = json_run(text, tag.end(), close) if close != -1 else None
        if calls is None:
            return None
        block = (tag.start(), close + len("</tool_call>"))
        for number, (value, (value_start, value_end)) in enumerate(calls):
            recipient, arguments = call_target(value)
            recipient = recipient and sys.intern(recipient)  # a tool's name once, not once per call
            if arguments is UNREADABLE:
                return None
            span = (block[0] if number == 0 else value_start, block[1] if number == len(calls) - 1 else value_end)
            raw = _stripped(text, value_start, value_end)
            drafts.append(["assistant", None, shown_json(arguments), span,
                           (Segment.stretch("tool_call", text, *raw, span),), recipient, "commentary", "json", "call"])
        position = block[1]
        tag = _ASSISTANT_TAG.search(text, position, end)
    if _NOT_BLANK.search(text, position, end) or not drafts:  # (a search copies nothing of a long answer)
        drafts.append(_said("assistant", text, position, end, lead=position != start))
    return drafts


def _replies(text: str, tag: re.Match[str] | None, start: int, end: int) -> list[Draft] | None:
    """`<tool_response>` blocks with nothing but blanks around them: each a reply."""
    drafts: list[Draft] = []
    position = start
    while tag is not None:
        if tag[0] != "<tool_response>" or _quoted(text, tag, end) or text[position:tag.start()].strip():
            return None
        close = text.find("</tool_response>", tag.end(), end)
        if close == -1:
            return None
        span = (tag.start(), close + len("</tool_response>"))
        reply, shown = whole_json(text[tag.end():close]), _trimmed(text, tag.end(), close, lead=True, tail=True)
        tool = reply.get("name") if isinstance(reply, dict) else None
        name = qualified_tool_name(tool) if isinstance(tool, str) and tool else None
        drafts.append(["tool", name, shown, span, (Segment.stretch("tool_response", text, *shown, span),), "assistant",
                       "commentary", None if reply is UNREADABLE else "json", "end"])
        position = span[1]
        tag = _REPLY_TAG.search(text, position, end)
    return None if _NOT_BLANK.search(text, position, end) else drafts


def _quoted(text: str, tag: re.Match[str], end: int) -> bool:
    return tag.start() > 0 and text[tag.start() - 1] == "`" and tag.end() < end and text[tag.end()] == "`"


__all__ = ["Span", "read_plain"]
