"""A secret found in a text, the preview a person may see of it, and the text with every secret masked."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from viewer.secrets.personal.kinds import KINDS, placeholder

PREVIEW_ENDS = 4
"""At most this many characters of each end of a secret appear in its preview (8 in all, never more)."""
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Finding:
    """One secret in a text."""

    start: int
    """Offset of the secret's first character in the text that was scanned."""
    end: int
    """Offset just past its last character."""
    kind: str
    """What it is, for a person: `GitHub token`, `AWS access key`, `Private key`, `OpenAI API key` …"""
    preview: str
    """A masked preview (`ghp_…9fQ2`): a few characters of each end, the rest hidden; never the secret."""
    secret: str = field(default="", repr=False, compare=False)
    """The secret itself, for masking its other spellings (viewer.secrets.masking); never shown, never logged."""


WITHOUT_PREVIEW = frozenset({"Private key"})
"""Kinds whose first and last characters are armour (`-----BEGIN`), not something to recognise."""


def preview(secret: str, kind: str = "") -> str:
    """A preview showing at most 4 characters of each end: one of each end per 10 characters of secret (so a
    secret under 10 characters shows nothing, and no preview shows more than 8). A private key, or any secret
    of several lines, shows nothing; personal data shows its placeholder (`[email]`, `[card …6467]`)."""
    if kind in KINDS:  # personal data: its placeholder, which shows nothing of it but a card's last digits
        return placeholder(kind, secret)
    shown = min(PREVIEW_ENDS, len(secret) // 10)
    if shown == 0 or "\n" in secret or kind in WITHOUT_PREVIEW:
        return ELLIPSIS
    return f"{secret[:shown]}{ELLIPSIS}{secret[-shown:]}"


def label(kind: str) -> str:
    """What stands in a text where a secret of this kind was."""
    return f"[secret: {kind}]"


def placeholder_of(finding: Finding) -> str:
    """What stands in a text where this finding was: `[secret: KIND]` for a secret, the placeholder of its kind
    for personal data (`[email]`, `[card …6467]`, `[redacted]`)."""
    return placeholder(finding.kind, finding.secret) if finding.kind in KINDS else label(finding.kind)


def mask(text: str, findings: Iterable[Finding]) -> str:
    """The text with each finding's span replaced by `[secret: KIND]`. Overlapping findings are masked as one
    span (labelled with the first one's kind), so no character of either survives."""
    spans = sorted((finding.start, finding.end, finding.kind) for finding in findings if finding.end > finding.start)
    parts: list[str] = []
    done = 0
    for start, end, kind in spans:
        if end <= done:
            continue
        if start < done:  # overlaps the span just masked: widen that one
            done = end
            continue
        parts += (text[done:start], label(kind))
        done = end
    parts.append(text[done:])
    return "".join(parts)
