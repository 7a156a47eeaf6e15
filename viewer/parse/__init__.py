"""Parse a transcript of any dialect into the one model: decode, detect, read with the dialect's importer
(importers.py), then check and pair (viewer.analysis)."""
from __future__ import annotations

import dataclasses

from viewer.analysis import check, pair_calls
from viewer.model import Diagnostic, Transcript
from viewer.parse.decode import decode
from viewer.parse.detect import detect
from viewer.parse.importers import DIALECTS, IMPORTERS, Importer
from viewer.parse.options import ParseOptions
from viewer.parse.surrogates import replace_lone_surrogates

# Bump PARSER_VERSION whenever what an input parses to may change (messages, diagnostics, pairs, header, tools,
# frame): the store keeps each transcript's parse with the version that made it, and parses older ones again on
# their next open. The store also keeps each message's policy decision beside the parse under this version, so
# a change to those decisions needs a bump too. tests/golden/VERSION.json records the goldens' digest for this
# version: the golden tests fail when parse output changes while the version stays the same.
PARSER_VERSION = "3"


def parse(data: str | bytes, dialect: str = "auto", *, primed_role: str | None = None) -> Transcript:
    """Parse text or bytes into a Transcript. Never raises on user input: defects become diagnostics."""
    if dialect != "auto" and dialect not in IMPORTERS:
        raise ValueError(f"unknown dialect {dialect!r}; choose one of auto, {', '.join(DIALECTS)}")
    text, decode_diagnostics = decode(data)
    chosen = detect(text) if dialect == "auto" else dialect
    transcript = replace_lone_surrogates(IMPORTERS[chosen].read(text, ParseOptions(primed_role=primed_role)))
    return _finish(transcript, decode_diagnostics)


def _finish(transcript: Transcript, extra: list[Diagnostic]) -> Transcript:
    """The transcript with its checks and pairs, and every diagnostic in source order."""
    cancelled = frozenset(d.message_index for d in transcript.diagnostics
                          if d.code == "E-TOOL-CANCELLED" and d.message_index is not None)
    replies_without_id = IMPORTERS[transcript.dialect].replies_without_id
    pairs, pairing_diagnostics = pair_calls(transcript.messages, replies_without_id, cancelled)
    diagnostics = [*transcript.diagnostics, *extra, *check(transcript), *pairing_diagnostics]
    diagnostics.sort(key=lambda d: (d.span[0], d.span[1]))
    return dataclasses.replace(transcript, pairs=tuple(pairs), diagnostics=tuple(diagnostics))


__all__ = ["DIALECTS", "IMPORTERS", "PARSER_VERSION", "Importer", "ParseOptions", "detect", "parse"]
