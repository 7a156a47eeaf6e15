"""Binary uploads are told apart from text transcripts, even damaged ones."""
from __future__ import annotations

import random
import zlib

import pytest

from viewer.ingest.binary import binary_reason

PNG_HEAD = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00"


def random_bytes(size: int) -> bytes:
    return random.Random(7).randbytes(size)


@pytest.mark.parametrize("data", [
    PNG_HEAD + random_bytes(4000),
    zlib.compress(b"<|start|>user<|message|>hi<|end|>" * 300),
    random_bytes(10_000),
], ids=["png", "deflate", "random"])
def test_binary_files_are_recognised(data):
    reason = binary_reason(data)
    assert reason is not None and "binary" in reason


@pytest.mark.parametrize("data", [
    b"",
    b"<|start|>user<|message|>Hello \xe2\x80\x94 caf\xc3\xa9<|end|>",
    b"\xef\xbb\xbf<|im_start|>user\r\nHi\r\n<|im_end|>\r\n",
    b"<|start|>user<|message|>a stray NUL \x00 here<|end|>" * 20,
    b"<|start|>user<|message|>latin-1 caf\xe9<|end|>" * 20,
    b"a" + "é".encode() * 4096,
], ids=["empty", "utf8", "bom-crlf", "few-nuls", "few-bad-bytes", "char-cut-at-boundary"])
def test_text_transcripts_even_damaged_ones_are_not_binary(data):
    assert binary_reason(data) is None


@pytest.mark.parametrize("magic", [b"PK\x03\x04", b"SQLite format 3\x00"], ids=["zip", "sqlite"])
def test_a_zip_archive_or_a_database_is_let_through_for_the_parser_to_unpack(magic):
    assert binary_reason(magic + random_bytes(4000)) is None
