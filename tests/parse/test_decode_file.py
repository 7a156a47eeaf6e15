"""A spooled upload's text (viewer/parse/decode.py `decode_file`) is the text `decode` gives for its bytes; what
`decode` must report or unpack is left to it."""
from __future__ import annotations

import io

import pytest

from viewer.parse import parse
from viewer.parse.decode import decode, decode_file

TEXT = "\ufeff<|start|>user<|message|>Grüße 🙂 — 東京<|end|>\r\n"


def test_a_file_decodes_to_the_text_of_its_bytes():
    data = TEXT.encode()
    text = decode_file(io.BytesIO(data))
    assert decode(text) == decode(data)
    assert parse(text).to_json() == parse(data).to_json()


@pytest.mark.parametrize("data", [TEXT.encode()[:-5] + b"\xff" + TEXT.encode()[-5:], "😀".encode()[:3],
                                  b"PK\x03\x04 an Inspect AI .eval archive"], ids=["bad-byte", "cut-char", "zip"])
def test_what_decode_reports_or_unpacks_is_left_to_it(data):
    assert decode_file(io.BytesIO(data)) is None
