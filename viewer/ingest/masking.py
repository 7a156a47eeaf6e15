"""Secrets in a finished parse: each one warned of (`W-SECRET`) and masked in what link holders read."""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field, replace

from viewer.model import Transcript
from viewer.parse.common import collector_paused
from viewer.policy import Projection
from viewer.secrets import Located, Masker, count_kinds, diagnostics, mask_transcript, scan_transcript


@dataclass(frozen=True, slots=True)
class Analysis:
    """An upload's parse as link holders read it, and as written when the two differ."""

    shared: Projection
    """What link holders read: the parse with every secret masked (the parse itself when none was found)."""
    original: Projection | None = None
    """The parse as written, with its `W-SECRET` warnings, when secrets were found: what the uploader reads."""
    secret_kinds: dict[str, int] = field(default_factory=dict)
    """How many secrets of each kind were found."""


def mask_secrets(projection: Projection) -> Analysis:
    """Scan a parse for secrets, warn of each, and mask them all in what link holders read."""
    with collector_paused:
        found = scan_transcript(projection.transcript)
        if not found:
            return Analysis(projection)
        warned = _warned(projection, found)
        in_source = [(item.finding.start, item.finding.end, item.finding.kind) for item in found
                     if item.field == "source"]
        holding = {item.message_index for item in found}
        masked = mask_transcript(warned.transcript, Masker(found), in_source, holding)
        shared = Projection(masked, warned.rules, tuple(
            Projection(conversation, part.rules) for conversation, part in zip(masked.conversations,
                                                                               warned.conversations)))
    return Analysis(shared, warned, count_kinds(found))


def _warned(projection: Projection, found: list[Located]) -> Projection:
    """The projection with a `W-SECRET` warning for each secret, among its diagnostics in source order."""
    def warn(transcript: Transcript, conversation: int | None) -> Transcript:
        merged = heapq.merge(transcript.diagnostics, diagnostics(found, conversation), key=lambda made: made.span[0])
        return replace(transcript, diagnostics=tuple(merged))
    conversations = tuple(warn(part.transcript, number) for number, part in enumerate(projection.conversations))
    transcript = replace(warn(projection.transcript, None), conversations=conversations)
    for conversation in conversations:
        conversation.share_lines(transcript)
    return Projection(transcript, projection.rules, tuple(
        Projection(conversation, part.rules) for conversation, part in zip(conversations, projection.conversations)))
