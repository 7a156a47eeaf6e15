"""A primed completion (`--primed-role assistant`) whose header never reaches `<|message|>` is read as
openai-harmony's non-strict `StreamableParser` reads it: the channel is kept and the text after it is the
content. The cases are openai-harmony's own tests (`test_streamable_parser_missing_message_token*`,
`test_missing_message_token_requires_non_strict_mode`) and a few of the same kind, with the messages the PyPI
package read from them (tests/reference/openai-harmony/missing_message.json, written by
tests/harness/harmony_reference.py; openai-harmony is not needed to run these tests)."""
from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT
from tests.parse.helpers import assert_accounted_for, codes
from viewer.model import Message
from viewer.parse import parse

REFERENCE = json.loads((ROOT / "tests" / "reference" / "openai-harmony" / "missing_message.json").read_text("utf-8"))
CASES = {case["name"]: case for case in REFERENCE["cases"]}


def as_reference(message: Message) -> dict:
    """Our message in openai-harmony's terms: no implied channel, a binding content type spelled with its token."""
    content_type = message.content_type
    if content_type and message.constrained:
        content_type = f"<|constrain|>{content_type}"
    return {"role": message.role, "name": message.name, "channel": message.channel if message.channel_explicit else None,
            "recipient": message.recipient, "content_type": content_type, "content": message.content}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_primed_completion_reads_as_openai_harmonys_non_strict_parser_reads_it(name):
    case = CASES[name]
    transcript = parse(case["text"], "harmony", primed_role="assistant")
    assert [as_reference(message) for message in transcript.messages] == case["messages"]
    assert_accounted_for(transcript, case["text"])


@pytest.mark.parametrize(("name", "loose"), [
    ("missing_message_token_other_initial_headers", "I must refuse"),
    ("missing_message_token_requires_non_strict_mode", "Hello"),
    ("final_channel_then_return", "I cannot help with that."),
    ("commentary_then_a_full_message", "Looking it up now."),
])
def test_the_header_without_message_is_reported_where_the_recovered_text_is(name, loose):
    text = CASES[name]["text"]
    transcript = parse(text, "harmony", primed_role="assistant")
    recovered = [d for d in transcript.diagnostics if d.code == "W-HEADER-BODY-RECOVERED"]
    assert [text[slice(*d.span)] for d in recovered] == [loose]
    assert "never reaches <|message|>" in recovered[0].message and recovered[0].message_index == 0
    assert "E-PARSE-HEADER" not in codes(transcript)


def test_a_primed_header_that_reaches_message_is_not_reported():
    transcript = parse(CASES["a_full_primed_header"]["text"], "harmony", primed_role="assistant")
    assert codes(transcript) == []


def test_attributes_before_the_loose_text_stay_in_the_primed_header():
    # openai-harmony would make "to=functions.f Looking" the content; the recipient is kept as one here
    transcript = parse("<|channel|>commentary to=functions.f Looking it up<|call|>", "harmony", primed_role="assistant")
    message = transcript.messages[0]
    assert (message.channel, message.recipient, message.content) == ("commentary", "functions.f", "Looking it up")
    assert "W-HEADER-BODY-RECOVERED" in codes(transcript)


def test_a_primed_header_cut_short_without_loose_text_is_still_an_error():
    transcript = parse("<|channel|>commentary to=functions.f", "harmony", primed_role="assistant")
    assert transcript.messages[0].content == "" and "E-PARSE-HEADER" in codes(transcript)
