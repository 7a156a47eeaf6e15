"""The words pages say to a reader, where a format would say its own terms: a channel, a role, what the default
view does with a message, and a size (one unit everywhere: bytes, then KiB, MiB, GiB). The format's terms stay
in the debug view's details."""
from __future__ import annotations

CHANNEL_WORDS = {"final": "answer", "analysis": "reasoning", "commentary": "commentary"}
ROLE_WORDS = {"system": "instructions", "developer": "instructions", "user": "user", "tool": "tool result"}
SHOWN_WORDS = {"message": "shown to the user", "preamble": "shown to the user", "marker": "shown as a note of tool use",
               "hidden": "hidden from the user"}
_UNITS = ("KiB", "MiB", "GiB", "TiB")


def human_size(size: int | float | None) -> str:
    """A size as people read it: `812 bytes`, `11.1 KiB`, `3.4 MiB`."""
    if size is None:
        return ""
    if size < 1024:
        return f"{int(size):,} byte{'s' if size != 1 else ''}"
    value = float(size)
    for unit in _UNITS:
        value /= 1024
        if value < 1024 or unit == _UNITS[-1]:
            return f"{value:,.1f} {unit}".replace(".0 ", " ")
    raise AssertionError("unreachable")
