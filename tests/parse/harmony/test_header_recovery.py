"""A header that never reaches <|message|> keeps its loose text as the body, as openai-harmony's non-strict
parser does, with a warning instead of dropping the text."""
from __future__ import annotations

import pytest

from tests.parse.harmony.helpers import read
from tests.parse.helpers import assert_accounted_for, codes


def test_loose_text_after_the_channel_is_the_body_when_message_never_came():
    text = "<|start|>user<|message|>Hi<|end|><|start|>assistant<|channel|>final I cannot help with that.<|end|>"
    t = read(text)
    m = t.messages[1]
    assert (m.role, m.channel, m.content, m.end, m.content_type) == (
        "assistant", "final", "I cannot help with that.", "end", None)
    assert codes(t) == ["W-HEADER-BODY-RECOVERED"]
    assert t.diagnostics[0].span == (text.index("I cannot"), text.index("<|end|>", 40))
    assert_accounted_for(t, text)


def test_attributes_before_the_loose_text_stay_in_the_header():
    t = read("<|start|>assistant<|channel|>commentary to=functions.f Looking it up now<|call|>")
    m = t.messages[0]
    assert (m.recipient, m.channel, m.content, m.end) == ("functions.f", "commentary", "Looking it up now", "call")


def test_loose_text_after_the_role_is_the_body_of_a_message_without_a_channel():
    t = read("<|start|>assistant Sure, here it is.<|return|>")
    assert (t.messages[0].channel, t.messages[0].content) == ("final", "Sure, here it is.")


def test_loose_text_cut_by_the_end_of_input_is_recovered_and_truncated():
    t = read("<|start|>assistant<|channel|>final I can")
    assert t.messages[0].content == "I can" and t.messages[0].end == "eof"
    assert codes(t) == ["W-HEADER-BODY-RECOVERED", "E-STREAM-TRUNCATED"]


@pytest.mark.parametrize("text", [
    "<|start|>assistant<|channel|>final<|end|>",                 # nothing loose: an empty message, as before
    "<|start|>assistant to=functions.f<|channel|>commentary",     # cut inside an attribute-only header
])
def test_a_header_without_loose_text_still_reports_the_missing_message(text):
    t = read(text)
    assert t.messages[0].content == "" and "E-PARSE-HEADER" in codes(t)


def test_a_recovered_body_is_hidden_or_shown_by_its_channel_like_any_other():
    from viewer import policy

    t = read("<|start|>assistant<|channel|>analysis secret plan<|end|>"
             "<|start|>assistant<|channel|>final The answer.<|return|>")
    assert [d.show_as for d in policy.Projection.of(t).decisions()] == ["hidden", "message"]
