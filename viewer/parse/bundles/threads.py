"""Sub-agents kept in files or sessions of their own, joined to the conversation that started them: each
sub-agent's transcript (read on its own, its spans already in the bundle text) is appended to its parent's as a
`thread` named by the call that started it, its messages numbered on from the parent's. A sub-agent of a sub-agent
is joined the same way, its call found among the messages joined before it."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from msgspec.structs import replace as replace_fields

from viewer.model import Diagnostic, Thread, Transcript, Usage
from viewer.model.message import Message


@dataclass(frozen=True, slots=True)
class Child:
    """A sub-agent's conversation: its id (the thread's), its title, and its transcript."""

    id: str
    title: str | None
    transcript: Transcript


CallFinder = Callable[[Transcript, str], "int | None"]
"""The index of the call in a transcript that started the sub-agent of this id; None when none names it."""


def joined(parent: Transcript, children: list[Child], find_call: CallFinder) -> Transcript:
    """`parent` with each child's messages after its own, in the order given (a child before its own
    children), each a thread whose call `find_call` finds in what is joined so far."""
    for child in children:
        parent = _join(parent, child, find_call(parent, child.id))
    return parent


def _join(parent: Transcript, child: Child, call: int | None) -> Transcript:
    offset = len(parent.messages)
    turns = max((message.turn for message in parent.messages), default=-1) + 1
    messages = tuple(_moved(message, offset, turns, child.id) for message in child.transcript.messages)
    diagnostics = tuple(_moved_diagnostic(d, offset) for d in child.transcript.diagnostics)
    threads = (*parent.threads, Thread(child.id, call, child.title),
               *(Thread(t.id, None if t.call is None else t.call + offset, t.title) for t in child.transcript.threads))
    return dataclasses.replace(
        parent, messages=parent.messages + messages, diagnostics=parent.diagnostics + diagnostics,
        frame=tuple(sorted((*parent.frame, *child.transcript.frame), key=lambda segment: segment.span)),
        threads=threads, tools={**child.transcript.tools, **parent.tools},
        header={**parent.header, **summed(parent.header, child.transcript.header),
                **thread_headers(parent.header, child)})


def thread_headers(header: dict, child: Child) -> dict:
    """The header of each sub-agent's own transcript (what its log says of it: its facts, its own totals, what no
    reader read of it), kept under its thread's id in the parent's `thread_headers`: a thread has no header of its
    own, and a joined child's would be lost. A child's joined children are already in its own."""
    own = dict(child.transcript.header)
    below = own.pop(THREAD_HEADERS, {})
    return {THREAD_HEADERS: {**header.get(THREAD_HEADERS, {}), child.id: own, **below}}


THREAD_HEADERS = "thread_headers"


def _moved(message: Message, offset: int, turns: int, thread: str) -> Message:
    return replace_fields(message, index=message.index + offset, turn=message.turn + turns,
                          parent=None if message.parent is None else message.parent + offset,
                          thread=message.thread or thread)


def _moved_diagnostic(diagnostic: Diagnostic, offset: int) -> Diagnostic:
    if diagnostic.message_index is None:
        return diagnostic
    return dataclasses.replace(diagnostic, message_index=diagnostic.message_index + offset)


def summed(header: dict, other: dict) -> dict:
    """The totals of two agents' headers (their tokens, responses and models) as one: a session's totals with its
    sub-agents'."""
    usages = [Usage(**found) for found in (header.get("usage"), other.get("usage")) if isinstance(found, dict)]
    if not usages:
        return {}
    total = usages[0] if len(usages) == 1 else usages[0] + usages[1]
    models = list(dict.fromkeys([*header.get("models", ()), *other.get("models", ())]))
    responses = header.get("responses", 0) + other.get("responses", 0)
    return {"usage": total.to_json()} | ({"responses": responses} if responses else {}) | (
        {"models": models} if models else {})
