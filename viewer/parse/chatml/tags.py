"""The tags real chat templates write inside ChatML bodies: `<think>` reasoning (Qwen3, QwQ, DeepSeek-R1),
`<tool_call>` / `<tool_response>` tool use and `<tools>` declarations (Hermes, Qwen2.5, Qwen3). Each block
becomes a piece of the body (read here) and then a message of its own (`tag_message`); the rules are in the
package docstring."""
from __future__ import annotations

import re
from typing import Any, Callable

from viewer.analysis.jsontext import loads
from viewer.model import Segment, Span
from viewer.parse.chatml.scanning import (DECODER, SPACE, UNREADABLE, Stretch, call_target, declare, json_values,
                                        whole_json)
from viewer.parse.common import Pending, qualified_tool_name, shown_json, trim_newline
from viewer.parse.patterns import always_matching

UNCLASSIFIED = "unclassified"
"""Kind of a block in a turn whose role does not write it, and the channel of its message: no policy rule
shows that channel (nor the block's tag word as a role), so it stays hidden."""
TAG_KINDS = ("think", "tool_call", "tool_response", UNCLASSIFIED)
"""Pieces that become messages of their own."""
_TAG = re.compile(r"</?(?:think|tool_call|tool_response)>")
_THINK = re.compile(r"</?think>")
_LINE_BREAKS = always_matching(r"(?:\r?\n)*")
# The tags each role's turn reads, and of those the blocks it writes (a block a role reads but does not write
# is misplaced). Other roles read none: a system prompt explains <tool_call> to the model, and a user writing
# <think> is quoting something; both stay text.
_READS = {"assistant": ("think", "tool_call", "tool_response"), "user": ("tool_call", "tool_response"),
          "tool": ("tool_call", "tool_response")}
_WRITES = {"assistant": ("think", "tool_call"), "user": ("tool_response",), "tool": ("tool_response",)}
_UNSEEN = object()


class LookAhead:
    """The next match of a search from a position on, remembered until reading passes it. Two searches
    interleaved in one loop would otherwise scan the stretch up to a far match again on every round."""

    def __init__(self, search: Callable[[int], re.Match[str] | None]) -> None:
        self.search = search
        self.found: Any = _UNSEEN

    def next(self, start: int) -> re.Match[str] | None:
        found = self.found
        if found is _UNSEEN or (found is not None and found.start() < start):
            found = self.found = self.search(start)
        return found


def tag_finder(text: str, end: int, role: str) -> LookAhead:
    """The next tag a turn of `role` reads in a body ending at `end`."""
    names = _READS.get(role, ())

    def search(start: int) -> re.Match[str] | None:
        while names and (match := _TAG.search(text, start, end)) is not None:
            if _name(match) in names and not _quoted(text, match, end):
                return match
            start = match.end()
        return None
    return LookAhead(search)


def _name(match: re.Match[str]) -> str:
    return match.group().strip("</>")


def _quoted(text: str, match: re.Match[str], end: int) -> bool:
    # A tag between backticks is being talked about (`<think>`), as a body token is (marks.next_body_token).
    return (match.start() > 0 and text[match.start() - 1] == "`"
            and match.end() < end and text[match.end()] == "`")


def reasoning_opened_in_prompt(text: str, start: int, end: int, notes: list[Pending]) -> tuple[list[Stretch], int]:
    """When the first think tag of an assistant body is `</think>`, the template wrote `<think>` into the prompt
    (QwQ, DeepSeek-R1): the body up to it is reasoning. Returns that piece (or none) and where reading goes on."""
    position = start
    while (match := _THINK.search(text, position, end)) is not None and _quoted(text, match, end):
        position = match.end()
    if match is None or match.group() != "</think>":
        return [], start
    return _reasoning_up_to(text, match, start, start, end, notes)


