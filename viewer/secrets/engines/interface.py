"""What every anchor engine is: built from patterns, it answers where each one's matches start."""
from __future__ import annotations

from typing import Protocol

AnchorPattern = tuple[str, bool]
"""An expression and whether it is matched case-insensitively."""


class Engine(Protocol):
    name: str

    def starts(self, view: bytes) -> list[list[int]]:
        """For each pattern, in the order the engine was built with, the offsets where a match starts (in no
        order)."""
