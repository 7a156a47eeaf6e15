"""Sessions read from a thin text (their big base64 payloads cut out: viewer/parse/thinning.py) store exactly what
the whole parse stores: the same rows of messages, diagnostics, pairs and images, at the file's offsets, lines and
columns; only a message's source (the debug view's source panel) says a payload is not shown there."""
from __future__ import annotations

import base64
import io
import json
import random

import pytest
from PIL import Image

from tests.conftest import SAMPLES
from viewer.parse import parse
from viewer.parse.thinning import thin
from viewer.policy import Projection
from viewer.store import rows

SOURCE = 15
"""The message rows' `source` column: a thin text's slice, its stand-ins said in words."""
BODY = slice(12, 15)
"""`body_start`, `body_end`, `content`: a body that was a slice of the source is spelled out when it held a cut."""


def noise_png(seed: int, side: int = 48) -> bytes:
    pixels = random.Random(seed).randbytes(side * side * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), pixels).save(out, "PNG")
    return out.getvalue()


def claude_lines(count: int) -> bytes:
    """A Claude Code session: typed text (not all ASCII), screenshots, a tool reply holding one, and a
    `toolUseResult` copy beside it that no reader reads (as Claude Code writes for an image it read)."""
    lines, parent = [], None
    for number in range(count):
        data = base64.b64encode(noise_png(number)).decode()
        uuid = f"u{number}"
        blocks = [{"type": "text", "text": f"Look at screen {number} ünïcode"},
                  {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}]
        lines.append({"parentUuid": parent, "type": "user", "uuid": uuid, "sessionId": "s1",
                      "timestamp": "2025-10-02T14:00:00Z", "message": {"role": "user", "content": blocks}})
        call = f"toolu_{number}"
        lines.append({"parentUuid": uuid, "type": "assistant", "uuid": f"a{number}", "sessionId": "s1",
                      "message": {"id": f"msg_{number}", "role": "assistant", "model": "claude-sonnet-4",
                                  "content": [{"type": "tool_use", "id": call, "name": "Read",
                                               "input": {"file_path": f"/tmp/s{number}.png"}}]}})
        lines.append({"parentUuid": f"a{number}", "type": "user", "uuid": f"r{number}", "sessionId": "s1",
                      "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call,
                                                               "content": [{"type": "image", "source": {
                                                                   "type": "base64", "media_type": "image/png",
                                                                   "data": data}}]}]},
                      "toolUseResult": {"type": "image", "file": {"base64": data, "type": "image/png"}}})
        parent = f"r{number}"
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()


def codex_lines(count: int) -> bytes:
    """A Codex rollout whose user messages carry screenshots as `input_image` data URLs (`/` written `\\/` in one)."""
    lines = [{"timestamp": "2025-10-02T14:00:00Z", "type": "session_meta",
              "payload": {"id": "r1", "timestamp": "2025-10-02T14:00:00Z", "cwd": "/w", "originator": "codex_cli_rs",
                          "cli_version": "0.46.0"}}]
    for number in range(count):
        url = "data:image/png;base64," + base64.b64encode(noise_png(100 + number)).decode()
        lines.append({"timestamp": "2025-10-02T14:00:01Z", "type": "response_item",
                      "payload": {"type": "message", "role": "user",
                                  "content": [{"type": "input_text", "text": f"What is wrong on screen {number}?"},
                                              {"type": "input_image", "image_url": url}]}})
        lines.append({"timestamp": "2025-10-02T14:00:02Z", "type": "response_item",
                      "payload": {"type": "message", "role": "assistant",
                                  "content": [{"type": "output_text", "text": f"Screen {number} is fine."}]}})
    text = "".join(json.dumps(line) + "\n" for line in lines)
    return text.replace("data:image/png;base64,", "data:image\\/png;base64,", 1).encode()


def stored_rows(projection: Projection) -> dict[str, list[tuple]]:
    transcript = projection.transcript
    return {"messages": list(rows.message_rows("t", projection, {})),
            "diagnostics": list(rows.diagnostic_rows("t", transcript)),
            "pairs": list(rows.pair_rows("t", transcript)),
            "media": list(rows.media_rows("t", projection))}


def without_source(row: tuple, cut: bool) -> tuple:
    return (*row[:BODY.start], *((None,) * 3 if cut else row[BODY]), *row[SOURCE + 1:])