def tag_piece(text: str, match: re.Match[str], text_from: int, body_start: int, end: int, role: str,
              notes: list[Pending]) -> tuple[list[Stretch], int]:
    """The pieces a tag starts (none when the tag stays text; several for a `<tool_call>` block holding several
    calls) and where reading goes on. `text_from` is where the text before the tag began: a stray `</think>`
    makes that text reasoning."""
    name = _name(match)
    if match.group().startswith("</"):
        if name == "think":
            return _reasoning_up_to(text, match, text_from, body_start, end, notes)
        notes.append(Pending("W-UNMATCHED-TOKEN", f"{match.group()} closes no open <{name}>; it is kept as text.",
                             match.span()))
        return [], match.end()
    inner_end, block_end = _block(text, match, name, end, notes)
    span = (match.start(), block_end)
    inner = text[match.end():inner_end]
    if name not in _WRITES[role]:
        turn = "an assistant" if role == "assistant" else f"a {role}"
        notes.append(Pending("W-MISPLACED-BLOCK", f"A <{name}> block in {turn} turn, which does not write one; it "
                                                  "is kept as an unclassified message, hidden by default.", span))
        return [Stretch(UNCLASSIFIED, span, *_shown_twice(_trimmed(inner)), value=name)], block_end
    if name == "think":
        return [Stretch("think", span, *_shown_twice(_trimmed(inner)))], _after_line_breaks(text, block_end, end)
    if name == "tool_call":
        return _calls(text, match.end(), inner_end, span, notes), block_end
    return [Stretch("tool_response", span, *_shown_twice(_trimmed(inner)), whole_json(inner))], block_end


def _block(text: str, match: re.Match[str], name: str, end: int, notes: list[Pending]) -> tuple[int, int]:
    """Where the text inside a block ends and where the block ends; an unclosed block runs to the end of the
    body."""
    closer = f"</{name}>"
    close = text.find(closer, match.end(), end)
    if close == -1:
        notes.append(Pending("W-UNCLOSED-BLOCK", f"The <{name}> block has no {closer}; it runs to the end of the "
                                                 "message.", (match.start(), end)))
        return end, end
    return close, close + len(closer)


def _reasoning_up_to(text: str, closer: re.Match[str], text_from: int, body_start: int, end: int,
                     notes: list[Pending]) -> tuple[list[Stretch], int]:
    span = (text_from, closer.end())
    if text_from != body_start:
        notes.append(Pending("W-THINK-UNOPENED", "This </think> follows other parts of the turn with no <think> "
                                                 "before it; the text since the last part is read as reasoning.",
                             span))
    inner = _trimmed(text[text_from:closer.start()])
    return [Stretch("think", span, inner, inner)], _after_line_breaks(text, closer.end(), end)


def _after_line_breaks(text: str, start: int, end: int) -> int:
    # Templates write `</think>\n\n` before the answer: those line breaks lay out the tag, not the answer.
    return _LINE_BREAKS.match(text, start, end).end()


def _trimmed(inner: str) -> str:
    # Templates put a block's text on lines of its own (`<think>\n…\n</think>`).
    return trim_newline(inner, lead=True, tail=True)


def _shown_twice(text: str) -> tuple[str, str]:
    """A block's text as both its message's content and its segment's text."""
    return text, text


def _calls(text: str, start: int, end: int, span: Span, notes: list[Pending]) -> list[Stretch]:
    """The calls of one `<tool_call>` block: one JSON value, or several one after another (ollama's Hermes 3
    template writes all the calls of a turn into one block), each a piece; the first and last also span the
    tags. Anything else in the block makes the whole block one call of an unknown tool."""
    values = json_run(text, start, end)
    if values is None:
        values = [(UNREADABLE, (start, end))]
    last = len(values) - 1
    pieces = []
    for number, (value, (value_start, value_end)) in enumerate(values):
        piece_span = (span[0] if number == 0 else value_start, span[1] if number == last else value_end)
        raw = text[value_start:value_end].strip()
        if call_target(value)[1] is UNREADABLE:
            why = ("is not readable JSON" if value is UNREADABLE
                   else 'needs a string "name" and an object "arguments"')
            notes.append(Pending("E-CALL-SCHEMA", f"The call in this <tool_call> block {why}; it is kept as a "
                                                  "call of an unknown tool.", piece_span))
        pieces.append(Stretch("tool_call", piece_span, raw, raw, value))
    return pieces


