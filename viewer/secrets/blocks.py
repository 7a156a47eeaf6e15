"""The extent of a private key: detect-secrets finds its marker (the BEGIN line of a PEM block, or PuTTY's
first line); the secret is the whole block, from the BEGIN line's dashes to the END line's, over as many lines
as it takes.

A key cut short (an agent ran `head` on it, or the stream ended) has no END line: it then runs as far as lines
that look like a key's (base64, or `Name: value` headers such as `Proc-Type:`) go. Keys inside a JSON string
have `\\n` escapes for line breaks, which count as line breaks here.
"""
from __future__ import annotations

import re

REACH = 65_536
"""How far after its BEGIN line a key block may run (a 4096-bit RSA key is 3.2 KB; PGP blocks are bigger)."""
OPENING_DASHES = re.compile(r"-{4,5} ?$")
CLOSING_DASHES = re.compile(r" ?-{4,5}")
NEXT = re.compile(r"-{4,5} ?BEGIN [A-Z0-9 ]*PRIVATE KEY|PuTTY-User-Key-File")
"""The next key's marker: no block runs past it (nor further than `REACH`), which keeps a scan of many markers
on one line linear."""
END = re.compile(r"-{4,5} ?END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)? ?-{4,5}")
PUTTY_MAC = re.compile(r"Private-MAC: [0-9a-fA-F]+")
REST_OF_LINE = re.compile(r"[^\n\\]*")
KEY_LINES = re.compile(r"""(?:(?:\r?\n|\\r?\\n)"""
                       r"""(?:[A-Za-z0-9+/=]{4,}(?=[\r\n\\"']|$)|[A-Za-z][A-Za-z0-9-]*: [^\n\\]*))*""")
"""Lines of base64 (each a whole line) or `Name: value` headers, after real or JSON-escaped line breaks."""


def key_block(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a marker found at `[start, end)` to its whole key block."""
    dashes = OPENING_DASHES.search(text, max(0, start - 6), start)
    if dashes:
        start = dashes.start()
    following = NEXT.search(text, end, end + REACH)  # a key cut short, then another: the block ends there
    limit = following.start() if following else min(len(text), end + REACH)
    closing = (PUTTY_MAC if text.startswith("PuTTY", start) else END).search(text, end, limit)
    if closing:
        return start, closing.end()
    dashes = CLOSING_DASHES.match(text, end, limit)
    # Both patterns match the empty string too: never None.
    end = REST_OF_LINE.match(text, dashes.end() if dashes else end, limit).end()  # type: ignore[union-attr]
    return start, KEY_LINES.match(text, end, limit).end()  # type: ignore[union-attr]
