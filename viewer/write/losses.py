"""What a writer could not carry into its target dialect, gathered by kind, so that a converter reports one line
per kind of loss (naming the messages it touched) rather than one per message of a 50,000-message transcript."""
from __future__ import annotations

from dataclasses import dataclass, field

SHOWN_INDICES = 5
"""Message numbers a loss line names before it says how many more there are."""


@dataclass(frozen=True, slots=True)
class Loss:
    """One kind of thing the target cannot express, and the messages it touched (none: the whole transcript)."""

    what: str
    """A sentence naming the loss and its consequence (a constant of the writer's module)."""
    indices: tuple[int, ...] = ()

    def __str__(self) -> str:
        if not self.indices:
            return self.what
        shown = ", ".join(f"#{index}" for index in self.indices[:SHOWN_INDICES])
        more = len(self.indices) - SHOWN_INDICES
        noun = "message" if len(self.indices) == 1 else "messages"
        return f"{self.what} ({noun} {shown}{f' and {more:,} more' if more > 0 else ''})"


@dataclass(frozen=True, slots=True)
class Written:
    """A transcript written in a target dialect, and what the target could not express."""

    text: str
    losses: tuple[Loss, ...] = ()

    def touched(self, what: str) -> set[int]:
        """The messages a kind of loss touched."""
        return {index for loss in self.losses if loss.what == what for index in loss.indices}


@dataclass(slots=True)
class Losses:
    """Losses as a writer finds them, by kind, in the order first found."""

    found: dict[str, list[int]] = field(default_factory=dict)

    def add(self, what: str, index: int | None = None) -> None:
        """Note that `what` applies to message `index`, or to the transcript as a whole."""
        indices = self.found.setdefault(what, [])
        if index is not None and index not in indices[-1:]:
            indices.append(index)

    def gathered(self) -> tuple[Loss, ...]:
        return tuple(Loss(what, tuple(indices)) for what, indices in self.found.items())
