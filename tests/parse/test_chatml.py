"""ChatML / OpenChatML 0.1 parser: envelopes, thought structure, function calling, FIM and broken input."""
from __future__ import annotations

import json

from hypothesis import given, strategies as st

from tests.conftest import SAMPLES
from tests.test_parse_invariants import assert_accounted_for
from viewer.parse import parse
from viewer.parse.chatml import parse_chatml
from viewer.parse.options import ParseOptions

WEATHER_TOOL = ('{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.", '
                '"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}')


def chatml(text: str, **options):
    """The full pipeline (parser, shared checks, pairing) on ChatML text."""
    return parse(text, "chatml", **options)


def codes(transcript) -> list[str]:
    return [diagnostic.code for diagnostic in transcript.diagnostics]


def only(transcript, code: str):
    found = [diagnostic for diagnostic in transcript.diagnostics if diagnostic.code == code]
    assert len(found) == 1, transcript.diagnostics
    return found[0]


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


# -- thought flags and blocks -----------------------------------------------------------------------------


def test_thought_flags_become_flag_segments_and_leave_the_content():
    text = "<|im_start|>system\nBe helpful.<|reflect|><|introspect|><|reason|><|im_end|>"
    message = chatml(text).messages[0]
    assert message.content == "Be helpful."
    assert [(s.kind, s.text) for s in message.segments] == [
        ("text", "Be helpful."), ("flag", "reflect"), ("flag", "introspect"), ("flag", "reason")]
    assert message.segments[1].span == (30, 41)


def test_thought_blocks_become_analysis_messages_of_the_same_turn():
    text = ("<|im_start|>assistant name=Sage\n<|start_reflect|>Curious user.<|end_reflect|>\n"
            "<|start_reason|>Label says Band-Aid.<|end_reason|>\nBandages.<|im_end|>")
    messages = chatml(text).messages
    assert [(m.role, m.channel, m.channel_explicit, m.turn) for m in messages] == [
        ("assistant", "analysis", False, 0), ("assistant", "analysis", False, 0), ("assistant", "final", False, 0)]
    assert [m.content for m in messages] == ["Curious user.", "Label says Band-Aid.", "Bandages."]
    assert [[s.kind for s in m.segments] for m in messages] == [["reflect"], ["reason"], []]
    assert {m.name for m in messages} == {"Sage"}


def test_messages_of_a_turn_have_ordered_non_overlapping_spans():
    text = "<|im_start|>assistant\n<|start_reason|>think<|end_reason|>\nanswer\n<|im_end|>"
    thought, final = chatml(text).messages
    block = (22, 57)
    assert text[slice(*block)] == "<|start_reason|>think<|end_reason|>"
    assert thought.segments[0].span == block
    assert thought.span == (0, 57)  # the first message of a turn also covers the header
    assert final.span == (57, len(text))
    assert thought.header == (0, 21) and final.header is None


def test_unclosed_thought_block_runs_to_the_end_of_the_body_with_a_warning():
    text = "<|im_start|>assistant\n<|start_reason|>I was thinking\n<|im_end|>"
    transcript = chatml(text)
    assert [(m.channel, m.content) for m in transcript.messages] == [("analysis", "I was thinking")]
    diagnostic = only(transcript, "W-UNCLOSED-BLOCK")
    assert diagnostic.span == (22, 52)


def test_end_token_without_an_open_block_stays_text_with_a_warning():
    transcript = chatml("<|im_start|>assistant\nDone.<|end_reason|>\n<|im_end|>")
    assert transcript.messages[0].content == "Done.<|end_reason|>"
    only(transcript, "W-UNMATCHED-TOKEN")


def test_thought_block_outside_an_assistant_message_is_a_segment():
    message = chatml("<|im_start|>user\nSee <|start_reason|>my notes<|end_reason|>.<|im_end|>").messages[0]
    assert message.content == "See my notes."
    assert [(s.kind, s.text) for s in message.segments] == [("text", "See "), ("reason", "my notes"), ("text", ".")]


