"""The words every stage shares, defined once: a message's role, channel and end, the two views, and how the
default view shows a message.

A role or a channel is whatever the transcript wrote: an unknown one is kept as written, with a diagnostic, and
the default view hides its message (it fails closed). So a message's role is `Role | str` and its channel
`Channel | str`: the known words are typed, and any other string stays possible. Views, show-as values and ends
are closed sets the viewer itself writes.
"""
from __future__ import annotations

from typing import Final, Literal, TypeGuard, get_args

Role = Literal["system", "developer", "user", "assistant", "tool"]
ROLES: Final[tuple[Role, ...]] = get_args(Role)
PROMPT_ROLES: Final[tuple[Role, ...]] = ("system", "developer")
"""The roles whose messages instruct the model: shown verbatim as it read them, and hidden by default."""

Channel = Literal["analysis", "commentary", "final"]
CHANNELS: Final[tuple[Channel, ...]] = get_args(Channel)

End = Literal["end", "call", "return", "eof"]
"""How a message ended: its stop token (`end`, `call`, `return`), or `eof` when the stream was cut."""
ENDS: Final[tuple[End, ...]] = get_args(End)

View = Literal["default", "debug"]
"""What a reader asked to see: what the end user saw (`default`), or everything (`debug`)."""
DEFAULT: Final = "default"
DEBUG: Final = "debug"
VIEWS: Final[tuple[View, ...]] = (DEFAULT, DEBUG)

ShowAs = Literal["message", "preamble", "marker", "hidden"]
"""How the default view shows a message: in full, as a plan note, as a content-free note of tool use, or not."""
SHOW_AS: Final[tuple[ShowAs, ...]] = get_args(ShowAs)


def is_view(word: str) -> TypeGuard[View]:
    """Whether `word` names a view (a request's argument, say)."""
    return word in VIEWS


def is_show_as(word: str) -> TypeGuard[ShowAs]:
    """Whether `word` is a show-as value (a stored row's, say)."""
    return word in SHOW_AS
