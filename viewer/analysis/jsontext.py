"""`json.loads`, several times faster on the small documents transcripts are full of (call arguments, tool
replies, JSON message objects), with exactly its results.

msgspec's decoder reads a short tool reply in a fraction of `json.loads`'s time. Where the two could disagree,
msgspec refuses instead: `NaN`, `Infinity` and numbers that overflow a float, escapes of lone
surrogates (`"\\ud800"`), nesting deeper than its limit. Every refusal is read again by `json.loads`, whose
value or exception is then the answer, so callers see `json.loads` exactly (its tests compare the two).
(orjson was the other candidate; it turns integers beyond 64 bits into floats, which `json.loads` does not.)
"""
from __future__ import annotations

import json
from typing import Any

import msgspec

_decode = msgspec.json.Decoder().decode


def loads(text: str) -> Any:
    """`json.loads(text)`: the same value, or the same exception."""
    try:
        # Not ASCII: its bytes, since decoding a str caches its UTF-8 form inside it (PyUnicode_AsUTF8AndSize) for
        # as long as it lives, and a message's body lives as long as its parse.
        return _decode(text if text.isascii() else text.encode())
    except Exception:  # noqa: BLE001 - whatever msgspec refuses, json.loads decides
        return json.loads(text)
