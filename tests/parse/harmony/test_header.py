"""One Harmony message header: roles, channels, attributes and content types, in every shape producers write."""
from __future__ import annotations

import pytest

from tests.parse.harmony.helpers import only, read
from tests.parse.helpers import codes


# --- headers --------------------------------------------------------------------------------------------------

def test_attributes_in_the_start_header_are_read_in_any_order():
    m = only(read("<|start|>assistant intent=status content_type=markdown name=bot call_id=c1 to=functions.f"
                  "<|channel|>commentary<|message|>x<|end|>"))
    assert (m.role, m.recipient, m.call_id, m.name, m.intent, m.content_type, m.constrained) == (
        "assistant", "functions.f", "c1", "bot", "status", "markdown", False)


def test_attributes_after_the_channel_are_read():
    m = only(read("<|start|>assistant<|channel|>commentary to=functions.f intent=preamble call_id=c2<|message|>x<|end|>"))
    assert (m.recipient, m.intent, m.call_id, m.channel) == ("functions.f", "preamble", "c2", "commentary")


def test_a_lone_intent_attribute_is_not_a_recipient():
    m = only(read("<|start|>assistant intent=preamble<|channel|>commentary<|message|>Plan<|end|>"))
    assert (m.intent, m.recipient) == ("preamble", None)


@pytest.mark.parametrize("header, constrained", [
    ("assistant to=functions.f<|channel|>commentary json", False),
    ("assistant to=functions.f<|channel|>commentary <|constrain|>json", True),
    ("assistant<|channel|>commentary to=functions.f <|constrain|>json", True),
    ("assistant<|channel|>commentary to=functions.f<|constrain|>json", True),
    ("assistant to=functions.f<|channel|>commentary<|constrain|> json", True),
])
def test_every_header_shape_of_harmony_gives_the_same_call(header, constrained):
    t = read(f"<|start|>{header}<|message|>{{}}<|call|>")
    m = only(t)
    assert (m.role, m.recipient, m.channel, m.content_type, m.constrained, m.end) == (
        "assistant", "functions.f", "commentary", "json", constrained, "call")
    assert codes(t) == []


def test_content_type_attribute_is_an_unconstrained_hint():
    m = only(read("<|start|>assistant content_type=json<|channel|>final<|message|>x<|end|>"))
    assert (m.content_type, m.constrained) == ("json", False)


@pytest.mark.parametrize("author", ["functions.get_weather", "browser.search", "python"])
def test_a_tool_author_followed_by_more_words_is_role_tool_with_its_name(author):
    m = only(read(f"<|start|>{author} to=assistant<|channel|>commentary<|message|>{{}}<|end|>"))
    assert (m.role, m.name, m.recipient) == ("tool", author, "assistant")


@pytest.mark.parametrize("author", ["functions.get_weather", "browser.open"])
def test_a_functions_or_browser_author_alone_is_role_tool(author):
    m = only(read(f"<|start|>{author}<|message|>{{}}<|end|>"))
    assert (m.role, m.name) == ("tool", author)


def test_tool_role_takes_its_name_from_the_name_attribute():
    m = only(read("<|start|>tool name=functions.x call_id=a<|channel|>commentary<|message|>{}<|end|>"))
    assert (m.role, m.name, m.call_id) == ("tool", "functions.x", "a")


def test_role_with_colon_names_the_author():
    m = only(read("<|start|>user:alice<|message|>Hello<|end|>"))
    assert (m.role, m.name) == ("user", "alice")


def test_unknown_role_is_kept_as_written_with_a_warning_on_the_word():
    text = "<|start|>moderator<|message|>Be nice.<|end|>"
    t = read(text)
    assert only(t).role == "moderator"
    (diagnostic,) = t.diagnostics
    assert (diagnostic.code, diagnostic.severity, diagnostic.span) == ("W-UNKNOWN-ROLE", "warning", (9, 18))


def test_unknown_channel_is_kept_as_written_with_a_warning():
    t = read("<|start|>assistant<|channel|>summary<|message|>x<|end|>")
    assert only(t).channel == "summary"
    assert codes(t) == ["W-UNKNOWN-CHANNEL"]
    assert t.diagnostics[0].span == (29, 36)


def test_a_message_without_channel_reads_as_final_not_explicit():
    m = only(read("<|start|>assistant<|message|>Hello<|end|>"))
    assert (m.channel, m.channel_explicit) == ("final", False)


@pytest.mark.parametrize(("header", "role", "content_type", "constrained"), [
    ("assistant to=functions.f json", "assistant", "json", False),
    ("functions.f to=assistant code", "tool", "code", False),
    ("functions.f to=assistant <|constrain|>json", "tool", "json", True),
])
def test_a_content_type_after_the_recipient_of_a_message_without_channel_is_read(header, role, content_type,
                                                                                 constrained):
    # openai-harmony writes the content type there when a message has no channel
    t = read(f"<|start|>{header}<|message|>x<|end|>")
    m = only(t)
    assert (m.role, m.content_type, m.constrained, m.channel_explicit) == (role, content_type, constrained, False)
    assert codes(t) == []


@pytest.mark.parametrize("header", [
    "assistant<|channel|><|message|>",                       # channel token without a name
    "assistant to=f json md<|message|>",                     # two bare words after the recipient
    "assistant json to=f<|message|>",                        # a bare word before the recipient
    "assistant<|channel|>final<|channel|>analysis<|message|>",  # two channels
    "assistant json<|channel|>final<|message|>",             # bare word after the role
    "assistant to=a<|channel|>final to=b<|message|>",        # two different recipients
    "assistant to=<|channel|>final<|message|>",              # empty value
    "<|channel|>final<|message|>",                           # no role
    "assistant<|channel|>final<|constrain|><|message|>",     # constrain without a type
])
def test_malformed_headers_are_e_parse_header_and_the_message_is_kept(header):
    t = read(f"<|start|>{header}x<|end|>")
    assert "E-PARSE-HEADER" in codes(t)
    assert only(t).content == "x"


def test_unknown_attributes_are_ignored():
    t = read("<|start|>assistant priority=high<|channel|>final<|message|>x<|end|>")
    assert codes(t) == []
