"""Bad input through every way in (the form's file picker, its paste box, the API): each answer is either a
rendered transcript, diagnostics shown in the debug view, or a 4xx page or JSON error that says why. Never a
5xx, never a traceback."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import harmony, soup

SHOWN = harmony(("user", "", "hello there"), ("assistant", "final", "general kenobi"))
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00" + bytes(range(256)) * 8
NOISE = random.Random(7).randbytes(8192)


@dataclass(frozen=True)
class Bad:
    name: str
    raw: bytes
    status: int | None = None
    """None: the upload is stored and renders; else the 4xx every way in answers."""
    reason: str = ""
    """Words the 4xx's message must hold."""
    shows: tuple[str, ...] = ()
    """Text the default view must show."""
    diagnostics: tuple[str, ...] = ()
    """Codes the debug view must list when the bytes arrive unchanged (file and API; the paste box's text was
    decoded by the form already)."""
    ways: tuple[str, ...] = ("api", "file", "paste")
    """How it is sent. Binary data is not pasted: a paste box holds text, and the form parser has already
    replaced the bytes that are not UTF-8, so what arrives is (junk) text, which renders."""


CASES = [
    Bad("invalid UTF-8", SHOWN + b"\xff\xfe \xc3\x28", shows=("hello there", "general kenobi"),
        diagnostics=("W-DECODE-UTF8",)),
    Bad("byte order mark", b"\xef\xbb\xbf" + SHOWN, shows=("hello there", "general kenobi")),
    Bad("NUL bytes in text", SHOWN.replace(b"hello", b"hel\x00lo\x00"), shows=("general kenobi",)),
    Bad("CRLF line ends", b"<|im_start|>user\r\nhello there<|im_end|>\r\n<|im_start|>assistant\r\ngeneral kenobi"
        b"<|im_end|>\r\n", shows=("hello there", "general kenobi")),
    Bad("lone surrogate as JSON escapes", json.dumps([{"role": "user", "content": "hello \ud800 there"},
                                                      {"role": "assistant", "content": "general kenobi"}]).encode(),
        shows=("general kenobi",), diagnostics=("W-LONE-SURROGATE",)),
    Bad("lone surrogate as raw bytes", SHOWN.replace(b"there", b"th\xed\xa0\x80ere"), shows=("general kenobi",),
        diagnostics=("W-DECODE-UTF8",)),
    Bad("empty", b"", status=400, reason="empty"),
    Bad("whitespace only", b" \r\n\t\n", status=400, reason="empty"),
    Bad("PNG image", PNG, status=415, reason="binary", ways=("api", "file")),
    Bad("random bytes", NOISE, status=415, reason="binary", ways=("api", "file")),
    Bad("deeply nested JSON", b"[" * 200_000, diagnostics=("W-JSON-SYNTAX",)),
    Bad("gigantic single line", b"<|start|>user<|message|>" + b"word " * 1_000_000 + b"<|end|>"),
]


def _multipart(field: str, value: bytes, filename: str | None = None) -> tuple[bytes, str]:
    """A form body built by hand, so the paste box can carry any bytes (a test client encodes text as UTF-8)."""
    boundary = "bad-input-boundary"
    disposition = f'form-data; name="{field}"' + (f'; filename="{filename}"' if filename else "")
    body = (f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode() + value
            + f"\r\n--{boundary}--\r\n".encode())
    return body, f"multipart/form-data; boundary={boundary}"


def send(client: FlaskClient, way: str, raw: bytes) -> Any:
    """Upload `raw` one way, and wait until it is processed (a big one is answered before it is: 202)."""
    if way == "api":
        response = client.post("/api/transcripts?debug=allow", data=raw)
    else:
        body, content_type = _multipart("file", raw, "upload.txt") if way == "file" else _multipart("text", raw)
        response = client.post("/transcripts", data=body, content_type=content_type)
    assert client.application.extensions["viewer.processor"].idle(60)
    return response


def assert_no_traceback(response: Any) -> None:
    body = response.get_data(as_text=True)
    assert response.status_code < 500, body[:500]
    assert "Traceback" not in body and 'File "' not in body


