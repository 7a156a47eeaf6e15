"""What the dialect parsers share: diagnostics before their message is known, role lists, tool names, JSON
shown as text, line breaks and blank edges, and the collector pause for large parses."""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from viewer.model import ROLES, Diagnostic, Span, make_diagnostic


@dataclass(frozen=True, slots=True)
class Pending:
    """A diagnostic found before the index of its message is known: parsers read a message's parts before they
    number the messages those parts become."""

    code: str
    message: str
    span: Span
    """In the source, or relative to a piece of it (see `offset` in `at`)."""

    def at(self, message_index: int | None, offset: int = 0) -> Diagnostic:
        """The diagnostic, attached to a message, its span moved by `offset`."""
        start, end = self.span
        return make_diagnostic(self.code, (start + offset, end + offset), self.message, message_index)


CHATML_ROLES = tuple(role for role in ROLES if role != "developer")
"""The roles of ChatML and OpenChatML 0.1, which have no developer."""

FUNCTIONS = "functions."
UNNAMESPACED_BUILTINS = ("python",)
"""Built-in tools (HARMONY.md: `browser.*`, `python`, vLLM's `container.*`) whose name has no namespace."""


@functools.lru_cache(maxsize=4096)
def qualified_tool_name(name: str) -> str:
    """The address of a tool a transcript names: function tools are `functions.<name>`. A name that has a
    namespace already (`functions.f`, `browser.search`, `container.exec`) and the built-in `python` are kept
    as written, so a call to `browser.search` goes to `browser.search` in every dialect. (OpenAI function
    names cannot hold a dot, so a dotted name is never a bare function name.) Cached: a session's calls name a
    few tools, and the readers keep each call's address (one string, not one per call)."""
    return name if "." in name or name in UNNAMESPACED_BUILTINS else FUNCTIONS + name


_ENCODER = json.JSONEncoder(ensure_ascii=False)
# `JSONEncoder.encode` makes a C encoder on every call, half the time of encoding the small values of tool calls:
# this one is made once, with the same settings. Without the circular-reference check (`markers` None): a value
# decoded from JSON has no cycles, and a cycle would still end in RecursionError, which shown_json catches as it
# catches the check's ValueError. `c_make_encoder` is an internal of `json` that typeshed does not declare (None
# where the C speedups are missing), so it is typed here.
_MAKE_C_ENCODER: Callable[..., Callable[[Any, int], Iterable[str]]] | None = \
    json.encoder.c_make_encoder  # type: ignore[attr-defined]
_C_ENCODER = _MAKE_C_ENCODER and _MAKE_C_ENCODER(
    None, _ENCODER.default, json.encoder.encode_basestring, None, ": ", ", ", False, False, True)


def _shown_json(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False)`."""
    if _C_ENCODER is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_C_ENCODER(value, 0))


def shown_json(value: Any) -> str:
    """A JSON value as text for a person: the field it came from should have held text, or it is shown as
    content. Never raises."""
    try:
        return _shown_json(value)
    except (ValueError, RecursionError):
        return "(a value too deeply nested to show)"


def trim_newline(text: str, *, lead: bool, tail: bool) -> str:
    """Drop one line break (LF or CRLF) at each chosen end: it lays out the neighbouring token or marker on a
    line of its own and is not part of the text."""
    if lead:
        text = text[2:] if text.startswith("\r\n") else text[1:] if text.startswith("\n") else text
    if tail:
        text = text[:-2] if text.endswith("\r\n") else text[:-1] if text.endswith("\n") else text
    return text


def trimmed_span(text: str, start: int, end: int) -> Span | None:
    """The span of `text[start:end]` without its blank edges, or None when it is all blank."""
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return None
    first = start + len(piece) - len(piece.lstrip())
    return first, first + len(stripped)
