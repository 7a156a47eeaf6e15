"""The fail-closed rule, part by part: what the importer cannot positively classify as visible is its own
message, hidden by the policy, kept for the debug view and named by a diagnostic; media are placeholders whose
data never becomes text."""
from __future__ import annotations

import json

import pytest

from tests.parse.helpers import only
from viewer.parse import parse
from viewer.parse.json.media import placeholder
from viewer.policy import Projection

NOT_RASTER = "not shown: not a PNG, JPEG, GIF or WebP image"
"""How a placeholder says its inline data is no image the viewer shows."""


def decided(messages):
    transcript = parse(json.dumps(messages), "json")
    return transcript, [(m.role, m.channel, d.show_as) for m, d in zip(transcript.messages, Projection.of(transcript).decisions())]


@pytest.mark.parametrize("role", ["user", "assistant", "tool", "system"])
def test_unknown_part_is_its_own_hidden_message_in_the_same_turn(role):
    transcript, decisions = decided([{"role": role, "content": [{"type": "text", "text": "hi"},
                                                                {"type": "hologram", "frames": 3}]}])
    hidden = transcript.messages[1]
    assert hidden.turn == transcript.messages[0].turn == 0
    assert decisions[1][1:] == ("hologram", "hidden")
    assert hidden.role == ("unknown" if role in ("user", "tool") else role)
    assert json.loads(hidden.content) == {"type": "hologram", "frames": 3}  # kept for the debug view
    diagnostic = only(transcript, "W-JSON-UNKNOWN-PART")
    assert "'hologram'" in diagnostic.message and diagnostic.message_index == 1


@pytest.mark.parametrize("kind", ["final", "commentary", "analysis", "", None, 7])
def test_an_unknown_type_never_names_a_channel_the_policy_shows(kind):
    _, decisions = decided([{"role": "assistant", "content": [{"type": kind, "text": 1}]}])
    assert decisions == [("assistant", "unknown", "hidden")]


def test_unknown_part_holds_no_opaque_data_in_its_body():
    transcript, _ = decided([{"role": "assistant", "content": [{"type": "audio_out", "data": "QUJDQUJD"}]}])
    assert "QUJDQUJD" not in transcript.messages[0].content


def test_reasoning_in_a_tool_reply_is_hidden_and_not_a_second_reply():
    transcript, decisions = decided([{"role": "tool", "name": "f", "reasoning_content": "why", "content": "1"}])
    assert decisions == [("unknown", "analysis", "hidden"), ("tool", "commentary", "marker")]


@pytest.mark.parametrize("kind, part, text", [
    ("image_url", {"image_url": {"url": "data:image/png;base64,QUJDRA=="}},
     f"[image: image/png, 4 bytes, sha256 e12e115acf45, {NOT_RASTER}]"),
    ("image_url", {"image_url": {"url": "https://e.com/a.png", "detail": "low"}}, "[image: https://e.com/a.png]"),
    ("input_image", {"file_id": "file-123"}, "[image: file file-123]"),
    ("input_image", {}, "[image]"),
    ("file", {"file": {"filename": "r.pdf", "file_data": "data:application/pdf;base64,QUJD"}},
     "[file: r.pdf, application/pdf, 3 bytes]"),
    ("document", {"source": {"type": "text", "media_type": "text/plain", "data": "hello"}},
     "[document: text/plain, 5 characters]"),
    ("input_audio", {"input_audio": {"data": "QUJD", "format": "wav"}}, "[audio: wav, 3 bytes]"),
    ("image", {"source": {"type": "base64", "media_type": "image/png]evil", "data": "QUJD"}},
     f"[image: 3 bytes, sha256 b5d4045c3f46, {NOT_RASTER}]"),
])
def test_media_placeholders_name_the_media_and_never_hold_the_data(kind, part, text):
    assert placeholder(kind, {"type": kind, **part}) == text


def test_a_user_s_image_placeholder_is_shown_but_not_its_data():
    transcript, decisions = decided([{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,SECRETDATA"}}]}])
    assert decisions == [("user", "final", "message")]
    assert "SECRETDATA" not in transcript.messages[0].content


def test_unknown_role_is_kept_hidden():
    transcript, decisions = decided([{"role": "critic", "content": "x"}])
    assert decisions == [("critic", "final", "hidden")]
    assert only(transcript, "W-UNKNOWN-ROLE")
