"""ChatML / OpenChatML 0.1 envelopes: frame tokens, headers, turns, broken envelopes, and any input."""
from __future__ import annotations

from hypothesis import given, strategies as st

from tests.parse.chatml.helpers import WEATHER_TOOL, chatml
from tests.parse.helpers import assert_accounted_for, codes, only
from viewer.parse import ParseOptions, parse
from viewer.parse.chatml import parse_chatml


# -- frame ------------------------------------------------------------------------------------------------


def test_angle_bracket_bos_and_eos_are_frame_segments_not_messages():
    text = "<s>\n<|im_start|>user\nHi\n<|im_end|>\n</s>"
    transcript = chatml(text)
    assert [(s.kind, s.text, s.span) for s in transcript.frame] == [("bos", "<s>", (0, 3)), ("eos", "</s>", (35, 39))]
    assert [m.content for m in transcript.messages] == ["Hi"]


def test_bracket_bos_and_eos_are_frame_segments():
    transcript = chatml("[BOS]<|im_start|>user\nHi<|im_end|>[EOS]")
    assert [s.kind for s in transcript.frame] == ["bos", "eos"]
    assert transcript.diagnostics == ()


def test_llama_begin_and_end_of_text_are_frame_segments():
    transcript = chatml("<|begin_of_text|><|im_start|>user\nHi<|im_end|><|end_of_text|>")
    assert [(s.kind, s.text) for s in transcript.frame] == [("bos", "<|begin_of_text|>"), ("eos", "<|end_of_text|>")]


def test_strikethrough_tags_inside_a_body_stay_content():
    transcript = chatml("<|im_start|>assistant\nThe price is <s>10</s> 8 euros.\n<|im_end|>")
    assert transcript.messages[0].content == "The price is <s>10</s> 8 euros."
    assert transcript.frame == ()


# -- envelopes --------------------------------------------------------------------------------------------


def test_header_gives_role_name_and_header_span():
    text = "<|im_start|>user name=Eric\nHello there, AI.\n<|im_end|>"
    message = chatml(text).messages[0]
    assert (message.role, message.name, message.channel, message.end) == ("user", "Eric", "final", "end")
    assert message.header == (0, 26)
    assert message.span == (0, len(text))


def test_body_leaves_out_the_header_line_break_and_one_line_break_before_im_end():
    message = chatml("<|im_start|>user\n\nHello\n\n<|im_end|>").messages[0]
    assert message.content == "\nHello\n"


def test_crlf_around_the_body_belongs_to_the_tokens_and_crlf_inside_is_kept():
    message = chatml("<|im_start|>user\r\nline one\r\nline two\r\n<|im_end|>\r\n").messages[0]
    assert message.content == "line one\r\nline two"
    assert message.header == (0, 16)


def test_header_ends_at_a_token_when_no_line_break_comes_first():
    transcript = chatml('<|im_start|>assistant<|function_call|>{"arguments": {}, "name": "f"}<|im_end|>')
    assert transcript.messages[0].role == "assistant"
    assert transcript.messages[0].recipient == "functions.f"
    assert "E-PARSE-HEADER" not in codes(transcript)


def test_unknown_role_is_kept_as_written_with_a_warning():
    transcript = chatml("<|im_start|>narrator\nThe room falls silent.\n<|im_end|>")
    assert transcript.messages[0].role == "narrator"
    diagnostic = only(transcript, "W-UNKNOWN-ROLE")
    assert (diagnostic.severity, diagnostic.span, diagnostic.message_index) == ("warning", (0, 20), 0)


def test_header_without_role_is_a_parse_header_error():
    transcript = chatml("<|im_start|>\nWho am I?\n<|im_end|>")
    assert transcript.messages[0].role == ""
    assert only(transcript, "E-PARSE-HEADER").severity == "error"


