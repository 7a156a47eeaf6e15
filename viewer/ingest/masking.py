"""Secrets in a finished parse: each one warned of (`W-SECRET`) and masked in what link holders read."""
from __future__ import annotations

import heapq
import logging
from dataclasses import dataclass, field, replace

from viewer.model import Transcript
from viewer.model.diagnostics import make_diagnostic
from viewer.model.collector import collector_paused
from viewer.policy import Projection
from viewer.secrets import FieldSecret, Masker, count_kinds, diagnostics, mask_transcript, scan_transcript

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Examined:
    """An upload examined (`ingest.examine`): its parse as link holders read it, and as written when the two
    differ."""

    shared: Projection
    """What link holders read: the parse with every secret masked (the parse itself when none was found)."""
    original: Projection | None = None
    """The parse as written, with its `W-SECRET` warnings, when secrets were found: what the uploader reads."""
    secret_kinds: dict[str, int] = field(default_factory=dict)
    """How many secrets of each kind were found."""
    masker: Masker | None = None
    """What masked them (and `known`'s), when anything was masked."""
    withheld: bool = False
    """The scan failed: link holders read nothing."""


def mask_secrets(projection: Projection, known: Masker | None = None) -> Examined:
    """Scan a parse for secrets, warn of each, and mask them all in what link holders read. Fails closed: if
    the scanner itself fails, link holders read nothing of the upload. With `known` (the secrets of the pieces
    of a session read before this one), their spellings are masked here too."""
    with collector_paused:
        try:
            found = scan_transcript(projection.transcript)
        except Exception:  # noqa: BLE001 - a scanner bug must neither fail the upload nor let a secret through
            log.exception("the secret scan failed on an upload")
            return Examined(_withheld(projection), projection, withheld=True)
        source = projection.transcript.source
        if not found and (known is None or not known.spans(source)):
            return Examined(projection)
        warned = _warned(projection, found) if found else projection
        in_source = [(item.finding.start, item.finding.end, item.finding.kind) for item in found
                     if item.field == "source"]
        holding = {item.message_index for item in found}
        masker = Masker(found, source, known)
        masked = mask_transcript(warned.transcript, masker, in_source, holding)
        shared = Projection(masked, warned.rules, tuple(
            Projection(conversation, part.rules) for conversation, part in zip(masked.conversations,
                                                                               warned.conversations)))
    return Examined(shared, warned, count_kinds(found), masker)


def _withheld(projection: Projection) -> Projection:
    """What link holders read of an upload the scanner failed on: no text at all, and why."""
    transcript = projection.transcript
    failure = make_diagnostic("W-SCAN-FAILED", (0, 0), "The scan for secrets failed on this input; nothing of it "
                                                       "is shown to link holders (the uploader can download it).")
    return Projection(Transcript(dialect=transcript.dialect, source="", diagnostics=(failure,)), ())


def _warned(projection: Projection, found: list[FieldSecret]) -> Projection:
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
