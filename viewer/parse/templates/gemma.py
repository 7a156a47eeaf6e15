"""Gemma 2 and 3 (and Gemma 3n, FunctionGemma) raw prompts, as their chat templates write them.

Turns: `<start_of_turn>ROLE` and a line break, the body, `<end_of_turn>`; `<bos>` and `<eos>` between turns
are frame. Roles user, model (read as assistant), and developer (FunctionGemma's first turn) or system where
a template writes one. Gemma's own templates have no system turn: Gemma 3 writes the system prompt at the start
of the first user turn, then a blank line. Nothing marks where it ends, so that turn stays the user's text, with
W-FOLDED-TEXT on its first paragraph saying what it may hold (when no system or developer turn came before).

Inside bodies (a token between backticks is text):
- Media: `<start_of_image>` (as the chat template writes it, or expanded with `<image_soft_token>`s and
  `<end_of_image>`), Gemma 3n's `<start_of_audio>` … `<end_of_audio>`: segments of kind `image` / `audio`,
  left out of the content.
- FunctionGemma: `<start_function_declaration>declaration:NAME{…}<end_function_declaration>` declares a tool
  (the text stays where it is); `<start_function_call>call:NAME{…}<end_function_call>` in a model turn is a
  call; `<start_function_response>response:NAME{…}<end_function_response>` (which the application writes into
  the model's turn, or any turn) is that tool's reply, paired by the tool's name. Values are FunctionGemma's
  notation (strings between `<escape>` tokens), read as JSON (calls.gemma_value); an unreadable call is a call
  of an unknown tool with E-CALL-SCHEMA. Calls and replies are read where they are written: at the start of
  a turn or right after another such block; after other text the tokens are that text (an answer explaining
  them).
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Segment, Transcript
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.options import ParseOptions
from viewer.parse.patterns import always_matching
from viewer.parse.templates.build import Family, TurnBuilder, read_transcript
from viewer.parse.templates.calls import gemma_value
from viewer.parse.templates.toolkit import LEAD, call, quoted, reply
from viewer.parse.templates.turns import ANY, Grammar, Mark, Turn

_PATTERN = re.compile(r"<(?:start_of_turn>(?P<role>[^<>\n]{0,64})(?:\r?\n)?|end_of_turn>|bos>|eos>)")
_FIXED = {"<end_of_turn>": Mark(ends=(ANY,)), "<bos>": Mark(frame="bos"), "<eos>": Mark(frame="eos")}
ROLES = {"user": "user", "model": "assistant", "developer": "developer", "system": "system"}
_BLOCK = re.compile(r"<start_function_(call|response|declaration)>|<start_of_(image|audio)>|<(image|audio)_soft_token>")
_MEDIA_RUN = {"image": always_matching(r"(?:<image_soft_token>)*(?:<end_of_image>)?"),
              "audio": always_matching(r"(?:<audio_soft_token>)*(?:<end_of_audio>)?")}
_NAMED = re.compile(r"\s*(call|response|declaration):([^{\s]+)(.*)", re.DOTALL)


def _mark(match: re.Match[str]) -> Mark:
    role = match.group("role")
    return _FIXED[match.group()] if role is None else Mark(opens=role.strip())


GRAMMAR = Grammar(_PATTERN, _mark)


def parse_gemma(text: str, options: ParseOptions) -> Transcript:
    """Read a Gemma raw prompt. Never raises: every defect is a diagnostic."""
    return read_transcript(text, options, FAMILY)


def _plain(text: str, turn: Turn, role: str, state: dict[str, Any]) -> bool:
    """A model turn or later user turn with no block or media token: what `_read_body` makes one message of."""
    if role == "assistant" or (role == "user" and state.get("user_seen")):
        return _BLOCK.search(text, *turn.body) is None
    return False


def _read_body(b: TurnBuilder, state: dict[str, Any]) -> None:
    start, end = b.turn.body
    if b.role in ("system", "developer"):
        state["instructed"] = True
    elif b.role == "user" and not state.get("user_seen"):
        state["user_seen"] = True
        if not state.get("instructed"):
            _folded_system(b, start, end)
    text_from = start
    media: list[Segment] = []
    position = start
    while (match := _BLOCK.search(b.source, position, end)) is not None:
        if quoted(b.source, match.start(), match.end(), end):  # talked about, not written
            position = match.end()
        elif match.group(1) == "declaration":  # declared, and kept as text: the model read it there
            position = _function_block(b, match, end, state["tools"])
        elif match.group(1) is not None and b.source[text_from:match.start()].strip():
            position = match.end()  # a call or reply only opens a turn or follows another block; here it is text
        elif match.group(1) is not None:
            _text(b, text_from, match.start(), media)
            media = []
            position = text_from = _function_block(b, match, end, state["tools"])
        else:
            kind = match.group(2) or match.group(3)
            run_end = _MEDIA_RUN[kind].match(b.source, match.end(), end).end()
            media.append(Segment.of(kind, "", (match.start(), run_end)))
            position = run_end
    _text(b, text_from, end, media)


def _folded_system(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    lead = LEAD.match(text, start, end).end()
    blank = text.find("\n\n", lead, end)
    if blank != -1 and text[blank:end].strip():
        b.note("W-FOLDED-TEXT", "Gemma templates write a system prompt at the start of the first user turn, "
                                "before a blank line; this paragraph may be one.", (lead, blank))


def _text(b: TurnBuilder, start: int, end: int, media: list[Segment]) -> None:
    """Plain text of the turn's role, with the media tokens inside it left out of its content."""
    if not media:
        b.text(start, end)
        return
    parts, segments, position = [], [], start
    for item in media:
        parts.append(b.source[position:item.span[0]])
        segments.append(Segment.of("text", b.source[position:item.span[0]].strip(), (position, item.span[0])))
        segments.append(item)
        position = item.span[1]
    parts.append(b.source[position:end])
    segments.append(Segment.of("text", b.source[position:end].strip(), (position, end)))
    b.add((start, end), "".join(parts).strip(), segments=tuple(s for s in segments if s.kind != "text" or s.text))


