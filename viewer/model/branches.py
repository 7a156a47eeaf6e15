"""Branches of a tree-shaped conversation: which messages a reading follows, and which are aside.

A chat app's export (an edited question, a regenerated answer) and an agent's session (a rewind) are trees:
each message names the one it follows (`Message.parent`). Where a message has several children that start
branches (a *fork*), a reading follows one of them and the others, with everything below them, are aside. The
parse records the forks in the transcript's header (`FORKS_KEY`) and follows the producer's choice (ChatGPT's `current_node`, the latest
leaf, the chain to a session's last line); a reader of the debug view may choose another branch by naming any
message of it (`aside_for`). Both go through this one function, over the parent links alone.

Not every child starts a branch: an agent's tool result hangs off its call beside the response that goes on,
and so does the next block of one response. Those children are never forks' branches, never aside by
themselves; the importer says which children are branches.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

ROOT = -1
"""The key of the fork among messages that follow nothing (two first questions: the first was edited)."""
FORKS_KEY = "forks"
"""The header key under which an importer records its forks, `[[parent, [branch, …]], …]`."""


@dataclass(frozen=True, slots=True)
class Fork:
    """A message (or the conversation's start, `ROOT`) with several branches below it."""

    parent: int
    branches: tuple[int, ...]
    """The first message of each branch, in the producer's order (oldest first)."""

    def to_json(self) -> list:
        return [self.parent, list(self.branches)]

    @classmethod
    def from_json(cls, value: object) -> Fork | None:
        """A fork as the header stores it; None for anything else (a header is user data)."""
        if (isinstance(value, list) and len(value) == 2 and type(value[0]) is int and isinstance(value[1], list)
                and len(value[1]) >= 2 and all(type(child) is int for child in value[1])):
            return cls(value[0], tuple(value[1]))
        return None


def forks_in(header: Mapping[str, object]) -> list[Fork]:
    """The forks a transcript's header records (`FORKS_KEY`); none when it records none or garbage."""
    stored = header.get(FORKS_KEY)
    if not isinstance(stored, list):
        return []
    return [fork for fork in map(Fork.from_json, stored) if fork is not None]


def children_of(parents: Mapping[int, int | None], indices: Iterable[int]) -> dict[int, list[int]]:
    """Each message's children in index order (`ROOT` for messages that follow nothing)."""
    children: dict[int, list[int]] = {}
    for index in indices:
        parent = parents.get(index)
        children.setdefault(ROOT if parent is None else parent, []).append(index)
    return children


def aside_for(forks: Sequence[Fork], parents: Mapping[int, int | None], indices: Iterable[int],
              chosen: int | None = None, default: Mapping[int, int] | None = None) -> set[int]:
    """The messages aside when the reading follows the branches that lead to message `chosen` and, at every
    other fork, the branch `default` names for it (else the fork's last branch, the newest).

    Following `chosen` means: at each fork above it, the branch it lies in."""
    indices = list(indices)
    picked = dict(default or {})
    branch_of = {branch: fork.parent for fork in forks for branch in fork.branches}
    seen: set[int] = set()
    node = chosen
    while node is not None and node not in seen:
        seen.add(node)
        if node in branch_of:
            picked[branch_of[node]] = node
        node = parents.get(node)
    children = children_of(parents, indices)
    aside: set[int] = set()
    for fork in forks:
        follow = picked.get(fork.parent)
        if follow not in fork.branches:
            follow = fork.branches[-1]
        for branch in fork.branches:
            if branch != follow:
                aside.update(_below(branch, children))
    return aside


def _below(top: int, children: Mapping[int, list[int]]) -> set[int]:
    """`top` and every message under it."""
    found, waiting = set(), [top]
    while waiting:
        node = waiting.pop()
        if node not in found:
            found.add(node)
            waiting.extend(children.get(node, ()))
    return found


def followed(forks: Sequence[Fork], aside: set[int]) -> dict[int, int]:
    """At each fork, the branch a reading follows (the one not aside); forks inside an aside branch follow none."""
    chosen = {}
    for fork in forks:
        kept = [branch for branch in fork.branches if branch not in aside]
        if kept:
            chosen[fork.parent] = kept[0]
    return chosen
