"""The tree that `parentUuid` draws over a session's lines: each message's parent, the chain that ends at the
session's last message, and the forks a rewind or an edit made.

Every branch is kept. The view follows the chain that ends at the last message of the main conversation; a
message on another branch that meets that chain is `aside` (hidden by default), and each fork is reported
(W-SESSION-FORK) on the first message of the branch left. A compaction restarts the chain (`parentUuid` null)
and names the message it continues in `logicalParentUuid`, so the messages before it stay on the chain. Lines
whose ancestry never meets the chain (a log that starts over without saying from where) are left as they are.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from viewer.model import Diagnostic, Message, make_diagnostic
from viewer.parse.agents.lines import Line


class Tree:
    """Parents, the followed chain and the forks of one conversation's messages (`indices`)."""

    def __init__(self, messages: Sequence[Message], lines: Sequence[Line], indices: Sequence[int]) -> None:
        self.parent: dict[int, int] = {}
        """Message index -> the index of the message it follows."""
        self.aside: set[int] = set()
        self.diagnostics: list[Diagnostic] = []
        last_of: dict[str, int] = {}
        """Line uuid -> the last message of that line."""
        first_of: dict[str, int] = {}
        parent_uuid: dict[str, str] = {}
        order: list[str] = []
        previous_line = None
        for index in indices:
            line = lines[index]
            uuid = _text(line.get("uuid"))
            if line is previous_line:
                self.parent[index] = index - 1  # the blocks of one line follow one another
            elif uuid is not None:
                first_of.setdefault(uuid, index)
                order.append(uuid)
                parent = _text(line.get("parentUuid")) or _text(line.get("logicalParentUuid"))
                if parent is not None:
                    parent_uuid[uuid] = parent
            if uuid is not None:
                last_of[uuid] = index
            previous_line = line
        for uuid, parent in parent_uuid.items():
            if parent in last_of:
                self.parent[first_of[uuid]] = last_of[parent]
        if order:
            self._follow(order, parent_uuid, first_of, last_of, messages)

    def _follow(self, order: list[str], parent_uuid: dict[str, str], first_of: dict[str, int],
                last_of: dict[str, int], messages: Sequence[Message]) -> None:
        chain = set()
        uuid: str | None = order[-1]
        while uuid is not None and uuid not in chain and uuid in first_of:
            chain.add(uuid)
            uuid = parent_uuid.get(uuid)
        meets: dict[str, bool] = {}
        for uuid in order:
            if uuid not in chain and _meets(uuid, chain, parent_uuid, meets):
                self.aside.update(range(first_of[uuid], last_of[uuid] + 1))
        for uuid in order:
            parent = parent_uuid.get(uuid)
            if uuid not in chain and parent in chain:
                index = first_of[uuid]
                self.diagnostics.append(make_diagnostic(
                    "W-SESSION-FORK", messages[index].span,
                    "The conversation forks here (a rewind or an edit): this branch was left for another; its "
                    "messages are kept, hidden from the default view, which follows the branch that ends at the "
                    "last message.", index))


def _meets(uuid: str, chain: set[str], parent_uuid: dict[str, str], meets: dict[str, bool]) -> bool:
    """Whether a line's ancestry reaches the chain (remembered for every line on the way)."""
    path = []
    found = False
    while uuid not in meets:
        if uuid in chain:
            found = True
            break
        path.append(uuid)
        parent = parent_uuid.get(uuid)
        if parent is None or parent in path:
            break
        uuid = parent
    else:
        found = meets[uuid]
    for seen in path:
        meets[seen] = found
    return found


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
