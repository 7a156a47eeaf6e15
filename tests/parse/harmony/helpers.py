"""Reading Harmony text the way the Harmony tests need it."""
from __future__ import annotations

from viewer.model import Message, Transcript
from viewer.parse import ParseOptions
from viewer.parse.harmony import parse_harmony


def read(text: str, primed_role: str | None = None) -> Transcript:
    """The Harmony reader alone (no checks, no pairing)."""
    return parse_harmony(text, ParseOptions(primed_role=primed_role))


def only(transcript: Transcript) -> Message:
    """The transcript's one message (fails when there are none or several)."""
    assert len(transcript.messages) == 1, transcript.messages
    return transcript.messages[0]
