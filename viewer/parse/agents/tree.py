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

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
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


BRANCH, HANGS, CONTINUES = 0, 1, 2
"""What a line is to its parent, for telling branches apart: a line that starts a branch when it has a sibling;
one that hangs off its parent (a user line of tool results: never a branch); one that continues its parent's
response when they share its id (an assistant's next block)."""
NO_RESPONSE = -1


class GrowingTree:
    """`Tree`, for a session read online: each message's parent as its line is met (`add`), then at the end
    (`ending`) the chain that ends at the conversation's last line, the forks on it and every message aside.

    Kept per line with an id, compactly: the id's slot (a dict from id to number, in the order first met) and,
    in arrays by slot, its parent's slot, its first and last message, what it is to its parent and its
    response's number. The parents of lines met before their parent are resolved at the end."""

    def __init__(self) -> None:
        self.slots: dict[str, int] = {}
        self.parents = array("i")
        """A slot's parent slot; -1 for none, -2 for an id not met when the line was."""
        self.waiting: dict[int, str] = {}
        """Slots whose parent's id was not met yet, and that id."""
        self.first = array("i")
        self.last = array("i")
        self.kinds = bytearray()
        self.responses = array("i")
        self.linked = array("i")
        """The parent message each slot's first message was given (-1: none)."""
        self._previous: object = None
        self._previous_index = -1

    def add(self, index: int, line: object, uuid: str | None, parent: str | None, kind: int = BRANCH,
            response: int = NO_RESPONSE) -> int | None:
        """Message `index`, of `line` (an object: the messages of one line follow one another), whose line has
        id `uuid` and names `parent`; its parent message, as far as the lines met so far tell."""
        found = None
        if line is self._previous:
            found = self._previous_index  # the blocks of one line follow one another
        elif uuid is not None and uuid not in self.slots:
            slot = self.slots[uuid] = len(self.first)
            self.first.append(index)
            self.last.append(index)
            self.kinds.append(kind)
            self.responses.append(response)
            above = self.slots.get(parent, -1) if parent is not None else -1
            if parent is not None and above < 0:
                above = -2
                self.waiting[slot] = parent
            self.parents.append(above)
            found = self.last[above] if above >= 0 else None
            self.linked.append(-1 if found is None else found)
        if uuid is not None:
            self.last[self.slots[uuid]] = index
        self._previous, self._previous_index = line, index
        return found

    def ending(self) -> Ending:
        """At the end: the parents that differ from what `add` said (a parent met after its child, an id met
        again), the messages aside, the forks on the chain and the first message of each branch left."""
        for slot, parent in self.waiting.items():
            self.parents[slot] = self.slots.get(parent, -1)
        relinked = {}
        for slot, parent_slot in enumerate(self.parents):
            found = self.last[parent_slot] if parent_slot >= 0 else -1
            if found != self.linked[slot]:
                relinked[self.first[slot]] = None if found < 0 else found
        ending = Ending(relinked)
        if self.first:
            self._follow(ending)
        return ending

    def _follow(self, ending: Ending) -> None:
        count = len(self.first)
        chain = bytearray(count)
        slot = count - 1
        while slot >= 0 and not chain[slot]:
            chain[slot] = 1
            slot = self.parents[slot]
        children = _children(self.parents)
        for parent, below in children.items():
            if not chain[parent]:
                continue
            branches = [slot for slot in below if self._is_branch(slot, parent)]
            if len(branches) < 2:
                continue
            ending.forks.append(Fork(self.last[parent], tuple(self.first[branch] for branch in branches)))
            for branch in branches:
                if not chain[branch]:
                    self._set_aside(branch, children, ending.aside)
                    ending.left.append(self.first[branch])

    def _is_branch(self, slot: int, parent: int) -> bool:
        kind = self.kinds[slot]
        if kind == HANGS:
            return False
        if kind == CONTINUES:
            response = self.responses[slot]
            return response == NO_RESPONSE or self.responses[parent] != response
        return True

    def _set_aside(self, top: int, children: dict[int, list[int]], aside: set[int]) -> None:
        waiting, seen = [top], set()
        while waiting:
            slot = waiting.pop()
            if slot in seen:
                continue
            seen.add(slot)
            aside.update(range(self.first[slot], self.last[slot] + 1))
            waiting.extend(children.get(slot, ()))


def _children(parents: array) -> dict[int, list[int]]:
    """Each slot's children, in the order met; parents in the order their first child was met."""
    children: dict[int, list[int]] = {}
    for slot, parent in enumerate(parents):
        if parent >= 0:
            children.setdefault(parent, []).append(slot)
    return children


@dataclass(slots=True)
class Ending:
    """What the end of a session decides about its tree."""

    relinked: dict[int, int | None]
    """Messages whose parent differs from what was said when they were met: their parent now."""
    aside: set[int] = field(default_factory=set)
    forks: list[Fork] = field(default_factory=list)
    left: list[int] = field(default_factory=list)
    """The first message of each branch left for another, in the order the forks and their branches stand."""
