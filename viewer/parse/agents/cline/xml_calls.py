"""Tool calls written as XML in an assistant's text, as Cline did before native tool calling (and still does for
models without it), and Roo Code (to 3.41) and Kilo Code (a task locked to the `xml` protocol) do:

    <thinking>
    I need to see the argument handling first.
    </thinking>

    <read_file>
    <path>bin/report.js</path>
    </read_file>

The tag is the tool, each child element an argument (`<args>` of Kilo's multi-file read keeps its inner XML as
its text); `<thinking>` is the reasoning the system prompt asked for in the same text. The agents parse only the
tools they know; so does this, and also any other snake_case tag that opens with an argument element (a tool of
a later version or an MCP bridge), so that a call's arguments are never shown as the answer. A tag left open
(the response was interrupted) is a call, or reasoning, to the end of the text.
"""
from __future__ import annotations

import re
from typing import NamedTuple

KNOWN_TOOLS = frozenset((
    # Cline
    "execute_command", "read_file", "write_to_file", "replace_in_file", "search_files", "list_files",
    "list_code_definition_names", "browser_action", "use_mcp_tool", "access_mcp_resource", "ask_followup_question",
    "plan_mode_respond", "load_mcp_documentation", "attempt_completion", "new_task", "condense", "summarize_task",
    "report_bug", "new_rule", "web_fetch", "web_search", "focus_chain", "use_subagents",
    # Roo Code and Kilo Code
    "apply_diff", "insert_content", "search_and_replace", "codebase_search", "fetch_instructions", "switch_mode",
    "update_todo_list", "run_slash_command", "generate_image", "simple_read_file", "edit_file", "apply_patch",
    "new_rule", "report_bug", "condense",
))
REASONING = "thinking"
_OPEN = re.compile(r"<([a-z][a-z0-9_]*)>")
_ARGUMENT = re.compile(r"\s*<([A-Za-z_][\w-]*)>")
VERBATIM_ARGUMENTS = ("content", "diff")
"""Arguments whose text keeps its inner blanks (a file's content, a diff): only the line break after the opening
tag and before the closing one are layout."""


class Piece(NamedTuple):
    """A stretch of the text: prose (`text`), reasoning (`thinking`) or a call (`call`, with its tool and
    arguments); `closed` is False for a tag the text leaves open."""

    kind: str
    text: str
    tool: str | None = None
    arguments: dict[str, str] | None = None
    closed: bool = True


def split_calls(text: str) -> list[Piece]:
    """The text as prose, reasoning and calls, in order; blank prose left out. A text with no tag is one piece."""
    pieces: list[Piece] = []
    position = 0
    while True:
        opening = _next_tag(text, position)
        if opening is None:
            _prose(pieces, text[position:])
            return pieces
        _prose(pieces, text[position:opening.start()])
        name = opening[1]
        if name == REASONING:
            piece, position = _reasoning(text, opening.end())
        else:
            piece, position = _call(text, name, opening.end())
        pieces.append(piece)
        if not piece.closed:
            return pieces


def _next_tag(text: str, position: int) -> re.Match[str] | None:
    for opening in _OPEN.finditer(text, position):
        name = opening[1]
        if name == REASONING or name in KNOWN_TOOLS or "_" in name and _opens_with_argument(text, opening.end(),
                                                                                         name):
            return opening
    return None


def _opens_with_argument(text: str, at: int, name: str) -> bool:
    """Whether an unknown tag's body starts with an argument element, or closes at once."""
    return bool(_ARGUMENT.match(text, at)) or text[at:].lstrip().startswith(f"</{name}>")


def _prose(pieces: list[Piece], text: str) -> None:
    if text.strip():
        pieces.append(Piece("text", text.strip()))


def _reasoning(text: str, at: int) -> tuple[Piece, int]:
    close = text.find(f"</{REASONING}>", at)
    if close == -1:
        return Piece(REASONING, text[at:].strip(), closed=False), len(text)
    return Piece(REASONING, text[at:close].strip()), close + len(REASONING) + 3


def _call(text: str, name: str, at: int) -> tuple[Piece, int]:
    """The call's arguments, each element read to its own closing tag (so a closing tool tag inside a file's
    content does not end the call), up to the tool's closing tag."""
    arguments: dict[str, str] = {}
    closing = f"</{name}>"
    position = at
    while True:
        rest = text[position:].lstrip()
        skipped = len(text) - position - len(rest)
        if rest.startswith(closing):
            return Piece("call", "", name, arguments), position + skipped + len(closing)
        argument = _ARGUMENT.match(text, position)
        if argument is None:
            end = text.find(closing, position)  # loose text inside the call: kept with the call, not shown
            if end == -1:
                return Piece("call", "", name, arguments, closed=False), len(text)
            loose = text[position:end].strip()
            if loose:
                arguments.setdefault("text", loose)
            return Piece("call", "", name, arguments), end + len(closing)
        key = argument[1]
        end = text.find(f"</{key}>", argument.end())
        if end == -1:
            arguments[key] = _value(key, text[argument.end():])
            return Piece("call", "", name, arguments, closed=False), len(text)
        arguments[key] = _value(key, text[argument.end():end])
        position = end + len(key) + 3


def _value(key: str, raw: str) -> str:
    if key in VERBATIM_ARGUMENTS:
        return raw.removeprefix("\n").removesuffix("\n")
    return raw.strip()
