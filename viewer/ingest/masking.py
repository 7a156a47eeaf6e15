"""Secrets in a finished parse: each one warned of (`W-SECRET`) and masked in what link holders read."""
from __future__ import annotations

import heapq
import logging
from dataclasses import dataclass, field, replace

from viewer.model import Transcript
from viewer.model.diagnostics import make_diagnostic
from viewer.model.collector import collector_paused
from viewer.policy import Projection
from viewer.secrets import (FieldSecret, Masker, count_kinds, diagnostics, mask, mask_transcript, scan_text,
                            scan_transcript)

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


def mask_secrets(projection: Projection) -> Examined:
    """Scan a parse for secrets, warn of each, and mask them all in what link holders read. Fails closed: if
    the scanner itself fails, link holders read nothing of the upload."""
    with collector_paused:
        try:
            found = scan_transcript(projection.transcript)
        except Exception:  # noqa: BLE001 - a scanner bug must neither fail the upload nor let a secret through
            log.exception("the secret scan failed on an upload")
            return Examined(_withheld(projection), projection)
        if not found:
            return Examined(projection)
        warned = _warned(projection, found)
        in_source = [(item.finding.start, item.finding.end, item.finding.kind) for item in found
                     if item.field == "source"]
        holding = {item.message_index for item in found}
        masked = mask_transcript(warned.transcript, Masker(found, warned.transcript.source), in_source, holding)
        shared = Projection(masked, warned.rules, tuple(
            Projection(conversation, part.rules) for conversation, part in zip(masked.conversations,
                                                                               warned.conversations)))
    return Examined(shared, warned, count_kinds(found))


def masked_name(name: str | None) -> str | None:
    """An upload's name as it is stored and shown to everyone (the title, the lists, the exports' and the raw
    download's file names): every secret the scan finds in it masked, as in the content (`debug-ghp_….txt` is
    `debug-[secret: GitHub token].txt`). Fails closed: if the scanner fails, the upload has no name."""
    if not name:
        return name
    try:
        return mask(name, scan_text(name))
    except Exception:  # noqa: BLE001 - a scanner bug must neither fail the upload nor let a secret through
        log.exception("the secret scan failed on an upload's name")
        return None


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
