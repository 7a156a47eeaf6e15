"""Bytes to text: UTF-8, BOM stripped, invalid bytes replaced and reported, never an exception. An Inspect AI .eval
log (a zip archive holding `header.json`) becomes the text of the JSON it holds (viewer/parse/json/eval_archive.py);
any other zip archive, and a SQLite database, becomes a bundle text of its files or tables (viewer/bundles)."""
from __future__ import annotations

from typing import BinaryIO

from viewer import bundles
from viewer.model import Diagnostic, Span, make_diagnostic
from viewer.parse.json import eval_archive
from viewer.parse.surrogates import clean, has_lone_surrogate

BOM = "\ufeff"


def decode(data: str | bytes) -> tuple[str, list[Diagnostic]]:
    """Return the text every span will point into, and any decoding diagnostics."""
    text, diagnostics, _ = decode_members(data)
    return text, diagnostics


def decode_members(data: str | bytes) -> tuple[str, list[Diagnostic], list[Span]]:
    """`decode`, and where the members of an Inspect AI archive lie in its text (eval_archive.unpack_members;
    none for anything else)."""
    members: list[Span] = []
    if isinstance(data, str):
        text, diagnostics = _checked_str(data)
    elif eval_archive.is_archive(data) and eval_archive.is_eval_log(data):
        text, diagnostics, members = eval_archive.unpack_members(data)  # an Inspect AI .eval log: its JSON log
    elif bundles.is_archive(data) or bundles.is_database(data):
        text, diagnostics = bundles.unpacked(data)
    else:
        text, diagnostics = _decode_bytes(data)
    if text.startswith(BOM):  # never an archive's or a database's text, which starts with its `{`
        # The BOM is an encoding mark, not content; the raw upload still keeps it.
        text = text[1:]
    return text, diagnostics, members


def decode_file(file: BinaryIO) -> str | None:
    """A file's text; None when it is not clean UTF-8, or is an archive or a database (then `decode` its bytes,
    which reports or unpacks them). The same text `decode` gives, once `parse` has stripped a BOM from either.

    Its bytes are read whole and decoded at once, then dropped. Decoding a block at a time held the blocks' texts
    and their joined text together: 263 MB at the peak for the 121 MB text of 64 MB of Harmony (any character past
    U+00FF takes two bytes a character), where bytes and text together are 183 MB."""
    file.seek(0)
    data = file.read()
    if bundles.is_archive(data) or bundles.is_database(data):
        return None
    try:
        return data.decode("utf-8")  # strict: a bad byte is `decode`'s to report
    except UnicodeDecodeError:
        return None


def _decode_bytes(data: bytes) -> tuple[str, list[Diagnostic]]:
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as error:
        text = data.decode("utf-8", errors="replace")
        first = len(data[: error.start].decode("utf-8"))
        if text.startswith(BOM):
            first -= 1
        note = make_diagnostic(
            "W-DECODE-UTF8", (max(first, 0), max(first, 0) + 1),
            "The input is not valid UTF-8; invalid bytes were replaced with U+FFFD (first one here).")
        return text, [note]


def _checked_str(text: str) -> tuple[str, list[Diagnostic]]:
    """A caller's str may hold lone surrogates, which no page or database could carry: U+FFFD instead."""
    if not has_lone_surrogate(text):
        return text, []
    first = next(at for at, char in enumerate(text) if "\ud800" <= char <= "\udfff")
    note = make_diagnostic("W-LONE-SURROGATE", (first, first + 1),
                           "The text holds lone UTF-16 surrogates, which cannot be shown or stored; they were "
                           "replaced with U+FFFD (first one here).")
    return clean(text), [note]
