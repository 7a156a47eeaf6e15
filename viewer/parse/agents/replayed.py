"""A JSON document with the spans of its values, whether it was written whole or replayed from a log of changes
(VS Code's chat session mutation log): each value's span is where it was last written, in the document or in the
line that changed it, so a message read from the replayed document points at the line that wrote it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from viewer.model import Span
from viewer.parse.json.positions import JsonError, Node, read_value


class Where:
    """Where each value of a document was written: the containers' spans, their members' and items' read from
    the source only when a reader asks for them (a session of many megabytes is mostly values no message reads),
    and the members and items a later change replaced."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._spans: dict[int, Span] = {}
        """id(container) -> where it was written."""
        self._nodes: dict[int, Node] = {}
        """id(container) -> it read with the spans of its members or items."""
        self._written: dict[tuple[int, Any], Span] = {}
        """(id(container), key or index) -> where a change wrote that member or item."""
        self._alive: list[Any] = []
        """The containers registered, kept alive so that their ids stay theirs."""

    @property
    def text(self) -> str:
        """The source the spans point into."""
        return self._text

    def adopt(self, node: Node) -> None:
        """Register a value read from the source: where it stands, and the spans of its members or items when they
        were read."""
        waiting = [node]
        while waiting:  # as deep as it was read: a document cut short is read no deeper than at once
            current = waiting.pop()
            self.place(current.value, current.span)
            if isinstance(current.value, (dict, list)) and (current.members or current.items):
                self._nodes[id(current.value)] = current
                waiting.extend(member.node for member in current.members.values())
                waiting.extend(current.items)

    def place(self, value: Any, span: Span) -> None:
        """A container stands at `span` (as written, or as a change wrote it)."""
        if isinstance(value, (dict, list)) and id(value) not in self._spans:
            self._spans[id(value)] = span
            self._alive.append(value)

    def wrote(self, container: Any, key: Any, span: Span) -> None:
        """A change wrote `container[key]`, its value standing at `span`."""
        self._written[(id(container), key)] = span
        self._alive.append(container)

    def forget(self, container: Any, key: Any) -> None:
        self._written.pop((id(container), key), None)

    def span(self, container: Any, key: Any, default: Span) -> Span:
        """Where `container[key]` was written; `default` (the container's own span) when nothing finer is known."""
        written = self._written.get((id(container), key))
        if written is not None:
            return written
        node = self._node(container)
        if node is None:
            return default
        if isinstance(container, dict):
            member = node.members.get(key)
            return member.node.span if member is not None else default
        if isinstance(key, int) and 0 <= key < len(node.items):
            return node.items[key].span
        return default

    def _node(self, container: Any) -> Node | None:
        node = self._nodes.get(id(container))
        if node is None and id(container) in self._spans:
            start, end = self._spans[id(container)]
            if self._text[start:start + 1] in ("{", "["):
                try:
                    node = read_value(self._text, start, 1)
                except JsonError:  # a container cut short: its members are not where a whole one's are
                    return None
                self._nodes[id(container)] = node
        return node


@dataclass(slots=True)
class At:
    """A value of the document and where it was written."""

    value: Any
    span: Span
    where: Where

    def get(self, key: str, default: Any = None) -> Any:
        return self.value.get(key, default) if isinstance(self.value, dict) else default

    def at(self, key: Any) -> At:
        """The value under `key` (None when there is none), with its span."""
        if isinstance(self.value, dict) and key in self.value \
                or isinstance(self.value, list) and isinstance(key, int) and 0 <= key < len(self.value):
            child = At(self.value[key], self.where.span(self.value, key, self.span), self.where)
            self.where.place(child.value, child.span)
            return child
        return At(None, self.span, self.where)

    def items(self, key: str | None = None) -> list[At]:
        """The items of the list under `key` (of this value itself when None), each with its span."""
        held = self.at(key) if key is not None else self
        if not isinstance(held.value, list):
            return []
        return [held.at(index) for index in range(len(held.value))]

    def entries(self) -> list[tuple[str, At]]:
        """The members of an object, each with its span."""
        if not isinstance(self.value, dict):
            return []
        return [(key, self.at(key)) for key in self.value]


def replay(root: Any, where: Where, kind: int, path: list, value: Any, value_node: Node | None,
           cut: int | None) -> str | None:
    """Apply one change of a mutation log to `root` (in place), as VS Code's ObjectMutationLog reads it: 1 sets
    the value at `path`, 2 cuts the list at `path` to `cut` items and appends `value`'s, 3 deletes it. Returns why
    the change could not be applied, or None."""
    if not path:
        return "it changes no path" if kind != 1 else None  # VS Code ignores a change of the root too
    parent = root
    for step in path[:-1]:
        parent = _child(parent, step)
        if parent is None:
            return f"its path {path!r} leads nowhere"
    key = path[-1]
    if not (isinstance(parent, dict) and isinstance(key, str)
            or isinstance(parent, list) and _index(parent, key, kind in (1, 2))):
        return f"its path {path!r} leads nowhere"
    if kind == 1:
        _put(parent, key, value)
        if value_node is not None:
            where.wrote(parent, key, value_node.span)
            where.adopt(value_node)
    elif kind == 3:
        if isinstance(parent, dict):
            parent.pop(key, None)
        else:
            parent[key] = None
        where.forget(parent, key)
    else:
        target = _child(parent, key)
        if not isinstance(target, list):
            target = []
            _put(parent, key, target)
        if isinstance(cut, int) and not isinstance(cut, bool) and 0 <= cut < len(target):
            for index in range(cut, len(target)):
                where.forget(target, index)
            del target[cut:]
        if isinstance(value, list):
            nodes = value_node.items if value_node is not None and len(value_node.items) == len(value) else ()
            for at, item in enumerate(value):
                target.append(item)
                if nodes:
                    where.wrote(target, len(target) - 1, nodes[at].span)
                    where.place(item, nodes[at].span)
                elif value_node is not None:
                    where.wrote(target, len(target) - 1, value_node.span)
    return None


def _child(container: Any, step: Any) -> Any:
    if isinstance(container, dict) and isinstance(step, str):
        return container.get(step)
    if isinstance(container, list) and isinstance(step, int) and not isinstance(step, bool) \
            and 0 <= step < len(container):
        return container[step]
    return None


def _index(container: list, key: Any, growing: bool) -> bool:
    return isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(container) + (1 if growing else 0)


def _put(parent: Any, key: Any, value: Any) -> None:
    if isinstance(parent, dict):
        parent[key] = value
    elif key == len(parent):
        parent.append(value)
    else:
        parent[key] = value
