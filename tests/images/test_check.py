import hashlib

import pytest

from tests.images.pictures import bomb, plain, png_with_text
from viewer.images import Verdict, inspect
from viewer.images.check import MAX_BYTES


def verdict(data: bytes):
    return inspect(data, hashlib.sha256(data).hexdigest())


@pytest.mark.parametrize("format, media_type", [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif"),
                                                ("WEBP", "image/webp")])
def test_raster_images_are_shown_with_the_type_their_bytes_say(format, media_type):
    assert verdict(plain(format)) == Verdict(media_type, 20, 10, None)


def test_the_type_comes_from_the_bytes_not_from_what_is_claimed():
    assert verdict(plain("GIF")).type == "image/gif"  # whatever a part's media_type said


@pytest.mark.parametrize("data, reason", [
    (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "an SVG drawing"),
    (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "an SVG drawing"),
    (b"<html><body>hello</body></html>", "not a PNG, JPEG, GIF or WebP image"),
    (b"%PDF-1.7 ...", "not a PNG, JPEG, GIF or WebP image"),
])
def test_anything_but_a_raster_image_is_refused(data, reason):
    assert verdict(data).refused == reason


def test_an_image_with_html_after_its_end_is_refused_as_a_polyglot():
    refused = verdict(plain("PNG") + b"<html><script>alert(1)</script></html>").refused
    assert refused == "also readable as another format (data after the image's end)"


def test_an_image_holding_a_zip_archive_is_refused_as_a_polyglot():
    data = plain("JPEG")
    polyglot = data[:-2] + b"PK\x03\x04" + b"\x00" * 26 + data[-2:]  # inside the image, before its end mark
    assert verdict(polyglot).refused == "also readable as another format (it holds a zip entry)"


def test_an_image_holding_a_script_tag_is_refused_as_a_polyglot():
    data = plain("JPEG")
    polyglot = data[:-2] + b"<SCRIPT>alert(1)</script>" + data[-2:]
    assert verdict(polyglot).refused == "also readable as another format (it holds a <script tag)"


def test_a_decompression_bomb_is_refused_before_it_is_decoded():
    data = bomb(7_000)
    assert len(data) < 100_000
    assert verdict(data).refused == "7,000 × 7,000 pixels, over the limit of 40,000,000"


def test_a_bomb_past_pillow_s_own_limit_is_refused_too():
    assert verdict(bomb(10_000)).refused.startswith("more pixels than Pillow's own limit")


def test_an_image_over_the_byte_limit_is_refused():
    data = plain("PNG")
    oversized = data[:33] + b"\x00" * (MAX_BYTES + 1)  # a PNG's header, then more bytes than the limit
    assert verdict(oversized).refused == "over the 32 MiB limit"


@pytest.mark.parametrize("format", ["PNG", "JPEG", "GIF", "WEBP"])
def test_a_truncated_image_is_refused_as_cut_short(format):
    data = plain(format, (400, 300))
    assert verdict(data[:len(data) // 2]).refused == "cut short (no end mark)"


def test_a_png_with_a_damaged_chunk_is_refused_as_undecodable():
    data = bytearray(png_with_text((400, 300)))
    data[60] ^= 0xFF  # inside the first chunks: its checksum no longer matches
    assert verdict(bytes(data)).refused.startswith("undecodable (")
