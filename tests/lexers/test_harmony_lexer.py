"""The Harmony lexer gives each part of a gpt-oss transcript its own standard token kind."""
from __future__ import annotations

from pygments.token import Error, Keyword, Name, Operator, Punctuation, String, Text, Whitespace

from tests.lexers.lexing import kind, lex, text_of
from viewer.lexers import HarmonyLexer as H

CALL = ('<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json'
        '<|message|>{"location": "Porto"}<|call|>')
REPLY = "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>{\"temp\": 23}<|end|>"


def test_harmony_control_tokens_are_keywords():
    text = CALL + REPLY + "<|start|>assistant<|channel|>final<|message|>Sunny.<|return|>"
    for token in ("<|start|>", "<|channel|>", "<|constrain|>", "<|message|>", "<|call|>", "<|end|>", "<|return|>"):
        assert kind(H, text, token) is Keyword, token


def test_harmony_known_role_is_a_builtin_name():
    assert kind(H, "<|start|>developer<|message|>Be brief.<|end|>", "developer") is Name.Builtin


def test_harmony_unknown_role_is_still_a_role_name():
    assert kind(H, "<|start|>moderator<|message|>No personal data.<|end|>", "moderator") is Name.Builtin.Pseudo


def test_harmony_tool_author_is_a_role_name():
    assert kind(H, REPLY, "functions.get_weather") in Name.Builtin


def test_harmony_named_author_splits_role_and_name():
    tokens = lex(H, "<|start|>user:alice<|message|>Hi<|end|>")
    assert tokens[1:4] == [(Name.Builtin, "user"), (Punctuation, ":"), (Name.Variable, "alice")]


def test_harmony_recipient_in_start_header_is_an_attribute():
    text = "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    assert kind(H, text, "to") is Name.Attribute
    assert kind(H, text, "=") is Operator
    assert kind(H, text, "functions.f") is String


def test_harmony_recipient_after_channel_is_an_attribute():
    assert kind(H, CALL, "to") is Name.Attribute
    assert kind(H, CALL, "functions.get_weather") is String


def test_harmony_recipient_glued_to_constrain_is_an_attribute():
    text = "<|start|>assistant<|channel|>commentary to=functions.f<|constrain|>json<|message|>{}<|call|>"
    assert kind(H, text, "functions.f") is String
    assert kind(H, text, "json") is Name.Constant


def test_harmony_channels_share_one_kind():
    text = "".join(f"<|start|>assistant<|channel|>{channel}<|message|>x<|end|>"
                   for channel in ("analysis", "commentary", "final", "summary"))
    assert {kind(H, text, channel) for channel in ("analysis", "commentary", "final", "summary")} == {Keyword.Type}


def test_harmony_constrained_content_type_is_a_type():
    assert kind(H, CALL, "json") is Name.Constant


def test_harmony_bare_content_type_after_channel_is_a_type():
    assert kind(H, "<|start|>assistant to=python<|channel|>analysis code<|message|>print(1)<|call|>", "code") \
        is Name.Constant


def test_harmony_json_arguments_are_lexed_as_json():
    assert kind(H, CALL, '"location"') is Name.Tag  # Pygments' JSON lexer marks object keys as tags
    assert kind(H, CALL, '"Porto"') is String.Double


def test_harmony_arguments_to_a_tool_are_json_without_a_constraint():
    text = "<|start|>assistant to=browser.search<|channel|>analysis<|message|>{\"query\": \"rain\"}<|call|>"
    assert kind(H, text, '"query"') is Name.Tag


def test_harmony_tool_reply_body_stays_text():
    assert kind(H, REPLY, '{"temp": 23}') is Text


def test_harmony_message_body_is_text():
    text = "<|start|>user<|message|>How's the weather?\nAnd the air?<|end|>"
    assert kind(H, text, "How's the weather?\nAnd the air?") is Text


def test_harmony_tool_namespace_in_developer_message_is_body_text():
    text = "<|start|>developer<|message|># Tools\nnamespace functions {\ntype f = (_: {x: string}) => any;\n}<|end|>"
    assert "namespace functions {" in text_of(H, text, Text)
    assert not [token for token, _ in lex(H, text) if token in Error]


def test_harmony_start_inside_body_begins_a_new_message():
    text = "<|start|>assistant<|channel|>final<|message|>Like this:\n<|start|>user<|message|>Hi<|end|>"
    assert kind(H, text, "<|start|>", nth=1) is Keyword
    assert kind(H, text, "user") is Name.Builtin


def test_harmony_completion_starting_at_channel_reads_the_header():
    text = "<|channel|>analysis<|message|>Think.<|end|>"
    assert kind(H, text, "analysis") is Keyword.Type
    assert kind(H, text, "Think.") is Text


def test_harmony_completion_starting_with_a_recipient_reads_the_header():
    text = ' to=functions.get_weather<|channel|>commentary json<|message|>{"location": "Tokyo"}<|call|>'
    assert kind(H, text, "to") is Name.Attribute
    assert kind(H, text, '"location"') is Name.Tag


def test_harmony_cot_markers_are_pseudo_keywords():
    text = "<|start|>assistant<|channel|>analysis<|message|><|start_reason|>13 x 17<|end_reason|><|end|>"
    assert kind(H, text, "<|start_reason|>") is Keyword.Pseudo
    assert kind(H, text, "<|end_reason|>") is Keyword.Pseudo
    assert kind(H, text, "<|end|>") is Keyword


def test_harmony_other_special_tokens_in_a_body_are_text():
    assert "<|endoftext|>" in text_of(H, "<|start|>user<|message|>a<|endoftext|>b<|end|>", Text)


def test_harmony_generation_prompt_ends_inside_a_header():
    tokens = lex(H, "<|start|>user<|message|>Hi<|end|><|start|>assistant")
    assert tokens[-1] == (Name.Builtin, "assistant")


def test_harmony_header_spacing_is_whitespace():
    assert kind(H, CALL, " ") is Whitespace


def test_harmony_text_between_messages_is_text():
    text = "<|start|>user<|message|>Ping?<|end|>\n(copied from the log)\n<|start|>user<|message|>x<|end|>"
    assert kind(H, text, "\n(copied from the log)\n") is Text
