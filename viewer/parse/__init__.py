"""Parse a transcript of any dialect into the one model: decode, detect, parse, check, pair."""
from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Callable

from viewer.checks import check
from viewer.model import Transcript
from viewer.pairing import pair_calls
from viewer.parse.decode import decode
from viewer.parse.detect import DIALECTS, detect
from viewer.parse.options import ParseOptions
from viewer.parse.surrogates import replace_lone_surrogates

_PACKAGE = Path(__file__).resolve().parent.parent
_STORED_BY = ("parse/*.py", "model.py", "checks.py", "pairing.py", "policy.py")


def _code_digest() -> str:
    """A digest of the code whose output the store keeps (the parse and each message's policy decision).

    Any change to that code changes the version, so stored transcripts are parsed again on their next open
    without anyone having to remember a bump."""
    digest = hashlib.sha256()
    for pattern in _STORED_BY:
        for path in sorted(_PACKAGE.glob(pattern)):
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return "1-" + digest.hexdigest()[:16]


PARSER_VERSION = _code_digest()
"""Changes whenever the model an input parses to (or its stored policy decision) may change."""

DialectParser = Callable[[str, ParseOptions], Transcript]


def _parsers() -> dict[str, DialectParser]:
    from viewer.parse import chatml, events, harmony, json_import

    return {
        "openchatml": harmony.parse_harmony,
        "harmony": harmony.parse_harmony,
        "chatml": chatml.parse_chatml,
        "json": json_import.parse_json,
        "events": events.parse_events,
    }


def parse(data: str | bytes, dialect: str = "auto", *, primed_role: str | None = None) -> Transcript:
    """Parse text or bytes into a Transcript. Never raises on user input: defects become diagnostics."""
    if dialect != "auto" and dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; choose one of auto, {', '.join(DIALECTS)}")
    text, decode_diagnostics = decode(data)
    chosen = detect(text) if dialect == "auto" else dialect
    transcript = replace_lone_surrogates(_parsers()[chosen](text, ParseOptions(primed_role=primed_role)))
    return _finish(transcript, decode_diagnostics)


def _finish(transcript: Transcript, extra: list) -> Transcript:
    cancelled = frozenset(d.message_index for d in transcript.diagnostics
                          if d.code == "E-TOOL-CANCELLED" and d.message_index is not None)
    pairs, pairing_diagnostics = pair_calls(transcript.messages, transcript.dialect, cancelled)
    diagnostics = [*transcript.diagnostics, *extra, *check(transcript), *pairing_diagnostics]
    diagnostics.sort(key=lambda d: (d.span[0], d.span[1]))
    return dataclasses.replace(transcript, pairs=tuple(pairs), diagnostics=tuple(diagnostics))


__all__ = ["DIALECTS", "PARSER_VERSION", "ParseOptions", "detect", "parse"]
