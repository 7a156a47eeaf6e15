"""Placeholder until the harmony parser lands: the whole input is reported as unread text."""
from __future__ import annotations

from viewer.model import Diagnostic, Transcript
from viewer.parse.options import ParseOptions


def parse_harmony(text: str, options: ParseOptions) -> Transcript:
    unread = Diagnostic(code="W-STRAY-TEXT", severity="warning", message="Not parsed yet.", span=(0, len(text)))
    return Transcript(dialect="harmony", source=text, diagnostics=(unread,) if text.strip() else ())