def assert_same_as_whole(data: bytes, cut_from: int) -> int:
    """Parse `data` whole and thinned; the same rows but for the sources of messages that held a cut. Returns how
    many payloads were cut."""
    whole = Projection.of(parse(data))
    thinned = thin(io.BytesIO(data), thin_from=0, cut_from=cut_from)
    assert thinned is not None
    projection = Projection.of(thinned.parse())
    expected, found = stored_rows(whole), stored_rows(projection)
    assert found["diagnostics"] == expected["diagnostics"]
    assert found["pairs"] == expected["pairs"] and found["media"] == expected["media"]
    assert len(found["messages"]) == len(expected["messages"])
    for mine, theirs in zip(found["messages"], expected["messages"]):
        cut = "characters of base64, not shown here" in mine[SOURCE]
        assert without_source(mine, cut) == without_source(theirs, cut)
        if not cut:
            assert mine[SOURCE] == theirs[SOURCE]
    transcript, written = projection.transcript, whole.transcript
    assert [m.content for m in transcript.messages] == [m.content for m in written.messages]
    assert [m.media for m in transcript.messages] != [m.media for m in written.messages] or not thinned.cuts.cuts
    assert transcript.header == written.header and transcript.threads == written.threads
    assert [segment.kind for segment in transcript.frame] == [segment.kind for segment in written.frame]
    return len(thinned.cuts.cuts)


@pytest.mark.parametrize("name", ["claude-code-1.0-screenshots.jsonl", "claude-code-1.0-bugfix-mcp.jsonl",
                                  "claude-code-broken-cut-short.jsonl", "codex-0.46-rollout-shell-and-patch.jsonl",
                                  "codex-0.50-rollout-compacted-aborted.jsonl"])
def test_a_sample_session_stores_the_same_rows_thinned(name):
    cuts = assert_same_as_whole((SAMPLES / name).read_bytes(), cut_from=64)
    assert cuts > 0 or "screenshots" not in name


def test_a_generated_claude_code_session_of_screenshots_stores_the_same_rows_thinned():
    assert assert_same_as_whole(claude_lines(6), cut_from=1024) == 18  # the copy in toolUseResult too


def test_a_generated_codex_rollout_of_screenshots_stores_the_same_rows_thinned():
    assert assert_same_as_whole(codex_lines(5), cut_from=1024) == 5


def test_the_thin_text_holds_no_payload_and_names_each_image_as_the_whole_parse_does():
    data = claude_lines(3)
    thinned = thin(io.BytesIO(data), thin_from=0, cut_from=1024)
    assert len(thinned.text) < len(data) // 10
    shas = [media.sha256 for message in thinned.parse().messages for media in message.media]
    assert shas == [media.sha256 for message in parse(data).messages for media in message.media] and shas


def test_a_file_that_already_holds_the_stand_ins_mark_is_parsed_whole():
    data = claude_lines(1).replace("ünïcode".encode(), b"@@cut-0@@")
    assert thin(io.BytesIO(data), thin_from=0, cut_from=1024) is None


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf" + claude_lines(1), claude_lines(1) + b"\xff\n",
                                  b'<|start|>user<|message|>hi<|end|>' * 10])
def test_a_file_not_read_exactly_from_a_thin_text_is_parsed_whole(data):
    assert thin(io.BytesIO(data), thin_from=0, cut_from=1024) is None


def test_a_small_file_is_parsed_whole():
    assert thin(io.BytesIO(claude_lines(1)), cut_from=1024) is None


def test_only_image_payloads_that_are_values_of_their_own_are_cut():
    png = base64.b64encode(noise_png(7)).decode()
    opaque = base64.b64encode(random.Random(1).randbytes(3000)).decode()
    quoted = {"type": "user", "uuid": "q", "message": {"role": "user", "content": f'see "data": "{png}" here'}}
    redacted = {"type": "assistant", "uuid": "d", "message": {"id": "m", "role": "assistant", "content": [
        {"type": "redacted_thinking", "data": opaque}]}}
    extra = "".join(json.dumps(line) + "\n" for line in (quoted, redacted)).encode()
    thinned = thin(io.BytesIO(claude_lines(1) + extra), thin_from=0, cut_from=1024)
    assert len(thinned.cuts.cuts) == 3 and png in thinned.text and opaque in thinned.text


def test_a_payload_a_reader_takes_as_text_is_said_in_words_not_as_its_stand_in():
    png = base64.b64encode(noise_png(9)).decode()
    call = {"type": "assistant", "uuid": "c", "message": {"id": "m", "role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_x", "name": "Upload", "input": {"data": png}}]}}
    data = claude_lines(1) + (json.dumps(call) + "\n").encode()
    thinned = thin(io.BytesIO(data), thin_from=0, cut_from=1024)
    contents = [message.content for message in thinned.parse().messages]
    assert not any("@@cut-" in content for content in contents)
    assert any(f"[{len(png):,} characters of base64]" in content for content in contents)
