"""Llama 3.x raw prompts, as meta-llama's llama-models and the models' chat templates write them.

Turns: `<|start_header_id|>ROLE<|end_header_id|>` and two line breaks, the body, then `<|eot_id|>` (end of turn)
or `<|eom_id|>` (end of message: the model waits for a tool; a call ending so has end `call`).
`<|begin_of_text|>` and `<|end_of_text|>` between turns are frame. Roles system, user, assistant, and ipython
(tool results; `tool` as some templates write it), which reads as role tool and pairs with calls in order.

Assistant bodies:
- A body starting with `<|python_tag|>` is a call (llama-models reads one only there; the token later in an
  answer is text): `name.call(k="v")` is a built-in tool
  (`brave_search`, `wolfram_alpha`; recipient the bare name), JSON `{"name", "parameters"}` a custom tool,
  anything else code for the built-in interpreter (recipient `python`).
- A whole body that is a JSON object with a string `name` and an object `parameters` (or `arguments`), a
  Llama 3.2 list of Python calls `[get_weather(city="Oslo"), …]`, or `<function=name>{…}</function>`
  (the custom format a system prompt may ask for) is one call or several. A body that starts like one of
  these but cannot be read (a stream cut inside a call) is a call of an unknown tool with E-CALL-SCHEMA:
  hidden, as a call's arguments are.
Tool definitions are read where the templates put them (the text stays where it was, as the model saw it):
- in the system turn, the JSON objects after "You have access to the following functions" (3.1) or the JSON
  list after "Here is a list of functions in JSON format" (3.2): declared, the text stays system text;
- in the first user turn, after "Given the following functions" (`tools_in_user_message`, the default): that
  preamble and the definitions become a system message of their own (hidden), the rest stays the user's.
"""
from __future__ import annotations

import re
from typing import Any

from viewer.model import Transcript
from viewer.parse.chatml.scanning import UNREADABLE, json_values, whole_json
from viewer.parse.common import qualified_tool_name, shown_json
from viewer.parse.options import ParseOptions
from viewer.parse.templates.build import Family, TurnBuilder, read_transcript
from viewer.parse.templates.calls import python_calls
from viewer.parse.templates.toolkit import LEAD, call, declare_all, item_spans, json_call, reply
from viewer.parse.templates.turns import ANY, Grammar, Mark, Turn

_PATTERN = re.compile(r"<\|(?:start_header_id\|>(?P<role>[^<>\n]{0,64}?)<\|end_header_id\|>(?:\r?\n\r?\n)?"
                      r"|eot_id\|>|eom_id\|>|begin_of_text\|>|end_of_text\|>)")
_FIXED = {"<|eot_id|>": Mark(ends=(ANY,)), "<|eom_id|>": Mark(ends=(ANY,), end="call"),
          "<|begin_of_text|>": Mark(frame="bos"), "<|end_of_text|>": Mark(frame="eos")}
ROLES = {"system": "system", "user": "user", "assistant": "assistant", "ipython": "tool", "tool": "tool"}
PYTHON_TAG = "<|python_tag|>"
USER_TOOLS = "Given the following functions, please respond with a JSON for a function call"
SYSTEM_TOOLS = ("You have access to the following functions.", "Here is a list of functions in JSON format")
_DEFINITIONS_START = re.compile(r"Do not use variables\.\s*|in JSON format that you can invoke\.\s*")
_FUNCTION_TAG = re.compile(r"\s*<function=([^>\s]+)>(.*)</function>\s*", re.DOTALL)
BUILTINS = {"brave_search", "wolfram_alpha", "photogen"}
CALL_START = re.compile(r'\s*(?:\{\s*"name"\s*:|\[\s*[A-Za-z_][\w.]*\(|<function=)')


def _mark(match: re.Match[str]) -> Mark:
    role = match.group("role")
    return _FIXED[match.group()] if role is None else Mark(opens=role)


GRAMMAR = Grammar(_PATTERN, _mark)


def parse_llama3(text: str, options: ParseOptions) -> Transcript:
    """Read a Llama 3.x raw prompt. Never raises: every defect is a diagnostic."""
    return read_transcript(text, options, FAMILY)


def _plain(text: str, turn: Turn, role: str, state: dict[str, Any]) -> bool:
    """A later user turn, or an answer that cannot start a call: what `_read_body` makes one text message of."""
    if role == "user":
        return bool(state.get("user_seen"))
    if role != "assistant":
        return False
    start, end = turn.body
    lead = LEAD.match(text, start, end).end()
    return lead == end or text[lead] not in "{[<"


