"""What a text of a Cline, Roo Code or Kilo Code user turn is. The agent writes nearly all of a user turn itself:
the tool results (`[read_file for 'src/db.ts'] Result:` and the output), the `<environment_details>` block that
ends every turn, resumption and error notes, expanded @-mentions (`<file_content path=…>`). What the user typed
is always inside a wrapper: `<task>` (the first message), `<feedback>` (on an approval or a denial), `<answer>`
(to a follow-up question), `<user_message>` (a resumed task's new instructions; every typed text in Roo Code
3.42 and later), `<user_input mode=…>` (the Cline SDK). So the wrapped text is shown, and everything else is
injected context, hidden: what no wrapper marks as typed is never shown as the user's.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from viewer.parse.common import trim_newline

TYPED = re.compile(r"\A([^<]{0,4000})<(task|feedback|answer|user_message|user_input)(?:\s[^>\n]*)?>(.*?)</\2>",
                   re.DOTALL)
"""A wrapper around text the user typed, at the start of a text or after a sentence that leads into it ("New
instructions for task continuation:"). One per text: the agents append expanded @-mentions (a file's content,
which may hold anything) after it."""
TYPED_IN_RESULT = re.compile(r"(?:\A\s*|[Ff]eedback[^\n<]{0,200}:[ \t]*\r?\n)<(feedback|answer)>(.*?)</\1>", re.DOTALL)
"""The user's words inside a tool's result: an answer to a follow-up question, which starts the result, or
feedback on an approval, after the sentence that leads into it. Anywhere else such a tag is the tool's output (a
file read may hold anything)."""
RESULT_HEADER = re.compile(r"\A\s*\[([A-Za-z_][\w.-]*)(?: for [^\n]*?)?\] Result:[ \t]*(?:\r?\n)?")
"""The header of a tool result written as text (`[read_file for 'src/db.ts'] Result:`,
`[attempt_completion] Result:`; Roo and Kilo's multi-file read adds a sentence before the bracket closes)."""
ENVIRONMENT = "<environment_details>"
TOOL_FAILED = "The tool execution failed with the following error:"
"""How Cline, Roo and Kilo write a tool's failure into its result."""
MODEL = re.compile(r"<model>([^<\n]{1,200})</model>")
"""Roo Code and Kilo Code name the model of the mode in its environment details."""
WORKING_FOLDER = re.compile(r"^# Current (?:Working|Workspace) Directory \(([^)\n]{1,1000})\) Files", re.MULTILINE)


class Run(NamedTuple):
    """A stretch of a user text: what the user typed (`typed`) or what the agent wrote (`context`)."""

    kind: str
    text: str


def runs(text: str) -> list[Run]:
    """The text as its injected and typed stretches, in order, blank ones left out."""
    wrapped = TYPED.match(text)
    if wrapped is None:
        return _kept([Run("context", text)])
    return _kept([Run("context", wrapped[1]), Run("typed", trim_newline(wrapped[3], lead=True, tail=True)),
                  Run("context", text[wrapped.end():])])


def typed_in_result(text: str) -> str | None:
    """What the user typed inside a tool's result (`TYPED_IN_RESULT`), or None."""
    header = RESULT_HEADER.match(text)
    found = TYPED_IN_RESULT.search(text[header.end():] if header else text)
    if found is None or not found[2].strip():
        return None
    return trim_newline(found[2], lead=True, tail=True)


def _kept(found: list[Run]) -> list[Run]:
    return [Run(kind, text.strip() if kind == "context" else text) for kind, text in found if text.strip()]


def result_header(text: str) -> tuple[str, str] | None:
    """The tool a result text names and the output after its header; None for any other text."""
    header = RESULT_HEADER.match(text)
    if header is None:
        return None
    return header[1], text[header.end():]


def is_environment(text: str) -> bool:
    return text.lstrip().startswith(ENVIRONMENT)


def failed(output: str) -> bool:
    """Whether a tool's result (its header aside) says that the tool failed."""
    header = RESULT_HEADER.match(output)
    return output[header.end() if header else 0:].lstrip().startswith(TOOL_FAILED)


def model_named(text: str) -> str | None:
    """The model an environment block names (Roo Code and Kilo Code), or None."""
    found = MODEL.search(text)
    return found[1].strip() if found else None


def working_folder(text: str) -> str | None:
    """The working folder a first turn's environment block lists, or None."""
    found = WORKING_FOLDER.search(text)
    return found[1] if found else None
