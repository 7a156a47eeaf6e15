"""The pieces of one ChatML envelope made into its messages: thought blocks, calls, tool outputs and template
tag blocks become messages of their own, and the text around them one message per stretch (see the package
docstring)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from viewer.model import Segment, Span
from viewer.parse.chatml.body import FILE_SEPARATOR, FIM_KINDS, THOUGHTS
from viewer.parse.chatml.scanning import UNREADABLE, Stretch, call_target
from viewer.parse.chatml.tags import TAG_KINDS, tag_message
from viewer.parse.common import qualified_tool_name, shown_json, trim_newline

Draft = dict[str, Any]
"""The fields of a Message before its index, turn and final span are known."""

# Body pieces that become messages of their own, by envelope role. Tag pieces are only made in the turns that
# read them (tags.py), so every role that reads any lists them all.
_SPLIT_OFF = {"assistant": (*THOUGHTS, "function_call", *TAG_KINDS), "tool": ("function_output", *TAG_KINDS),
              "user": TAG_KINDS}


@dataclass(frozen=True, slots=True)
class Envelope:
    """One `<|im_start|>…<|im_end|>` (or a document outside any), as read."""

    role: str
    name: str | None
    span: Span
    header: Span | None
    body: Span
    end: str


def turn_messages(envelope: Envelope, pieces: list[Stretch]) -> list[Draft]:
    """The messages of one envelope, in source order; at least one."""
    split_off = _SPLIT_OFF.get(envelope.role, ())
    messages: list[Draft] = []
    run: list[Stretch] = []
    for piece in pieces:
        if piece.kind not in split_off:
            run.append(piece)
            continue
        if _has_substance(run):
            messages.append(run_message(envelope, run))
        run = []
        messages.append(_split_message(envelope, piece))
    if _has_substance(run) or not messages:
        messages.append(run_message(envelope, run))
    return messages


def run_message(envelope: Envelope, run: list[Stretch]) -> Draft:
    """The message of a stretch of pieces that stay together."""
    body_start, body_end = envelope.body
    span = (run[0].span[0], run[-1].span[1]) if run else envelope.body
    content = trim_newline("".join(piece.content for piece in run),
                           lead=span[0] != body_start, tail=span[1] != body_end)
    return {"role": envelope.role, "name": envelope.name, "content": content, "span": span,
            "segments": _segments(run)}


def _split_message(envelope: Envelope, piece: Stretch) -> Draft:
    """A thought block, call, tool output or template tag block that is a message of its own."""
    if piece.kind in TAG_KINDS:
        return tag_message(envelope.role, envelope.name, piece)
    segment = Segment.of(piece.kind, piece.shown, piece.span)
    common = {"role": envelope.role, "span": piece.span, "segments": (segment,)}
    if piece.kind in THOUGHTS:
        return dict(content=piece.content, name=envelope.name, channel="analysis", **common)
    if piece.kind == "function_call":
        recipient, arguments = call_target(piece.value)
        content = piece.content if arguments is UNREADABLE else shown_json(arguments)
        return dict(content=content, name=envelope.name, recipient=recipient, channel="commentary",
                    content_type="json", end="call", **common)
    output = piece.value
    name = output.get("name") if isinstance(output, dict) else None
    return dict(content=piece.content, name=qualified_tool_name(name) if isinstance(name, str) and name else None,
                recipient="assistant", channel="commentary",
                content_type=None if output is UNREADABLE else "json", **common)


def _segments(run: list[Stretch]) -> tuple[Segment, ...]:
    """Segments of a message made of a run of pieces, or none when it is plain text."""
    if all(piece.kind == "text" for piece in run):
        return ()
    kind = "file" if any(piece.kind == FILE_SEPARATOR for piece in run) else "text"
    segments: list[Segment] = []
    opened_at, parts, forced = run[0].span[0], [], False
    for piece in run:
        if piece.kind == "text":
            parts.append(piece.shown)
            continue
        segments.extend(_text_segment(kind, "".join(parts), (opened_at, piece.span[0]), forced))
        parts = []
        if piece.kind in FIM_KINDS or piece.kind == FILE_SEPARATOR:
            kind = "file" if piece.kind == FILE_SEPARATOR else piece.kind
            opened_at, forced = piece.span[0], piece.kind in FIM_KINDS
        else:
            segments.append(Segment.of(piece.kind, piece.shown, piece.span))
            opened_at, forced = piece.span[1], False
    segments.extend(_text_segment(kind, "".join(parts), (opened_at, run[-1].span[1]), forced))
    return tuple(segments)


def _text_segment(kind: str, text: str, span: Span, forced: bool) -> list[Segment]:
    """The segment of the text after a marker; FIM parts are kept exactly, an empty one marks the cursor."""
    if not forced and not (text if kind in FIM_KINDS else text.strip()):
        return []
    if kind in FIM_KINDS:
        return [Segment.of(kind, text, span)]
    return [Segment.of(kind, trim_newline(text, lead=True, tail=True), span)]


def _has_substance(run: list[Stretch]) -> bool:
    return any(piece.kind != "text" or piece.content.strip() for piece in run)
