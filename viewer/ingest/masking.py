"""Secrets, personal data and the uploader's redactions in a finished parse: each one warned of (`W-SECRET`,
`W-PERSONAL-DATA`, `W-REDACTED`) and masked in what link holders read.

Secrets are always masked. Personal data is masked unless the uploader released its value or showed its kind,
and looked for only when the server's setting says so; a redaction is a text the uploader chose in a message (or
the message's whole text), masked as a secret is, wherever it is written. All of them follow the upload's
choices (viewer/policy/personal.py, kept by viewer/store/personal.py), which each parse applies, so that a choice
is undone by parsing again.
"""
from __future__ import annotations

import heapq
import json
import logging
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Iterator

from viewer.model import Message, Transcript
from viewer.model.collector import collector_paused
from viewer.model.diagnostics import make_diagnostic
from viewer.policy import Projection
from viewer.secrets import (FieldSecret, Finding, Masker, count_kinds, diagnostics, mask, mask_transcript,
                            scan_transcript)
from viewer.secrets.finding import placeholder_of
from viewer.secrets.personal.kinds import KINDS as PERSONAL_KINDS, REDACTED, placeholder
from viewer.secrets.scan import scan_text
from viewer.policy.personal import MASKED, PREFIX, Choices, PersonalFinding, Redaction

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Examined:
    """An upload examined (`ingest.examine`): its parse as link holders read it, and as written when the two
    differ."""

    shared: Projection
    """What link holders read: the parse with every secret, personal data and redaction masked (the parse itself
    when there is nothing to mask)."""
    original: Projection | None = None
    """The parse as written, with its warnings, when something was masked (or the upload is a bundle, whose
    text link holders download instead of its bytes): what the uploader reads."""
    secret_kinds: dict[str, int] = field(default_factory=dict)
    """How many secrets of each kind were found; personal data and redactions masked, by `personal:` keys."""
    personal: tuple[PersonalFinding, ...] = ()
    """Every distinct piece of personal data found, masked or not, for the uploader."""
    masker: Masker | None = None
    """What masked them (and `known`'s), when anything was masked."""
    withheld: bool = False
    """The scan failed: link holders read nothing."""
    places: tuple[Places, ...] = ()
    """Where each of `personal` was found (a piece of a session's, gathered with the others': `Gathered`)."""


def mask_secrets(projection: Projection, choices: Choices = Choices(), *, as_text: bool = False,
                 known: Masker | None = None) -> Examined:
    """Scan a parse for secrets (and personal data, if `choices` say so), warn of each, and mask them, with the
    uploader's redactions, in what link holders read. `as_text`: link holders download the upload's text even
    when nothing is masked in it (an archive or a database, whose bytes could hold what its text leaves out).
    With `known` (what masked the pieces of a session read before this one), its spellings are masked here too.
    Fails closed: if the scanner itself fails, link holders read nothing of the upload."""
    with collector_paused:
        try:
            found = scan_transcript(projection.transcript, _scanner(choices))
            redacted = list(redactions(projection.transcript, choices.redactions))
        except Exception:  # noqa: BLE001 - a scanner bug must neither fail the upload nor let a secret through
            log.exception("the scan for secrets and personal data failed on an upload")
            return Examined(_withheld(projection), projection, withheld=True)
        secrets = [item for item in found if item.finding.kind not in PERSONAL_KINDS]
        personal = [item for item in found if item.finding.kind in PERSONAL_KINDS]
        masked = [item for item in personal if choices.state(item.finding.kind, reading(item.finding.secret)) == MASKED]
        hidden = [*secrets, *masked, *redacted]
        places = tuple(_personal_places(projection.transcript, personal, choices))
        kept = tuple(place.finding() for place in places)
        source = projection.transcript.source
        if not hidden and (known is None or not known.spans(source)):
            return Examined(projection, projection if as_text else None, personal=kept, places=places)
        warned = _warned(projection, hidden) if hidden else projection
        in_source = [(item.finding.start, item.finding.end, placeholder_of(item.finding)) for item in hidden
                     if item.field == "source"]
        holding = {item.message_index for item in hidden}
        masker = Masker(hidden, warned.transcript.source, known)
        shown = mask_transcript(warned.transcript, masker, in_source, holding)
        shared = Projection(shown, warned.rules, tuple(
            Projection(conversation, part.rules) for conversation, part in zip(shown.conversations,
                                                                               warned.conversations)))
    counts = {**count_kinds(secrets), **{PREFIX + kind: count for kind, count in _distinct_values(
        [*masked, *redacted]).items()}}
    return Examined(shared, warned, counts, kept, masker, places=places)


def redactions(transcript: Transcript, chosen: Iterable[Redaction]) -> Iterator[FieldSecret]:
    """The uploader's redactions as findings the masker masks: the text chosen in a message, or each text of a
    whole message (its body and the pieces it is drawn from), wherever it is written."""
    for redaction in chosen:
        message = _message(transcript, redaction.conversation, redaction.message_index)
        if message is None:  # a message this parse no longer has (a parser of another version)
            continue
        texts = [redaction.text] if redaction.text is not None else \
            [message.content, *(segment.text for segment in message.segments)]
        for text in {text for text in texts if text and text.strip()}:
            finding = Finding(0, len(text), REDACTED, placeholder(REDACTED, text), text)
            yield FieldSecret(finding, "content", message.index, redaction.conversation, span=message.span)