def test_text_on_both_sides_of_a_block_gives_a_final_message_for_each_stretch():
    text = "<|im_start|>assistant\nLet me think.\n<|start_reason|>hmm<|end_reason|>\nYes.<|im_end|>"
    messages = chatml(text).messages
    assert [(m.channel, m.content) for m in messages] == [("final", "Let me think."), ("analysis", "hmm"),
                                                          ("final", "Yes.")]
    assert [m.span for m in messages] == [(0, 36), (36, 69), (69, len(text))]


def test_token_between_backticks_is_text():
    message = chatml("<|im_start|>system\nTools follow the `<|function_list|>` tag.<|im_end|>").messages[0]
    assert message.content == "Tools follow the `<|function_list|>` tag."
    assert message.segments == ()


# -- function list ----------------------------------------------------------------------------------------


def test_function_list_records_the_parameters_schema_and_a_segment():
    transcript = chatml(f"<|im_start|>system\nTools:\n<|function_list|>\n{WEATHER_TOOL}\n<|im_end|>")
    assert transcript.tools == {"functions.get_weather": {
        "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    segment = transcript.messages[0].segments[-1]
    assert (segment.kind, segment.text) == ("function_list", WEATHER_TOOL)
    assert WEATHER_TOOL in transcript.messages[0].content


def test_function_list_accepts_a_json_list_and_several_objects():
    other = WEATHER_TOOL.replace("get_weather", "get_time")
    as_list = chatml(f"<|im_start|>system\n<|function_list|>[{WEATHER_TOOL}, {other}]<|im_end|>")
    as_objects = chatml(f"<|im_start|>system\n<|function_list|>\n{WEATHER_TOOL}\n{other}\n<|im_end|>")
    assert set(as_list.tools) == set(as_objects.tools) == {"functions.get_weather", "functions.get_time"}


def test_function_list_reading_stops_at_the_first_prose():
    text = (f"<|im_start|>system\n<|function_list|>\n{WEATHER_TOOL}\n\n"
            'Use this schema:\n{"title": "FunctionCall"}<|im_end|>')
    transcript = chatml(text)
    assert list(transcript.tools) == ["functions.get_weather"]
    assert transcript.messages[0].segments[-1].text == '\nUse this schema:\n{"title": "FunctionCall"}'


def test_unreadable_function_list_is_a_json_syntax_warning():
    transcript = chatml('<|im_start|>system\n<|function_list|>\n{"type": "function", \n<|im_end|>')
    assert transcript.tools == {}
    assert only(transcript, "W-JSON-SYNTAX").severity == "warning"


def test_function_list_without_json_is_a_json_syntax_warning():
    transcript = chatml("<|im_start|>system\n<|function_list|>\nget_weather(city)\n<|im_end|>")
    only(transcript, "W-JSON-SYNTAX")


def test_tool_definition_without_a_name_is_a_warning():
    transcript = chatml('<|im_start|>system\n<|function_list|>{"type": "function", "function": {}}<|im_end|>')
    assert transcript.tools == {}
    only(transcript, "W-TOOL-DEFINITION")


# -- function calls and outputs ---------------------------------------------------------------------------


def test_function_call_becomes_a_call_message_of_the_turn():
    text = ('<|im_start|>assistant\n<|function_call|>\n'
            '{"arguments": {"city": "Paris"}, "name": "get_weather"}\n<|im_end|>')
    transcript = chatml(text)
    (call,) = transcript.messages
    assert (call.role, call.channel, call.recipient, call.content_type, call.end) == (
        "assistant", "commentary", "functions.get_weather", "json", "call")
    assert json.loads(call.content) == {"city": "Paris"}
    assert call.segments[0].kind == "function_call"
    assert call.segments[0].text == '{"arguments": {"city": "Paris"}, "name": "get_weather"}'
    assert call.segments[0].span == (22, 95)


def test_call_arguments_keep_non_ascii_text_as_written():
    text = '<|im_start|>assistant\n<|function_call|>{"arguments": {"city": "Zürich"}, "name": "w"}<|im_end|>'
    assert chatml(text).messages[0].content == '{"city": "Zürich"}'


def test_several_calls_in_one_message_give_several_call_messages():
    text = ('<|im_start|>assistant\n<|function_call|>{"arguments": {"city": "Paris"}, "name": "w"}\n'
            '<|function_call|>{"arguments": {"city": "Rome"}, "name": "w"}\n<|im_end|>')
    messages = chatml(text).messages
    assert [json.loads(m.content)["city"] for m in messages] == ["Paris", "Rome"]
    assert {m.turn for m in messages} == {0}
    assert messages[0].span[1] <= messages[1].span[0]


def test_text_before_a_call_stays_a_final_message():
    text = '<|im_start|>assistant\nLet me check.\n<|function_call|>{"arguments": {}, "name": "w"}<|im_end|>'
    assert [(m.channel, m.content) for m in chatml(text).messages] == [("final", "Let me check."), ("commentary", "{}")]


def test_unreadable_call_is_still_a_call_with_a_call_schema_error():
    text = '<|im_start|>assistant\n<|function_call|>\n{"arguments": {"city": "Paris"}, "name": "w"\n<|im_end|>'
    transcript = chatml(text)
    (call,) = transcript.messages
    assert (call.end, call.recipient) == ("call", None)
    assert call.content == '{"arguments": {"city": "Paris"}, "name": "w"'
    diagnostic = only(transcript, "E-CALL-SCHEMA")
    assert (diagnostic.severity, diagnostic.message_index) == ("error", 0)
    assert "not readable JSON" in diagnostic.message


def test_call_without_arguments_is_a_call_schema_error():
    transcript = chatml(f'<|im_start|>system\n<|function_list|>{WEATHER_TOOL}<|im_end|>\n'
                        '<|im_start|>assistant\n<|function_call|>{"name": "get_weather"}<|im_end|>')
    assert transcript.messages[1].is_call
    assert "arguments" in only(transcript, "E-CALL-SCHEMA").message


def test_call_arguments_that_break_the_declared_schema_are_reported():
    transcript = parse((SAMPLES / "chatml-call-schema-violation.txt").read_bytes())
    diagnostic = only(transcript, "E-CALL-SCHEMA")
    assert transcript.messages[diagnostic.message_index].recipient == "functions.convert_currency"


def test_function_call_outside_an_assistant_message_is_text():
    text = '<|im_start|>system\nAnswer as <|function_call|>\n{"arguments": <args>, "name": <name>}<|im_end|>'
    transcript = chatml(text)
    assert not any(m.is_call for m in transcript.messages)
    assert "<|function_call|>" in transcript.messages[0].content
    assert codes(transcript) == []


def test_function_output_becomes_a_reply_message():
    output = '{"name": "get_weather", "content": {"sky": "clear"}}'
    (reply,) = chatml(f"<|im_start|>tool\n<|function_output|>\n{output}\n<|im_end|>").messages
    assert (reply.role, reply.name, reply.recipient, reply.channel) == (
        "tool", "functions.get_weather", "assistant", "commentary")
    assert reply.content == output
    assert [(s.kind, s.text) for s in reply.segments] == [("function_output", output)]


def test_unreadable_function_output_is_a_reply_without_a_name_and_a_warning():
    transcript = chatml("<|im_start|>tool\n<|function_output|>\nsunny, 24 C\n<|im_end|>")
    reply = transcript.messages[0]
    assert (reply.role, reply.name, reply.content) == ("tool", None, "sunny, 24 C")
    only(transcript, "W-JSON-SYNTAX")


def test_plain_tool_message_without_output_token_is_a_reply_paired_in_order():
    transcript = chatml('<|im_start|>assistant\n<|function_call|>{"arguments": {}, "name": "f"}<|im_end|>\n'
                        '<|im_start|>tool\n{"ok": true}\n<|im_end|>')
    assert transcript.messages[1].is_reply
    assert [(p.call, p.reply) for p in transcript.pairs] == [(0, 1)]


def test_outputs_answer_calls_in_order():
    transcript = parse((SAMPLES / "chatml-call-schema-violation.txt").read_bytes())
    assert [(p.call, p.reply, p.by) for p in transcript.pairs] == [(2, 4, "order"), (3, 5, "order")]


# -- fill-in-the-middle and multi-file --------------------------------------------------------------------


def test_fim_task_outside_messages_becomes_a_user_message_with_three_panels():
    text = "<|fim_prefix|>The capital of France is <|fim_middle|><|fim_suffix|>, known for the Eiffel Tower."
    (message,) = chatml(text).messages
    assert (message.role, message.channel) == ("user", "final")
    assert [(s.kind, s.text, s.span) for s in message.segments] == [
        ("fim_prefix", "The capital of France is ", (0, 39)), ("fim_middle", "", (39, 53)),
        ("fim_suffix", ", known for the Eiffel Tower.", (53, len(text)))]
    assert message.content == "The capital of France is , known for the Eiffel Tower."


def test_fim_completion_keeps_the_infill_in_the_middle_segment_exactly():
    text = "<|fim_prefix|>def f():\n    <|fim_middle|>return 1\n<|fim_suffix|>\nprint(f())"
    (message,) = chatml(text).messages
    assert [s.text for s in message.segments] == ["def f():\n    ", "return 1\n", "\nprint(f())"]
    assert message.content == "def f():\n    return 1\n\nprint(f())"


def test_multi_file_sequence_has_one_file_segment_per_file():
    text = "first file\n<|file_separator|>\nsecond file\nmore\n<|file_separator|>\nthird file"
    (message,) = chatml(text).messages
    assert [(s.kind, s.text) for s in message.segments] == [
        ("file", "first file"), ("file", "second file\nmore"), ("file", "third file")]
    assert message.segments[1].span == (11, 47)


def test_fim_after_file_separators_gives_file_then_fim_segments():
    text = "<|file_separator|>\nnotes\n<|file_separator|>\n<|fim_prefix|><|fim_middle|><|fim_suffix|> end"
    (message,) = chatml(text).messages
    assert [s.kind for s in message.segments] == ["file", "fim_prefix", "fim_middle", "fim_suffix"]


def test_fim_inside_a_message_gives_segments_of_that_message():
    text = "<|im_start|>user\n<|fim_prefix|>a = <|fim_middle|><|fim_suffix|>\nprint(a)\n<|im_end|>"
    (message,) = chatml(text).messages
    assert message.header == (0, 16)
    assert [s.kind for s in message.segments] == ["fim_prefix", "fim_middle", "fim_suffix"]
    assert message.content == "a = \nprint(a)"


def test_fim_document_between_envelopes_is_its_own_turn():
    text = "<|im_start|>user\nHi<|im_end|>\n<|fim_prefix|>x<|fim_middle|><|fim_suffix|>y"
    assert [(m.turn, m.role) for m in chatml(text).messages] == [(0, "user"), (1, "user")]


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
                 '{"name": "f", "content": 1}', WEATHER_TOOL, "{", "[", '"']

chatml_text = st.lists(st.one_of(st.sampled_from(CHATML_TOKENS), st.text(max_size=6)), max_size=40).map("".join)


@given(chatml_text)
def test_any_chatml_token_soup_is_accounted_for_with_turns_in_order(text):
    transcript = chatml(text)
    assert_accounted_for(transcript, transcript.source)
    spans = [message.span for message in transcript.messages]
    assert all(earlier[1] <= later[0] for earlier, later in zip(spans, spans[1:]))
    for message in transcript.messages:
        assert all(message.span[0] <= s.span[0] <= s.span[1] <= message.span[1] for s in message.segments)