def _read_body(b: TurnBuilder, state: dict[str, Any]) -> None:
    start, end = b.turn.body
    if b.role == "assistant":
        _assistant(b, start, end)
    elif b.role == "tool":
        reply(b, (start, end), b.source[start:end].strip(), kind="ipython")
    elif b.role == "system":
        _system(b, start, end, state["tools"])
    elif b.role == "user" and not state.get("user_seen"):
        state["user_seen"] = True
        _first_user(b, start, end, state["tools"])
    else:
        b.text(start, end)


def _system(b: TurnBuilder, start: int, end: int, tools: dict[str, Any]) -> None:
    text = b.source
    for phrase in SYSTEM_TOOLS:
        at = text.find(phrase, start, end)
        if at != -1:
            _definitions(b, at, end, tools)
    b.text(start, end)


def _first_user(b: TurnBuilder, start: int, end: int, tools: dict[str, Any]) -> None:
    """Split off the tool definitions `tools_in_user_message` writes before the user's own text."""
    text = b.source
    lead = LEAD.match(text, start, end).end()
    if not text.startswith(USER_TOOLS, lead, end):
        b.text(start, end)
        return
    stop = _definitions(b, lead, end, tools)
    b.add((lead, stop), text[lead:stop].rstrip(), role="system", name="tools")
    b.text(stop, end)


def _definitions(b: TurnBuilder, at: int, end: int, tools: dict[str, Any]) -> int:
    """Declare the JSON definitions that follow the template's instructions at `at`; return where they end."""
    text = b.source
    opening = _DEFINITIONS_START.search(text, at, end)
    if opening is None:
        return at
    chunk = text[opening.end():end]
    values, stop, failed = json_values(chunk)
    span = (at, opening.end() + stop)
    for value in values:
        declare_all(b, tools, value, span, "in the prompt")
    if failed:
        b.note("W-JSON-SYNTAX", "The tool definitions here are not readable JSON; only those before the "
                                "unreadable text are declared.", span)
    return opening.end() + stop


def _assistant(b: TurnBuilder, start: int, end: int) -> None:
    text = b.source
    body = text[start:end]
    lead = start + len(body) - len(body.lstrip())
    if text.startswith(PYTHON_TAG, lead, end):  # only there: llama-models reads a call from a body starting so
        _tagged_call(b, lead, end)
        return
    if _whole_body_calls(b, start, end, body):
        return
    if CALL_START.match(body):  # a call cut short or garbled: its arguments are not an answer (fail closed)
        json_call(b, (start, end), UNREADABLE, body.strip())
        return
    b.text(start, end)


def _tagged_call(b: TurnBuilder, tag: int, end: int) -> None:
    """What follows `<|python_tag|>`: a built-in tool call, a JSON call, or code for the interpreter."""
    source = b.source[tag + len(PYTHON_TAG):end].strip()
    span = (tag, end)
    value = whole_json(source)
    if isinstance(value, dict) and "name" in value:
        json_call(b, span, value, source, arguments_keys=("parameters", "arguments"), kind="python_tag")
        return
    found = python_calls(source, as_list=False) if ".call(" in source else None
    if found and found[0][0].endswith(".call"):
        name, arguments, _ = found[0]
        tool = name.removesuffix(".call")
        call(b, span, tool if tool in BUILTINS else f"functions.{tool}", shown_json(arguments), kind="python_tag",
             raw=source)
        return
    call(b, span, "python", source, kind="python_tag", content_type=None)


def _whole_body_calls(b: TurnBuilder, start: int, end: int, body: str) -> bool:
    """A body that is nothing but a call (or a 3.2 list of calls): its call messages, and True."""
    stripped = body.strip()
    if stripped.startswith("{") and stripped.endswith("}"):
        value = whole_json(stripped)
        if isinstance(value, dict) and isinstance(value.get("name"), str) and (
                "parameters" in value or "arguments" in value):
            json_call(b, (start, end), value, stripped, arguments_keys=("parameters", "arguments"))
            return True
        return False
    if stripped.startswith("[") and stripped.endswith("]") and "(" in stripped:
        found = python_calls(body, as_list=True)
        if not found:
            return False
        spans = item_spans([(start + first, start + last) for _, _, (first, last) in found], start, end)
        for (name, arguments, (first, last)), span in zip(found, spans):
            call(b, span, qualified_tool_name(name), shown_json(arguments), kind="python_list",
                 raw=b.source[start + first:start + last])
        return True
    tagged = _FUNCTION_TAG.fullmatch(body)
    if tagged is not None:
        value = whole_json(tagged.group(2))
        json_call(b, (start, end), {"name": tagged.group(1), "arguments": value} if isinstance(value, dict)
                  else UNREADABLE, stripped, kind="function_tag")
        return True
    return False


FAMILY = Family("llama3", GRAMMAR, ROLES, _read_body, _plain,
                "Unknown role {role!r}; Llama 3 roles are system, user, assistant and ipython.",
                reply=lambda text, turn: "ipython")
