"""A list of which only the newest items are held: what a session read a piece at a time keeps of its messages
and their lines. Indices stay those of the whole list; the items before `start` were handed on (stored) and
are no longer here."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar, overload

T = TypeVar("T")


class Gone(IndexError):
    """An item asked for by its index after it was handed on."""


class Held(Sequence[T]):
    """`list`'s indexing, length, appending and iteration, over the items from `start` on."""

    __slots__ = ("start", "items")

    def __init__(self) -> None:
        self.start = 0
        """How many items were handed on (`drop`)."""
        self.items: list[T] = []

    def __len__(self) -> int:
        return self.start + len(self.items)

    def _at(self, index: int) -> int:
        at = (index if index >= 0 else len(self) + index) - self.start
        if at < 0:
            raise Gone(index)
        return at

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> list[T]: ...

    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):
            if self.start:
                raise Gone(index)
            return self.items[index]
        return self.items[self._at(index)]

    def __setitem__(self, index: int, item: T) -> None:
        self.items[self._at(index)] = item

    def __iter__(self) -> Iterator[T]:
        """The items held (every item until some are handed on)."""
        return iter(self.items)

    def __bool__(self) -> bool:
        return len(self) > 0

    def append(self, item: T) -> None:
        self.items.append(item)

    def holds(self, index: int) -> bool:
        return self.start <= index < len(self)

    def drop(self, upto: int) -> list[T]:
        """The items before index `upto` still held, handed on: they are held no longer."""
        count = max(min(upto, len(self)) - self.start, 0)
        taken, self.items = self.items[:count], self.items[count:]
        self.start += count
        return taken


__all__ = ["Gone", "Held"]