def _function_block(b: TurnBuilder, match: re.Match[str], end: int, tools: dict[str, Any]) -> int:
    """One FunctionGemma block; returns where it ends."""
    kind = match.group(1)
    closer = f"<end_function_{kind}>"
    close = b.source.find(closer, match.end(), end)
    inner_end, block_end = (end, end) if close == -1 else (close, close + len(closer))
    if close == -1:
        b.note("W-UNCLOSED-BLOCK", f"The {match.group()} block has no {closer}; it runs to the end of the turn.",
               (match.start(), end))
    span = (match.start(), block_end)
    inner = b.source[match.end():inner_end]
    named = _NAMED.fullmatch(inner)
    value = _value(named.group(3)) if named else None
    if kind == "declaration":
        _declare(b, named, value, span, tools)
    elif kind == "call" and b.role == "assistant":
        _call(b, named, value, span, inner)
    elif kind == "response":
        name = named.group(2) if named else None
        content = shown_json(value) if value is not None else inner.strip()
        reply(b, span, content, name=name, kind="function_response")
    else:
        b.note("W-MISPLACED-BLOCK", f"A function call in a {b.role} turn, which does not write one; it is kept "
                                    "as an unclassified message, hidden by default.", span)
        b.add(span, inner.strip(), role="function_call", channel="unclassified")
    return block_end


def _value(text: str) -> Any:
    try:
        return gemma_value(text)
    except (ValueError, RecursionError):
        return None


def _call(b: TurnBuilder, named: re.Match[str] | None, value: Any, span: tuple[int, int], inner: str) -> None:
    if named is None or named.group(1) != "call" or not isinstance(value, dict):
        b.note("E-CALL-SCHEMA", "This call is not call:NAME{arguments} in FunctionGemma's notation; it is kept as "
                                "a call of an unknown tool.", span)
        call(b, span, None, inner.strip(), kind="function_call")
        return
    call(b, span, qualified_tool_name(named.group(2)), shown_json(value), kind="function_call", raw=inner.strip())


def _declare(b: TurnBuilder, named: re.Match[str] | None, value: Any, span: tuple[int, int],
             tools: dict[str, Any]) -> None:
    """Declare a tool's parameters (the text stays its turn's: the model saw it)."""
    parameters = value.get("parameters") if isinstance(value, dict) else None
    if named is None or not isinstance(parameters, dict):
        b.note("W-TOOL-DEFINITION", "This function declaration is not declaration:NAME{…parameters…}.", span)
        return
    tools[qualified_tool_name(named.group(2))] = _lower_types(parameters)


def _lower_types(schema: Any) -> Any:
    """FunctionGemma writes JSON Schema types in capitals (`STRING`, `OBJECT`); the checks expect JSON Schema."""
    if isinstance(schema, dict):
        return {key: value.lower() if key == "type" and isinstance(value, str) else _lower_types(value)
                for key, value in schema.items()}
    if isinstance(schema, list):
        return [_lower_types(item) for item in schema]
    return schema


FAMILY = Family("gemma", GRAMMAR, ROLES, _read_body, _plain,
                "Unknown role {role!r}; Gemma roles are user and model (developer in FunctionGemma).")
