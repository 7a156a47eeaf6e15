"""Small helpers the parser tests share."""
from __future__ import annotations

from viewer.model import Diagnostic, Transcript


def codes(transcript: Transcript) -> list[str]:
    """The transcript's diagnostic codes, in order."""
    return [diagnostic.code for diagnostic in transcript.diagnostics]


def only(transcript: Transcript, code: str) -> Diagnostic:
    """The one diagnostic with this code (fails when there are none or several)."""
    found = [diagnostic for diagnostic in transcript.diagnostics if diagnostic.code == code]
    assert len(found) == 1, transcript.diagnostics
    return found[0]
