"""Tell a binary upload from a text transcript before parsing it.

A transcript with a few stray NUL bytes or bad UTF-8 sequences still renders, with diagnostics; a file that is
mostly such bytes (an image, an archive, a database) gets a clear 415 instead of a page of replacement
characters. The test reads the first 8 KiB, as git and grep do; no file-type library is needed for a yes/no.
A zip archive and a SQLite database are let through: the parser reads them (an Inspect AI .eval log, a bundle
of a session's files, an agent's database: viewer/bundles, bounded), once admission.py has checked their form.
"""
from __future__ import annotations

from viewer.bundles import is_archive, is_database

SNIFF_BYTES = 8192
BINARY_SHARE = 0.10
"""Above this share of control bytes or undecodable bytes in the first 8 KiB, an upload is binary."""

_TEXT_CONTROLS = frozenset(b"\t\n\r\f\x1b")
_CONTROLS = frozenset(range(32)) - _TEXT_CONTROLS | {0x7F}


def binary_reason(data: bytes) -> str | None:
    """Why the upload looks binary, for the 415 page, or None when it reads as text."""
    head = data[:SNIFF_BYTES]
    if not head or is_archive(head) or is_database(head):
        return None  # no bytes; or a zip archive or a database, which the parser unpacks itself
    suspicious = sum(1 for byte in head if byte in _CONTROLS) + _undecodable_bytes(head)
    share = suspicious / len(head)
    if share <= BINARY_SHARE:
        return None
    return (f"This looks like binary data, not a text transcript: {share:.0%} of its first "
            f"{len(head):,} bytes are control bytes or not UTF-8.")


def _undecodable_bytes(head: bytes) -> int:
    count = 0
    rest = head
    while rest:
        try:
            rest.decode("utf-8")
            return count
        except UnicodeDecodeError as error:
            if error.reason == "unexpected end of data" and error.end == len(rest):
                return count  # a character cut by the 8 KiB boundary, not a defect
            count += error.end - error.start
            rest = rest[error.end:]
    return count
