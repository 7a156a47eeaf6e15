"""Bytes to text: UTF-8, BOM stripped, invalid bytes replaced and reported, never an exception."""
from __future__ import annotations

from viewer.model import Diagnostic

BOM = "\ufeff"


def decode(data: str | bytes) -> tuple[str, list[Diagnostic]]:
    """Return the text every span will point into, and any decoding diagnostics."""
    if isinstance(data, str):
        text = data
        diagnostics: list[Diagnostic] = []
    else:
        text, diagnostics = _decode_bytes(data)
    if text.startswith(BOM):
        # The BOM is an encoding mark, not content; the raw upload still keeps it.
        text = text[1:]
    return text, diagnostics


def _decode_bytes(data: bytes) -> tuple[str, list[Diagnostic]]:
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        text = data.decode("utf-8", errors="replace")
        first = len(data[: error.start].decode("utf-8"))
        if text.startswith(BOM):
            first -= 1
        note = Diagnostic(
            code="W-DECODE-UTF8",
            severity="warning",
            message="The input is not valid UTF-8; invalid bytes were replaced with U+FFFD (first one here).",
            span=(max(first, 0), max(first, 0) + 1),
        )
        return text, [note]
