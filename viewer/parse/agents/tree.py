"""The tree that `parentUuid` draws over a session's lines: each message's parent, the chain that ends at the
session's last message, and the forks a rewind, an edit or a regeneration made.

Not every line with a sibling is a fork: a tool's result may hang off the line of its call while the response
goes on beside it, and a response's next block off its previous one. A line is a branch only when it is neither
(a `user` line of tool results, an `assistant` line of its parent's response); a line with two branches is a
fork. Every branch is kept. The view follows the chain that ends at the last message of the conversation: every
line under a branch that chain does not take is `aside` (hidden by default), and each such branch is reported
(W-SESSION-FORK) on its first message. A compaction restarts the chain (`parentUuid` null) and names the message
it continues in `logicalParentUuid`, so the messages before it stay on the chain.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from viewer.model import Diagnostic, Message, make_diagnostic
from viewer.model.branches import Fork
from viewer.parse.agents.lines import Line
from viewer.parse.json.fields import object_in


class Tree:
    """Parents, the lines aside and the forks of one conversation's messages (`indices`)."""

    def __init__(self, messages: Sequence[Message], lines: Sequence[Line], indices: Sequence[int]) -> None:
        self.parent: dict[int, int] = {}
        """Message index -> the index of the message it follows."""
        self.aside: set[int] = set()
        self.diagnostics: list[Diagnostic] = []
        self.forks: list[Fork] = []
        """The forks on the chain followed: a reader of the debug view may follow another of their branches."""
        self._lines = lines
        self._first: dict[str, int] = {}
        self._last: dict[str, int] = {}
        """Line uuid -> its first and last message."""
        self._parent: dict[str, str] = {}
        order: list[str] = []
        previous = None
        for index in indices:
            line = lines[index]
            uuid = _text(line.value.get("uuid"))
            if line is previous:
                self.parent[index] = index - 1  # the blocks of one line follow one another
            elif uuid is not None and uuid not in self._first:
                self._first[uuid] = index
                order.append(uuid)
                parent = _text(line.value.get("parentUuid")) or _text(line.value.get("logicalParentUuid"))
                if parent is not None:
                    self._parent[uuid] = parent
            if uuid is not None:
                self._last[uuid] = index
            previous = line
        for uuid, parent in self._parent.items():
            if parent in self._last:
                self.parent[self._first[uuid]] = self._last[parent]
        if order:
            self._follow(order, messages)

    def _follow(self, order: list[str], messages: Sequence[Message]) -> None:
        chain: set[str] = set()
        uuid: str | None = order[-1]
        while uuid is not None and uuid not in chain and uuid in self._first:
            chain.add(uuid)
            uuid = self._parent.get(uuid)
        children: dict[str, list[str]] = {}
        for uuid in order:
            if uuid in self._parent:
                children.setdefault(self._parent[uuid], []).append(uuid)
        for parent, below in children.items():
            branches = [uuid for uuid in below if self._is_branch(uuid, parent)]
            if len(branches) < 2 or parent not in chain:
                continue
            self.forks.append(Fork(self._last[parent], tuple(self._first[branch] for branch in branches)))
            for branch in branches:
                if branch not in chain:
                    self._set_aside(branch, children)
                    index = self._first[branch]
                    self.diagnostics.append(make_diagnostic(
                        "W-SESSION-FORK", messages[index].span,
                        "The conversation forks here (a rewind, an edit or a regeneration): this branch was left "
                        "for another; its messages are kept, hidden from the default view, which follows the "
                        "branch that ends at the last message.", index))

    def _is_branch(self, uuid: str, parent: str) -> bool:
        """Whether a line starts a branch, rather than hanging off its parent as a tool's result or as the next
        block of the parent's response."""
        value = self._lines[self._first[uuid]].value
        body = object_in(value, "message")
        if value.get("type") == "user":
            content = body.get("content")
            return not (isinstance(content, list) and content
                        and all(isinstance(block, dict) and block.get("type") == "tool_result" for block in content))
        if value.get("type") == "assistant" and parent in self._first:
            above = self._lines[self._first[parent]].value.get("message")
            return not (isinstance(above, dict) and body.get("id") is not None and above.get("id") == body.get("id"))
        return True

    def _set_aside(self, top: str, children: dict[str, list[str]]) -> None:
        """Every message of the lines under `top`, `top` included."""
        waiting, seen = [top], set()
        while waiting:
            uuid = waiting.pop()
            if uuid in seen:
                continue
            seen.add(uuid)
            self.aside.update(range(self._first[uuid], self._last[uuid] + 1))
            waiting.extend(children.get(uuid, ()))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
