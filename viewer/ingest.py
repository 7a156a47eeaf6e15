"""Uploaded bytes to what the store keeps: the parse and the default view's decision for every message.

This runs once per upload (and again only when the parser version changes), so pages never parse.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from viewer import policy
from viewer.model import Diagnostic, Transcript
from viewer.parse import DIALECTS, PARSER_VERSION, parse
from viewer.parse.decode import decode

DIALECT_CHOICES = ("auto", *DIALECTS)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Analysis:
    """A parsed transcript with the default view's decisions, ready to store."""

    transcript: Transcript
    """The parse of the raw bytes."""
    rules: tuple[policy.Rule, ...]
    """The default view's rule for each message, in message order."""
    parser_version: str
    """`viewer.parse.PARSER_VERSION` at the time of the parse."""

    @property
    def hidden_count(self) -> int:
        return sum(1 for rule in self.rules if rule.show_as == "hidden")


def analyse(raw: bytes, dialect: str = "auto") -> Analysis:
    """Parse and apply the policy. Never raises on user input: a parser bug becomes a diagnostic."""
    try:
        transcript = parse(raw, dialect)
        rules = policy.default_rules(transcript)
    except Exception as error:  # noqa: BLE001 - an upload must not fail because the parser has a bug
        log.exception("parser failed on an upload")
        transcript = _unparsed(raw, dialect, error)
        rules = ()
    return Analysis(transcript=transcript, rules=rules, parser_version=PARSER_VERSION)


def _unparsed(raw: bytes, dialect: str, error: Exception) -> Transcript:
    text, _ = decode(raw)
    failure = Diagnostic(code="W-PARSER-FAILED", severity="error",
                         message=f"The parser failed on this input ({type(error).__name__}); "
                                 "the raw text is kept and nothing is shown.",
                         span=(0, len(text)))
    return Transcript(dialect=dialect if dialect in DIALECTS else "unknown", source=text, diagnostics=(failure,))
