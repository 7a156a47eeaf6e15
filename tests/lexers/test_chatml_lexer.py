"""The ChatML lexer: envelopes, OpenChatML 0.1 tokens, and the tags real chat templates put in bodies."""
from __future__ import annotations

from pygments.token import Keyword, Name, Operator, String, Text, Whitespace

from tests.lexers.lexing import kind, lex, text_of
from viewer.lexers import ChatMLLexer as C

TURN = "<|im_start|>user name=Eric\nHello there, AI.\n<|im_end|>\n"


def test_chatml_envelope_tokens_are_keywords():
    assert kind(C, TURN, "<|im_start|>") is Keyword
    assert kind(C, TURN, "<|im_end|>") is Keyword


def test_chatml_known_role_is_a_builtin_name():
    assert kind(C, TURN, "user") is Name.Builtin


def test_chatml_unknown_role_is_still_a_role_name():
    assert kind(C, "<|im_start|>narrator\nThe lights flicker.\n<|im_end|>", "narrator") is Name.Builtin.Pseudo


def test_chatml_name_is_an_attribute_with_a_string_value():
    assert kind(C, TURN, "name") is Name.Attribute
    assert kind(C, TURN, "=") is Operator
    assert kind(C, TURN, "Eric") is String


def test_chatml_header_line_break_ends_the_header_even_with_crlf():
    assert kind(C, "<|im_start|>user\r\nHi\r\n<|im_end|>", "\r\n") is Whitespace
    assert kind(C, "<|im_start|>user\r\nHi\r\n<|im_end|>", "Hi\r\n") is Text


def test_chatml_malformed_header_words_are_plain_text():
    text = "<|im_start|>assistant name = Helper\nHi\n<|im_end|>"
    assert kind(C, text, "Helper") is Text
    assert kind(C, text, "name") is Text


def test_chatml_message_body_is_text():
    assert kind(C, TURN, "Hello there, AI.\n") is Text


def test_chatml_frame_tokens_are_keywords_outside_messages():
    text = "[BOS]<s>\n" + TURN + "</s>[EOS]"
    for token in ("[BOS]", "<s>", "</s>", "[EOS]"):
        assert kind(C, text, token) is Keyword, token


def test_chatml_strikethrough_in_a_body_is_text():
    assert "<s>old</s>" in text_of(C, "<|im_start|>user\nIt is <s>old</s> news\n<|im_end|>", Text)


def test_chatml_eos_inside_a_body_closes_it():
    tokens = lex(C, "<|im_start|>assistant\nDone.[EOS]tail")
    assert (Keyword, "[EOS]") in tokens and tokens[-1] == (Text, "tail")


def test_chatml_start_inside_a_body_begins_a_new_message():
    text = "<|im_start|>user\nWhat is 2 + 2?\n<|im_start|>assistant\n4\n<|im_end|>"
    assert kind(C, text, "<|im_start|>", nth=1) is Keyword
    assert kind(C, text, "assistant") is Name.Builtin


def test_chatml_think_tags_are_tags_and_the_reasoning_is_text():
    text = "<|im_start|>assistant\n<think>\nShort question.\n</think>\n\nFour.<|im_end|>"
    assert kind(C, text, "<think>") is Name.Tag
    assert kind(C, text, "</think>") is Name.Tag
    assert kind(C, text, "\nShort question.\n") is Text


def test_chatml_closing_think_without_an_opening_is_a_tag():
    assert kind(C, "<|im_start|>assistant\nreasoning</think>\n\nAnswer<|im_end|>", "</think>") is Name.Tag


def test_chatml_tool_call_is_a_tag_around_json():
    text = ('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n'
            '</tool_call><|im_end|>')
    assert kind(C, text, "<tool_call>") is Name.Tag
    assert kind(C, text, "</tool_call>") is Name.Tag
    assert kind(C, text, '"arguments"') is Name.Tag  # a JSON key, from Pygments' JSON lexer
    assert kind(C, text, '"Oslo"') is String.Double


def test_chatml_unclosed_tool_call_ends_with_the_message():
    tokens = lex(C, '<|im_start|>assistant\n<tool_call>\n{"name": "f"<|im_end|>\n<|im_start|>user\nHi')
    assert (Keyword, "<|im_end|>") in tokens and (Name.Builtin, "user") in tokens


def test_chatml_tools_block_is_json():
    text = '<|im_start|>system\n<tools>\n{"type": "function", "function": {"name": "f"}}\n</tools><|im_end|>'
    assert kind(C, text, "<tools>") is Name.Tag
    assert kind(C, text, '"type"') is Name.Tag  # a JSON key


def test_chatml_tool_response_tags_are_tags():
    text = "<|im_start|>user\n<tool_response>\nsunny\n</tool_response><|im_end|>"
    assert kind(C, text, "<tool_response>") is Name.Tag
    assert kind(C, text, "\nsunny\n") is Text


def test_chatml_function_call_arguments_are_json():
    text = '<|im_start|>assistant\n<|function_call|>\n{"arguments": {"symbol": "TSLA"}, "name": "f"}\n<|im_end|>'
    assert kind(C, text, "<|function_call|>") is Keyword
    assert kind(C, text, '"TSLA"') is String.Double


def test_chatml_function_list_is_json_and_the_prose_after_it_text():
    text = '<|im_start|>system\n<|function_list|>\n{"name": "f"}\n\nUse the following schema.\n<|im_end|>'
    assert kind(C, text, '"name"') is Name.Tag
    assert kind(C, text, "\n\nUse the following schema.\n") is Text


def test_chatml_thought_tokens_are_pseudo_keywords():
    text = "<|im_start|>assistant\n<|start_reason|>13 x 17<|end_reason|>\n<|im_end|>"
    assert kind(C, text, "<|start_reason|>") is Keyword.Pseudo
    assert kind(C, "<|im_start|>system\nBe brief.<|reason|><|im_end|>", "<|reason|>") is Keyword.Pseudo


def test_chatml_fill_in_the_middle_tokens_are_keywords():
    text = "<|fim_prefix|>def f():\n    <|fim_middle|><|fim_suffix|>\n    return 1\n<|file_separator|>\nnext"
    for token in ("<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|file_separator|>"):
        assert kind(C, text, token) is Keyword, token
    assert kind(C, text, "def f():\n    ") is Text


def test_chatml_token_quoted_in_prose_is_text():
    text = "<|im_start|>system\nJSON follows the `<|function_list|>` tag.\n<|im_end|>"
    assert kind(C, text, "`<|function_list|>`") is Text


def test_chatml_unknown_special_token_is_text():
    assert "<|endoftext|>" in text_of(C, "<|im_start|>assistant\nBye<|endoftext|><|im_end|>", Text)
