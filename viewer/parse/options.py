"""What a caller may tell a dialect parser."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ParseOptions:
    """Options every dialect parser accepts (and may ignore)."""

    primed_role: str | None = None
    """The text is a completion that follows a prefilled `<|start|>ROLE` header (Harmony, OpenChatML 2.x), or the
    opener of that role in ChatML and the raw prompt templates."""
