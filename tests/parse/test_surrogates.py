"""Lone surrogates (from JSON escapes or a caller's str) never reach the model: they become U+FFFD."""
from __future__ import annotations

import json

from viewer import parse


def test_a_lone_surrogate_from_a_json_escape_becomes_a_replacement_character():
    text = json.dumps({"messages": [{"role": "user", "content": "a \ud800 b", "name": "x\udfff"}],
                       "model": "m\ud801"})
    transcript = parse(text)
    message = transcript.messages[0]
    assert message.content == "a \ufffd b" and message.name == "x\ufffd"
    assert transcript.header["model"] == "m\ufffd"
    assert [d.code for d in transcript.diagnostics] == ["W-LONE-SURROGATE"]
    json.dumps(transcript.to_json(), ensure_ascii=False).encode("utf-8")


def test_a_lone_surrogate_in_a_text_transcript_given_as_str_is_replaced_too():
    transcript = parse("<|start|>user<|message|>hi \ud800<|end|>")
    assert transcript.messages[0].content == "hi \ufffd"
    assert transcript.source.encode("utf-8")
    assert "W-LONE-SURROGATE" in [d.code for d in transcript.diagnostics]


def test_a_clean_transcript_is_returned_unchanged():
    text = json.dumps([{"role": "user", "content": "fine"}])
    assert [d.code for d in parse(text).diagnostics] == []