def test_other_header_attribute_is_a_parse_header_error():
    transcript = chatml("<|im_start|>user name=Eric mood=curious\nHi\n<|im_end|>")
    assert transcript.messages[0].name == "Eric"
    assert "mood=curious" in only(transcript, "E-PARSE-HEADER").message


def test_name_with_spaces_around_the_equals_sign_is_a_parse_header_error():
    transcript = chatml("<|im_start|>assistant name = Helper\nHi\n<|im_end|>")
    assert transcript.messages[0].name is None
    only(transcript, "E-PARSE-HEADER")


def test_empty_name_is_a_parse_header_error():
    transcript = chatml("<|im_start|>user name=\nHi\n<|im_end|>")
    assert "no value" in only(transcript, "E-PARSE-HEADER").message


def test_second_name_is_a_parse_header_error_and_the_first_one_wins():
    transcript = chatml("<|im_start|>user name=Ann name=Bob\nHi\n<|im_end|>")
    assert transcript.messages[0].name == "Ann"
    only(transcript, "E-PARSE-HEADER")


def test_turn_is_the_index_of_the_envelope():
    text = "<|im_start|>user\nA<|im_end|>\n<|im_start|>assistant\nB<|im_end|>\n<|im_start|>user\nC<|im_end|>"
    assert [m.turn for m in chatml(text).messages] == [0, 1, 2]


def test_spaces_after_im_end_and_blank_lines_between_messages_are_fine():
    text = "<|im_start|>user\nA\n<|im_end|>  \n\n<|im_start|>assistant\nB\n<|im_end|>  \n"
    assert codes(chatml(text)) == []


def test_empty_body_gives_one_empty_message():
    message = chatml("<|im_start|>assistant\n<|im_end|>").messages[0]
    assert (message.content, message.span) == ("", (0, 32))


# -- broken envelopes -------------------------------------------------------------------------------------


def test_missing_im_end_at_the_end_of_input_is_truncated():
    text = "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nSoft rain on\n"
    transcript = chatml(text)
    assert (transcript.messages[1].end, transcript.messages[1].content) == ("eof", "Soft rain on")
    diagnostic = only(transcript, "E-STREAM-TRUNCATED")
    assert (diagnostic.severity, diagnostic.span, diagnostic.message_index) == ("error", (30, len(text)), 1)


def test_truncation_of_a_split_turn_belongs_to_its_last_message():
    text = "<|im_start|>assistant\n<|start_reason|>x<|end_reason|>\nThe answ"
    transcript = chatml(text)
    assert [m.end for m in transcript.messages] == ["end", "eof"]
    assert only(transcript, "E-STREAM-TRUNCATED").message_index == 1


def test_truncated_call_keeps_end_call():
    transcript = chatml('<|im_start|>assistant\n<|function_call|>{"arguments": {}, "name": "f"}')
    assert transcript.messages[0].end == "call"
    only(transcript, "E-STREAM-TRUNCATED")


def test_im_start_inside_an_open_body_closes_it_and_starts_the_next():
    text = "<|im_start|>user\nWhat is 2 + 2?\n<|im_start|>assistant\n4<|im_end|>"
    transcript = chatml(text)
    first, second = transcript.messages
    assert (first.end, first.content, first.span) == ("eof", "What is 2 + 2?", (0, 32))
    assert (second.role, second.content, second.turn) == ("assistant", "4", 1)
    diagnostic = only(transcript, "W-START-IN-BODY")
    assert (diagnostic.span, diagnostic.message_index) == ((32, 44), 0)


def test_bos_inside_an_open_body_closes_it_too():
    transcript = chatml("<|im_start|>user\nHi\n[BOS]<|im_start|>user\nAgain<|im_end|>")
    assert [m.end for m in transcript.messages] == ["eof", "end"]
    assert [s.kind for s in transcript.frame] == ["bos"]
    only(transcript, "W-START-IN-BODY")