def assert_clear_refusal(response: Any, way: str, status: int, reason: str) -> None:
    assert_no_traceback(response)
    assert response.status_code == status
    if way == "api":
        message = response.get_json()["error"]["message"]
    else:
        error = soup(response).find(class_="error")
        assert error["data-status"] == str(status)
        message = error.get_text(" ")
    assert reason in message


def transcript_path(response: Any, way: str) -> str:
    """Where the upload landed: the API's `url`, or the form's redirect."""
    assert_no_traceback(response)
    if way == "api":
        assert response.status_code in (201, 202), response.get_data(as_text=True)[:500]
        path = urlsplit(response.get_json()["url"]).path
    else:
        assert response.status_code == 303, response.get_data(as_text=True)[:500]
        path = response.headers["Location"]
    return path


def _cases_and_ways() -> list[Any]:
    return [pytest.param(case, way, id=f"{case.name}-{way}") for case in CASES for way in case.ways]


@pytest.mark.parametrize("case, way", _cases_and_ways())
def test_bad_input_renders_or_is_refused_clearly(client, case, way):
    response = send(client, way, case.raw)
    if case.status is not None:
        assert_clear_refusal(response, way, case.status, case.reason)
        return
    path = transcript_path(response, way)
    page = client.get(path)
    assert_no_traceback(page)
    assert page.status_code == 200
    for text in case.shows:
        assert text in soup(page).get_text(" ")
    debug = client.get(path + "?view=debug")
    assert_no_traceback(debug)
    assert debug.status_code == 200
    listed = {code.get_text() for code in soup(debug).select(".diagnostics-panel code.diag-code")}
    if way != "paste":
        assert set(case.diagnostics) <= listed, listed
    for twin in (path + ".json", path + ".json?view=debug"):
        assert_no_traceback(client.get(twin))


@pytest.mark.parametrize("way", ["api", "file", "paste"])
def test_an_upload_over_the_limit_is_a_413_with_the_limit(make_app, way):
    client = make_app(MAX_UPLOAD_BYTES=1000).test_client()
    response = send(client, way, SHOWN + b" " * 1000)
    assert_clear_refusal(response, way, 413, "limit of 1,000 bytes")


def test_a_text_transcript_with_a_few_nuls_still_uploads(client):
    raw = SHOWN + b"\x00" * 5
    assert transcript_path(send(client, "api", raw), "api")
    assert transcript_path(send(client, "file", raw), "file")


def test_a_binary_upload_is_not_stored(client):
    assert send(client, "file", PNG).status_code == 415
    assert soup(client.get("/")).select(".notice") == []  # no "uploaded" flash waiting


# ---- wrong content types ---------------------------------------------------------------------------------

def test_the_api_refuses_a_multipart_form_and_says_where_forms_go(client):
    body, content_type = _multipart("file", SHOWN, "a.txt")
    response = client.post("/api/transcripts", data=body, content_type=content_type)
    assert_clear_refusal(response, "api", 415, "POST /transcripts")


def test_the_api_refuses_a_multipart_content_type_without_a_boundary(client):
    response = client.post("/api/transcripts", data=SHOWN, content_type="multipart/form-data")
    assert_clear_refusal(response, "api", 415, "not as a multipart form")


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded", "text/plain",
                                          None])
def test_the_api_takes_the_body_as_the_transcript_whatever_else_it_is_labelled(client, content_type):
    raw = json.dumps([{"role": "user", "content": "hello there"}]).encode()
    response = client.post("/api/transcripts", data=raw, content_type=content_type)
    page = client.get(transcript_path(response, "api"))
    assert "hello there" in soup(page).get_text(" ")


@pytest.mark.parametrize("content_type", ["application/json", "text/plain", "application/octet-stream"])
def test_the_form_refuses_a_body_that_is_not_a_form(client, content_type):
    response = client.post("/transcripts", data=json.dumps({"text": SHOWN.decode()}), content_type=content_type)
    assert_clear_refusal(response, "form", 415, "POST /api/transcripts")


def test_a_broken_multipart_form_is_a_400_page(client):
    response = client.post("/transcripts", data=b"no parts here", content_type="multipart/form-data; boundary=x")
    assert_clear_refusal(response, "form", 400, "empty")
