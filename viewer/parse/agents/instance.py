"""The task inside an instance template: the first user message of a SWE-agent or mini-swe-agent run is the task
(an issue's text, what the user asked) wrapped in the harness's boilerplate (where the repository is, how to
work, the machine's details). The task is what the user gave; the rest is injected context.

The task is told apart only where that is reliable: by the task's own text when the run recorded it (SWE-agent's
`problem_statement`), by the template the run recorded (the literal text before and after `{{task}}`), or by the
tags the stock templates put around it (`<pr_description>`, 0.x's `ISSUE:` … `INSTRUCTIONS:`). Otherwise the
message is shown whole and a diagnostic says that its boilerplate could not be told apart.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from viewer.model import Span
from viewer.parse.agents.pieces import context, said
from viewer.parse.agents.strings import StringOffsets
from viewer.parse.common import Pending
from viewer.parse.json.positions import Node
from viewer.parse.json.source import Draft

_TASK_TAG = re.compile(r"\{\{-?\s*(?:task|problem_statement)\s*-?\}\}")
_JINJA = re.compile(r"\{\{|\{%|\{#")
_TAGGED = (("<pr_description>", "</pr_description>"), ("<issue>", "</issue>"), ("\nISSUE:\n", "\n\nINSTRUCTIONS:"))
"""What the stock templates write before and after the task (SWE-agent's and mini-swe-agent's SWE-bench
templates; SWE-agent 0.x's `ISSUE:` … `INSTRUCTIONS:`)."""
SHORTEST_LITERAL = 8
"""A template's literal text around the task shorter than this could match inside the task: not relied on."""


class Task(NamedTuple):
    """Where the task lies in the message's text, and how it was found."""

    start: int
    end: int
    how: str


def find_task(content: str, known: str | None = None, template: str | None = None) -> Task | None:
    """The task's place in the first user message, or None when it cannot be told apart reliably."""
    if known and known.strip():
        at = content.find(known.strip())
        if at != -1:
            return Task(at, at + len(known.strip()), "the run's problem statement")
    if template:
        found = _by_template(content, template)
        if found is not None:
            return found
    for opening, closing in _TAGGED:
        found = _between(content, opening, closing)
        if found is not None:
            return found
    return None


def _between(content: str, opening: str, closing: str) -> Task | None:
    """The text between the first `opening` and the `closing` after it, without the blank lines at its edges."""
    at = ("\n" + content).find(opening)
    if at == -1:
        return None
    start = at + len(opening) - 1  # `at` counts the line break put before the content
    end = content.find(closing, start)
    if end == -1:
        return None
    while start < end and content[start] in " \t\n":
        start += 1
    while end > start and content[end - 1] in " \t\n":
        end -= 1
    return Task(start, end, "the template's tags") if end > start else None


def _by_template(content: str, template: str) -> Task | None:
    """The task between the template's literal text before `{{task}}` and the literal text after it."""
    tag = _TASK_TAG.search(template)
    if tag is None:
        return None
    before, after = template[:tag.start()], template[tag.end():]
    if _JINJA.search(before):
        return None
    following = _JINJA.search(after)
    if not content.startswith(before):
        return None
    if following is None:  # the template ends with literal text: the message ends with it too
        tail = after.rstrip()
        body = content.rstrip()
        if not body.endswith(tail) or len(body) - len(tail) < len(before):
            return None
        return Task(len(before), len(body) - len(tail), "the run's template")
    after = after[:following.start()]
    if len(after.strip()) < SHORTEST_LITERAL:  # too short to be found only where the template put it
        return None
    end = content.find(after, len(before))
    if end == -1:
        return None
    return Task(len(before), end, "the run's template")


def task_pieces(text: str, content: str, literal: Node | None, span: Span, known: str | None = None,
                template: str | None = None) -> list[Draft]:
    """The first user message as its pieces: the boilerplate before the task (context), the task (the user's),
    the boilerplate after it (context), each spanning its own stretch of the string when `literal` is the
    string's node; or the whole message as the user's, with W-FOLDED-TEXT, when the task cannot be told apart."""
    task = find_task(content, known, template)
    if task is None:
        piece = said("user", content, span)
        piece.problems.append(Pending("W-FOLDED-TEXT", "The task is wrapped in the run's instance template, and its "
                                                       "boilerplate could not be told apart from it: the message is "
                                                       "shown whole.", span))
        return [piece]
    offsets = StringOffsets(text, literal.span) if literal is not None and isinstance(literal.value, str) else None

    def where(start: int, end: int) -> Span:
        return offsets.span(start, end) if offsets is not None else span

    found = []
    if content[:task.start].strip():
        found.append(context(content[:task.start], where(0, task.start), name="instance_template"))
    found.append(said("user", content[task.start:task.end], where(task.start, task.end)))
    if content[task.end:].strip():
        found.append(context(content[task.end:], where(task.end, len(content)), name="instance_template"))
    return found