def test_eos_inside_an_open_body_ends_the_message_with_a_warning():
    transcript = chatml("<|im_start|>assistant\nBye.[EOS]")
    assert [(m.content, m.end) for m in transcript.messages] == [("Bye.", "end")]
    assert [s.kind for s in transcript.frame] == ["eos"]
    assert only(transcript, "W-EOS-IN-BODY").span == (26, 31)


def test_stray_text_between_messages_is_reported_with_its_span():
    text = "<|im_start|>user\nHi<|im_end|>\n(copied from the web UI)\n<|im_start|>assistant\nHello<|im_end|>"
    transcript = chatml(text)
    diagnostic = only(transcript, "W-STRAY-TEXT")
    assert text[slice(*diagnostic.span)] == "(copied from the web UI)"
    assert len(transcript.messages) == 2


def test_thought_tokens_outside_messages_without_fim_are_stray_text():
    transcript = chatml("<|start_reason|>loose thought<|end_reason|>")
    assert transcript.messages == ()
    assert only(transcript, "W-STRAY-TEXT").span == (0, 43)


def test_im_end_that_closes_nothing_is_stray_text():
    transcript = chatml("<|im_start|>user\nHi<|im_end|>\n<|im_end|>")
    assert only(transcript, "W-STRAY-TEXT").span == (30, 40)


def test_primed_role_reads_text_before_any_envelope_as_that_role():
    transcript = chatml("<|start_reason|>x<|end_reason|>\nThe answer.<|im_end|>", primed_role="assistant")
    assert [(m.role, m.channel, m.content) for m in transcript.messages] == [
        ("assistant", "analysis", "x"), ("assistant", "final", "The answer.")]
    assert transcript.messages[0].header is None


def test_deeply_nested_json_is_a_diagnostic_not_an_exception():
    deep = "[" * 100_000
    transcript = chatml(f"<|im_start|>assistant\n<|function_call|>{deep}<|im_end|>")
    only(transcript, "E-CALL-SCHEMA")


def test_parser_alone_reports_dialect_chatml_and_source():
    transcript = parse_chatml("<|im_start|>user\nHi<|im_end|>", ParseOptions())
    assert (transcript.dialect, transcript.source) == ("chatml", "<|im_start|>user\nHi<|im_end|>")


def test_bracket_bos_file_is_detected_as_chatml():
    assert parse("[BOS]<|im_start|>user\nHi<|im_end|>[EOS]").dialect == "chatml"


# -- every character accounted for ------------------------------------------------------------------------

CHATML_TOKENS = ["<|im_start|>", "<|im_end|>", "<s>", "</s>", "[BOS]", "[EOS]", "<|begin_of_text|>",
                 "<|end_of_text|>", "<|reflect|>", "<|start_reflect|>", "<|end_reflect|>", "<|start_reason|>",
                 "<|end_reason|>", "<|function_list|>", "<|function_call|>", "<|function_output|>",
                 "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|file_separator|>", "`", "assistant",
                 "tool", "system", "user", " name=x", "\n", "\r\n", " ", '{"arguments": {}, "name": "f"}',
                 '{"name": "f", "content": 1}', WEATHER_TOOL, "{", "[", '"',
                 # Tags of real chat templates (Qwen3, QwQ, DeepSeek-R1, Hermes, Qwen2.5)
                 "<think>", "</think>", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>",
                 "<tools>", "</tools>", '{"name": "f", "arguments": {}}']

chatml_text = st.lists(st.one_of(st.sampled_from(CHATML_TOKENS), st.text(max_size=6)), max_size=40).map("".join)


@given(chatml_text)
def test_any_chatml_token_soup_is_accounted_for_with_turns_in_order(text):
    transcript = chatml(text)
    assert_accounted_for(transcript, transcript.source)
    spans = [message.span for message in transcript.messages]
    assert all(earlier[1] <= later[0] for earlier, later in zip(spans, spans[1:]))
    for message in transcript.messages:
        assert all(message.span[0] <= s.span[0] <= s.span[1] <= message.span[1] for s in message.segments)