def _message(transcript: Transcript, conversation: int | None, index: int) -> Message | None:
    if conversation is not None:
        if not 0 <= conversation < len(transcript.conversations):
            return None
        transcript = transcript.conversations[conversation]
    return next((message for message in transcript.messages if message.index == index), None)


def _distinct_values(found: list[FieldSecret]) -> dict[str, int]:
    """How many distinct values of each kind."""
    values: dict[str, set[str]] = {}
    for item in found:
        values.setdefault(item.finding.kind, set()).add(item.finding.secret)
    return {kind: len(values[kind]) for kind in sorted(values)}


@dataclass(slots=True)
class Places:
    """Where one distinct value of a kind of personal data was found: where it is first, and the places it is in.
    A place is a field of a message, or the source where no field holds it (a JSON body's escapes)."""

    first: PersonalFinding
    """The finding, its `places` not counted yet."""
    fields: int
    """Fields of messages that hold it (each a place of its own: a piece's messages are no other piece's)."""
    sources: set[tuple]
    """Messages (or the source outside them) whose source holds it: counted when no field does."""

    def finding(self) -> PersonalFinding:
        return replace(self.first, places=self.fields or len(self.sources))


def _personal_places(transcript: Transcript, found: list[FieldSecret], choices: Choices) -> Iterator[Places]:
    """One finding per distinct value of a kind, where it is first, in the order of the upload, with its places."""
    places: dict[tuple[str, str], list[FieldSecret]] = {}
    for item in sorted(found, key=lambda item: (item.span, item.conversation or 0)):
        places.setdefault((item.finding.kind, reading(item.finding.secret)), []).append(item)
    for (kind, value), items in places.items():
        first = items[0]
        line, column = transcript.position(first.span[0])
        fields = {(item.conversation, item.message_index, item.field, item.path) for item in items
                  if item.field != "source"}
        yield Places(PersonalFinding(kind, value, choices.state(kind, value), 0, first.conversation,
                                     first.message_index, line, column),
                     len(fields), {(item.conversation, item.message_index) for item in items})


@dataclass(slots=True)
class Gathered:
    """The personal data found in the pieces of a session read a piece at a time, gathered as the whole parse
    finds it: each value where it is first, with its places in every piece."""

    found: dict[tuple[str, str], Places] = field(default_factory=dict)

    def add(self, places: Iterable[Places], lines: int) -> None:
        """The places found in a piece that starts after `lines` line breaks of the file."""
        for place in places:
            key = (place.first.kind, place.first.value)
            known = self.found.get(key)
            if known is None:
                self.found[key] = Places(replace(place.first, line=place.first.line + lines), place.fields,
                                         set(place.sources))
            else:
                known.fields += place.fields
                known.sources |= place.sources
            held = self.found[key]
            if held.fields:  # the sources count no more: not held
                held.sources.clear()

    def findings(self) -> tuple[PersonalFinding, ...]:
        return tuple(place.finding() for place in self.found.values())


def reading(value: str) -> str:
    """A value as a reader reads it: found written with JSON escapes (`jos\\u00e9@…` in a tool's arguments), the
    text they stand for; so that its spellings are one finding, released at once."""
    for _ in range(3):  # a string of a JSON string of a JSON file is escaped twice
        if "\\" not in value:
            break
        try:
            value = json.loads(f'"{value}"')
        except ValueError:
            break
    return value


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


def _scanner(choices: Choices) -> Callable[[str], list[Finding]]:
    """What scans each text: for secrets, and for personal data too when the choices say to look for it. The
    personal data recognisers (phone numbers' metadata among them) are imported only then: most parses never
    look for personal data, and the command line's `render` of a small file would spend longer importing them
    than parsing (issue 40)."""
    if not choices.detect:
        return scan_text
    from viewer.secrets.personal.scan import scan_with_secrets

    return scan_with_secrets


def _withheld(projection: Projection) -> Projection:
    """What link holders read of an upload the scanner failed on: no text at all, and why."""
    transcript = projection.transcript
    failure = make_diagnostic("W-SCAN-FAILED", (0, 0), "The scan for secrets failed on this input; nothing of it "
                                                       "is shown to link holders (the uploader can download it).")
    return Projection(Transcript(dialect=transcript.dialect, source="", diagnostics=(failure,)), ())


def _warned(projection: Projection, found: list[FieldSecret]) -> Projection:
    """The projection with a warning for each thing masked, among its diagnostics in source order."""
    def warn(transcript: Transcript, conversation: int | None) -> Transcript:
        merged = heapq.merge(transcript.diagnostics, diagnostics(found, conversation), key=lambda made: made.span[0])
        return replace(transcript, diagnostics=tuple(merged))
    conversations = tuple(warn(part.transcript, number) for number, part in enumerate(projection.conversations))
    transcript = replace(warn(projection.transcript, None), conversations=conversations)
    for conversation in conversations:
        conversation.share_lines(transcript)
    return Projection(transcript, projection.rules, tuple(
        Projection(conversation, part.rules) for conversation, part in zip(conversations, projection.conversations)))
