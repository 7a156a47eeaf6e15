"""The uploader's choices for link holders of one upload (values released, kinds shown, passages redacted) and
the personal data a parse found: plain values, which the store keeps (viewer/store/personal.py) and every parse
applies (viewer/ingest/masking.py). Here, apart from the store, so that masking a parse (the command line's
`render`) needs no database.

How many of each kind are masked is counted with the secrets, under keys that start with `PREFIX`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

PREFIX = "personal:"
"""Before a personal data kind among the counts of `transcripts.secret_kinds`."""
RELEASE, SHOW, REDACT = "release", "show", "redact"
MASKED, RELEASED, SHOWN = "masked", "released", "shown"
"""What link holders read of a finding: its placeholder, or its value (released by itself, or its kind shown)."""


@dataclass(frozen=True, slots=True)
class Redaction:
    """A passage the uploader redacted for link holders."""

    number: int
    """Its choice's number, to undo it by."""
    conversation: int | None
    message_index: int
    text: str | None
    """The text chosen in the message; None for the whole message."""


@dataclass(frozen=True, slots=True)
class Choices:
    """What the uploader chose for link holders of one upload, as every parse of it applies them."""

    detect: bool = True
    """Whether personal data is looked for at all (the server's setting)."""
    shown: frozenset[str] = frozenset()
    """Kinds link holders read as written."""
    released: frozenset[tuple[str, str]] = frozenset()
    """(kind, value) pairs link holders read as written: false positives, or data the uploader means to share."""
    redactions: tuple[Redaction, ...] = ()

    def state(self, kind: str, value: str) -> str:
        """What link holders read of a finding: `masked`, `released` or `shown`."""
        if (kind, value) in self.released:
            return RELEASED
        return SHOWN if kind in self.shown else MASKED


@dataclass(frozen=True, slots=True)
class PersonalFinding:
    """One distinct value of a kind of personal data found in an upload, for the uploader."""

    kind: str
    value: str
    state: str
    """`masked`, `released` or `shown` (`Choices.state`)."""
    places: int
    """In how many places (fields of messages, the source) it was found."""
    conversation: int | None
    """Where it is first: the conversation of a dataset, the message (None outside messages), line and column."""
    message_index: int | None
    line: int
    column: int
    number: int = field(default=0, compare=False)


def split_kinds(counted: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """Stored counts as (secrets, personal data) by kind."""
    secrets = {kind: count for kind, count in counted.items() if not kind.startswith(PREFIX)}
    personal = {kind[len(PREFIX):]: count for kind, count in counted.items() if kind.startswith(PREFIX)}
    return secrets, personal