def json_run(text: str, start: int, end: int) -> list[tuple[Any, Span]] | None:
    """The JSON values that make up text[start:end] (blank around and between them), with their spans; None when
    anything else stands there or there are none."""
    chunk = text[start:end]
    stripped = chunk.strip()  # str.strip and the pattern `\s` strip the same characters
    try:  # most blocks hold one value: read by msgspec at once, to what the loop below gives
        value = loads(stripped)
    except (ValueError, RecursionError):
        pass
    else:
        lead = start + len(chunk) - len(chunk.lstrip())
        return [(value, (lead, lead + len(stripped)))]
    values = []
    position = SPACE.match(chunk).end()
    while position < len(chunk):
        try:
            value, stop = DECODER.raw_decode(chunk, position)
        except (ValueError, RecursionError):
            return None
        values.append((value, (start + position, start + stop)))
        position = SPACE.match(chunk, stop).end()
    return values or None


def declare_tool_blocks(text: str, start: int, end: int, tools: dict[str, Any], notes: list[Pending]) -> None:
    """Record the definitions inside each `<tools>…</tools>` of a system body (one JSON object per line,
    several in a row, or a JSON list). The text stays the system message's content: the model saw it."""
    position = start
    while (opening := text.find("<tools>", position, end)) != -1:
        inner_start = opening + len("<tools>")
        close = text.find("</tools>", inner_start, end)
        inner_end, block_end = (end, end) if close == -1 else (close, close + len("</tools>"))
        quoted = opening > 0 and text[opening - 1] == "`" and text.startswith("`", inner_start, end)
        if quoted:  # `<tools>` is being talked about
            position = inner_start
            continue
        chunk = text[inner_start:inner_end]
        if chunk.strip():  # Qwen's prompt names the tags first ("within <tools></tools> XML tags")
            _declare_all(chunk, tools, notes, (opening, block_end))
        position = block_end


def _declare_all(chunk: str, tools: dict[str, Any], notes: list[Pending], span: Span) -> None:
    stripped = chunk.strip()
    values, stop, failed = json_values(stripped)
    if failed or not values or stripped[stop:].strip():
        notes.append(Pending("W-JSON-SYNTAX", "The tool definitions inside <tools> are not readable JSON; only "
                                              "those before the unreadable text are declared.", span))
    for value in values:
        for definition in value if isinstance(value, list) else [value]:
            declare(definition, tools, notes, span, "inside <tools>")


def tag_message(role: str, name: str | None, piece: Stretch) -> dict[str, Any]:
    """The fields of the message a tag block becomes (before its index, turn and final span are known)."""
    kind = piece.value if piece.kind == UNCLASSIFIED else piece.kind
    common = {"span": piece.span, "segments": (Segment.of(kind, piece.shown, piece.span),), "content": piece.content}
    if piece.kind == "think":
        return dict(role=role, name=name, channel="analysis", **common)
    if piece.kind == "tool_call":
        recipient, arguments = call_target(piece.value)
        readable = arguments is not UNREADABLE
        if readable:
            common["content"] = shown_json(arguments)
        return dict(role=role, name=name, recipient=recipient, channel="commentary",
                    content_type="json" if readable else None, end="call", **common)
    if piece.kind == "tool_response":
        reply = piece.value
        tool = reply.get("name") if isinstance(reply, dict) else None
        return dict(role="tool", name=qualified_tool_name(tool) if isinstance(tool, str) and tool else None,
                    recipient="assistant", channel="commentary",
                    content_type=None if reply is UNREADABLE else "json", **common)
    return dict(role=kind, name=name, channel=UNCLASSIFIED, **common)
