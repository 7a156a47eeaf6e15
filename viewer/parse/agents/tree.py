"""The tree that `parentUuid` draws over a session's lines (Claude Code's, Qwen Code's): each message's parent, the
chain that ends at the session's last message, and the forks a rewind, an edit or a regeneration made.

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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from msgspec.structs import replace as replace_fields

from viewer.model import Message, Note
from viewer.model.branches import Fork
from viewer.parse.agents.session import Change


BRANCH, HANGS, CONTINUES = 0, 1, 2
"""What a line is to its parent, for telling branches apart: a line that starts a branch when it has a sibling;
one that hangs off its parent (a user line of tool results: never a branch); one that continues its parent's
response when they share its id (an assistant's next block)."""
NO_RESPONSE = -1

FORKED = ("The conversation forks here (a rewind, an edit or a regeneration): this branch was left for another; "
          "its messages are kept, hidden from the default view, which follows the branch that ends at the last "
          "message.")


class Kinds:
    """What each line is to its parent (`BRANCH`, `HANGS`, `CONTINUES`), and the number of its `message.id` (the
    response whose next block an assistant line may be), numbered in the order met."""

    def __init__(self) -> None:
        self._ids: dict[Any, int] = {}

    def of(self, value: dict[str, Any]) -> tuple[int, int]:
        body = value.get("message")
        if not isinstance(body, dict):
            return BRANCH, NO_RESPONSE
        response = body.get("id")
        number = NO_RESPONSE
        if response is not None:
            key = response if isinstance(response, (str, int, float, bool)) else repr(response)
            number = self._ids.setdefault(key, len(self._ids))
        if value.get("type") == "user":
            content = body.get("content")
            results = isinstance(content, list) and content and all(
                isinstance(block, dict) and block.get("type") == "tool_result" for block in content)
            return (HANGS if results else BRANCH), number
        return (CONTINUES if value.get("type") == "assistant" else BRANCH), number


def chased(uuid: str | None, skipped: Mapping[str, str | None]) -> str | None:
    """The id a line that names `uuid` as its parent follows when the lines with the ids in `skipped` gave no
    message (a title, a snapshot): each such line's own parent in turn, to the first that is none of them."""
    seen = set()
    while uuid is not None and uuid in skipped and uuid not in seen:
        seen.add(uuid)
        uuid = skipped[uuid]
    return uuid


class GrowingTree:
    """The tree of a session read online: each message's parent as its line is met (`add`), then at the end
    (`ending`) the chain that ends at the conversation's last line, the forks on it and every message aside.

    Kept per line with an id, compactly: the id's slot (a dict from id to number, in the order first met) and,
    in arrays by slot, its parent's slot, its first and last message, what it is to its parent and its
    response's number. The parents of lines met before their parent are resolved at the end."""

    def __init__(self) -> None:
        self.slots: dict[str, int] = {}
        self.parents = array("i")
        """A slot's parent slot; -1 for none, -2 for an id not met when the line was."""
        self.waiting: dict[int, str | None] = {}
        """Slots whose parent's id was not met yet, and that id."""
        self.first = array("i")
        self.last = array("i")
        self.kinds = bytearray()
        self.responses = array("i")
        self.linked = array("i")
        """The parent message each slot's first message was given (-1: none)."""
        self._previous = -1
        """The number of the line of the last message added (a number, not the line: a tree that stops growing, a
        sub-agent's, would hold its last line, and with it the piece of the file that line was read from)."""
        self._previous_index = -1

    def add(self, index: int, line: int, uuid: str | None, parent: str | None, kind: int = BRANCH,
            response: int = NO_RESPONSE) -> int | None:
        """Message `index`, of line number `line` (the messages of one line follow one another), whose line has
        id `uuid` and names `parent`; its parent message, as far as the lines met so far tell."""
        found = None
        if line == self._previous:
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

    def skipping(self, skipped: Mapping[str, str | None]) -> None:
        """At the end, before `ending`: the ids of lines that gave no message (`chased`), all known now. A line
        whose parent was not met, or was met as a line of messages before a line with its id gave none, follows
        on from it as `chased` says."""
        for slot, parent in self.waiting.items():
            self.waiting[slot] = chased(parent, skipped)  # None: no parent
        passed = {self.slots[uuid]: uuid for uuid in skipped if uuid in self.slots}
        for slot, parent_slot in enumerate(self.parents):
            if parent_slot in passed:
                self.waiting[slot] = chased(passed[parent_slot], skipped)

    def ending(self) -> Ending:
        """At the end: the parents that differ from what `add` said (a parent met after its child, an id met
        again), the messages aside, the forks on the chain and the first message of each branch left."""
        for slot, parent in self.waiting.items():
            self.parents[slot] = self.slots.get(parent, -1) if parent is not None else -1
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


@dataclass(slots=True)
class Branches:
    """What the end of a session decides about the trees of its conversations, together."""

    forks: list[Fork] = field(default_factory=list)
    aside: set[int] = field(default_factory=set)
    notes: list[Note] = field(default_factory=list)


def branches_ended(trees: Iterable[GrowingTree], amend: Callable[[int, Change], None]) -> Branches:
    """The forks, the messages aside and a W-SESSION-FORK note on each branch left, tree after tree; a message
    whose parent the end tells otherwise, or that is aside, is changed so (`amend`)."""
    branches = Branches()
    for tree in trees:
        ending = tree.ending()
        for index, parent in ending.relinked.items():
            amend(index, _with_parent(parent))
        for index in sorted(ending.aside):
            amend(index, _aside)
        branches.aside |= ending.aside
        branches.forks += ending.forks
        branches.notes += [Note("W-SESSION-FORK", FORKED, index) for index in ending.left]
    return branches


def _aside(message: Message) -> Message:
    return replace_fields(message, aside=True)


def _with_parent(parent: int | None) -> Change:
    return lambda message: replace_fields(message, parent=parent)
