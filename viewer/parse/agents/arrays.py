"""The elements of an agent's log written as one JSON array of records (Cline's `api_conversation_history.json`
and `ui_messages.json`), read one at a time as lines.py reads a log's lines, so that a file cut short keeps every
element before the cut.

The agents write these files whole after every change (`JSON.stringify`, then a rename), so a cut is rare, but
copies taken mid-sync and hook snapshots are cut anywhere: an element that breaks off where the text ends is
E-STREAM-TRUNCATED (the file goes on past what is shown), any other break W-JSON-SYNTAX; the text from there on
is the diagnostic's. Each element is read with the spans of its members and of their items (`depth`), which the
readers need to point a block's message at its block.
"""
from __future__ import annotations

from viewer.model import Diagnostic, make_diagnostic
from viewer.parse.agents.lines import Line
from viewer.parse.json.positions import JsonError, read_value, skip_blank

ELEMENT_DEPTH = 3
"""An element, its members, and their items (a message's content blocks)."""


def read_elements(text: str, what: str, depth: int = ELEMENT_DEPTH) -> tuple[list[Line], list[Diagnostic]]:
    """The elements of the array the text holds that are objects, as lines numbered from 1, and a diagnostic
    for each that is not and for where reading stopped. `what` names the file for the diagnostics ("This
    history")."""
    start = skip_blank(text, 0)
    if start == len(text):
        return [], []
    if not text.startswith("[", start):
        return [], [make_diagnostic("W-JSON-SHAPE", to_end(text, start),
                                    f"{what} should be a JSON array of records; it was not read.")]
    elements: list[Line] = []
    problems: list[Diagnostic] = []
    at = skip_blank(text, start + 1)
    number = 0
    while at < len(text) and not text.startswith("]", at):
        number += 1
        try:
            node = read_value(text, at, depth)
        except JsonError as error:
            problems.append(_broken(text, at, number, error, what))
            return elements, problems
        if isinstance(node.value, dict):
            elements.append(Line(number, node.span, node.value, text, dict(node.members)))
        else:
            problems.append(make_diagnostic("W-JSON-SHAPE", node.span,
                                            f"Element {number} is not a JSON object; it was skipped."))
        at = skip_blank(text, node.span[1])
        if text.startswith(",", at):
            at = skip_blank(text, at + 1)
        elif not text.startswith("]", at) and at < len(text):
            problems.append(make_diagnostic("W-JSON-SYNTAX", to_end(text, at),
                                            f"Expecting ',' after element {number}; the rest was not read."))
            return elements, problems
    if at >= len(text):
        problems.append(make_diagnostic("E-STREAM-TRUNCATED", (start, start + 1),
                                        f"{what} breaks off after element {number}: the array is never closed."))
    else:
        after = skip_blank(text, at + 1)
        if after < len(text):
            problems.append(make_diagnostic("W-JSON-SYNTAX", to_end(text, after),
                                            "Text after the array was not read."))
    return elements, problems


def to_end(text: str, start: int) -> tuple[int, int]:
    """From `start` to the end of the text without its blank tail (never before `start`)."""
    return start, max(start, len(text.rstrip()))


def _broken(text: str, at: int, number: int, error: JsonError, what: str) -> Diagnostic:
    span = to_end(text, at)
    reason = error.reason.removesuffix(" starting at").removesuffix(" at")
    if not text.rstrip().endswith("]"):  # the array never closes: the text stops inside this element
        return make_diagnostic("E-STREAM-TRUNCATED", span,
                               f"{what} breaks off inside element {number} ({reason}): the file was cut short "
                               "while it was written or copied; what follows is missing.")
    return make_diagnostic("W-JSON-SYNTAX", span, f"Element {number} is not valid JSON ({reason}); it and the "
                                                  "rest of the array were not read.")
