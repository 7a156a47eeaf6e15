"""Every diagnostic the JSON importer gives."""
from __future__ import annotations

import json

from tests.parse.helpers import codes, only
from tests.parse.json.helpers import CALL
from viewer.parse import parse


# -- diagnostics ------------------------------------------------------------------------------------------


def test_document_syntax_error_keeps_earlier_elements_and_covers_the_rest():
    text = '[\n {"role": "user", "content": "a"},\n {"role": "user" "content": "b"}\n]\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["a"]
    error = only(transcript, "W-JSON-SYNTAX")
    assert error.span == (35, len(text) - 1)
    assert "line 3, column 18" in error.message


def test_the_text_a_syntax_error_leaves_unread_is_kept_as_written_in_the_header():
    text = '[\n {"role": "user", "content": "a"},\n {"role": "user" "content": "b"}\n]\n'
    assert parse(text, "json").header["unread_text"] == [{"line": 2, "text": text[35:-1]}]  # the error's own span
    lines = '{"role": "user", "content": "a"}\n{"role": "user", "content": \n{"role": "user", "content": "c"}\n'
    assert parse(lines, "json").header["unread_text"] == [{"line": 2, "text": '{"role": "user", "content":'}]
    assert "unread_text" not in parse('[{"role": "user", "content": "a"}]', "json").header


def test_the_unread_text_the_header_keeps_is_bounded(monkeypatch):
    from viewer.parse.json import unpacked
    monkeypatch.setattr(unpacked, "UNREAD_TEXT", 10)
    text = '{"role": "user", "content": "a"}\nnot json at all\n{"role": "user", "content": "b"}\nnor this\n'
    assert parse(text, "json").header["unread_text"] == [{"line": 2, "text": "not json a", "cut": 5}, {"more": 1}]


def test_json_lines_syntax_error_skips_only_that_line():
    text = '{"role": "user", "content": "a"}\n{"role": "user", "content": \n{"role": "user", "content": "c"}\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["a", "c"]
    assert only(transcript, "W-JSON-SYNTAX").span == (33, 60)
    assert "Line 2" in only(transcript, "W-JSON-SYNTAX").message


def test_consecutive_bad_lines_give_one_diagnostic():
    text = '{"role": "user", "content": "a"}\nnot json\nnor this\n{"role": "user", "content": "b"}\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["a", "b"]
    assert "Lines 2–3" in only(transcript, "W-JSON-SYNTAX").message


def test_broken_first_line_still_reads_as_json_lines():
    text = '{"role": "user", "content": \n{"role": "user", "content": "b"}\n{"role": "user", "content": "c"}\n'
    transcript = parse(text, "json")
    assert [m.content for m in transcript.messages] == ["b", "c"]
    assert only(transcript, "W-JSON-SYNTAX").span == (0, 27)


def test_text_after_the_document_is_reported():
    transcript = parse('[{"role": "user", "content": "a"}] trailing', "json")
    assert only(transcript, "W-JSON-SYNTAX").span == (35, 43)
    assert len(transcript.messages) == 1


def test_deep_nesting_is_a_diagnostic_not_an_exception():
    deep = "[" * 100_000 + "]" * 100_000
    transcript = parse('[{"role": "user", "content": "a"}, ' + deep + "]", "json")
    assert [m.content for m in transcript.messages] == ["a"]
    assert "nest too deeply" in only(transcript, "W-JSON-SYNTAX").message


def test_deeply_nested_json_line_is_skipped():
    transcript = parse('{"role": "user", "content": "a"}\n{"x": ' + "[" * 100_000 + "\n", "json")
    assert [m.content for m in transcript.messages] == ["a"]
    assert codes(transcript) == ["W-JSON-SYNTAX"]


def test_integer_too_long_for_python_is_a_diagnostic():
    transcript = parse('[{"role": "user", "content": ' + "9" * 5000 + "}]", "json")
    assert codes(transcript) == ["W-JSON-SYNTAX"]


def test_element_that_is_not_an_object_is_skipped_with_w_json_shape():
    transcript = parse('[42, {"role": "user", "content": "a"}]', "json")
    assert [(m.turn, m.content) for m in transcript.messages] == [(1, "a")]
    assert only(transcript, "W-JSON-SHAPE").span == (1, 3)


def test_unknown_role_is_kept_with_a_warning():
    transcript = parse('[{"role": "narrator", "content": "x"}]', "json")
    assert transcript.messages[0].role == "narrator"
    assert only(transcript, "W-UNKNOWN-ROLE").span == (2, 20)


def test_missing_role_is_reported():
    transcript = parse('[{"content": "x"}]', "json")
    assert transcript.messages[0].role == "unknown"
    assert "no role" in only(transcript, "W-UNKNOWN-ROLE").message


def test_role_that_is_a_number_is_reported():
    transcript = parse('[{"role": 3, "content": "x"}]', "json")
    assert transcript.messages[0].role == "3"
    assert codes(transcript) == ["W-UNKNOWN-ROLE"]


def test_missing_content_gives_an_empty_message_and_a_warning():
    transcript = parse('[{"role": "user"}]', "json")
    assert transcript.messages[0].content == ""
    assert only(transcript, "W-JSON-MISSING-CONTENT").message_index == 0


def test_null_content_beside_tool_calls_is_not_missing():
    transcript = parse(json.dumps([{"role": "assistant", "content": None, "tool_calls": [CALL]}]), "json")
    assert "W-JSON-MISSING-CONTENT" not in codes(transcript)


def test_number_where_text_belongs_is_read_as_its_json_text():
    transcript = parse('[{"role": "user", "name": 5, "content": 7.5}]', "json")
    assert (transcript.messages[0].name, transcript.messages[0].content) == ("5", "7.5")
    assert codes(transcript) == ["W-JSON-FIELD-TYPE", "W-JSON-FIELD-TYPE"]


def test_text_part_without_text_is_reported_as_info():
    parts = [{"type": "text", "text": "look"}, {"type": "text"}]
    transcript = parse(json.dumps([{"role": "user", "content": parts}]), "json")
    part = only(transcript, "W-JSON-CONTENT-PART")
    assert (part.severity, transcript.messages[0].content) == ("info", "look")
    assert json.loads(transcript.text(part.span)) == {"type": "text"}


def test_content_part_whose_type_is_not_a_word_is_an_unknown_part():
    transcript = parse('[{"role": "user", "content": {"type": []}}]', "json")
    assert codes(transcript) == ["W-JSON-UNKNOWN-PART"]
    assert [(m.role, m.channel) for m in transcript.messages] == [("unknown", "unknown")]


def test_unknown_channel_is_kept_with_a_warning():
    transcript = parse('[{"role": "assistant", "channel": "aside", "content": "x"}]', "json")
    assert transcript.messages[0].channel == "aside"
    assert codes(transcript) == ["W-UNKNOWN-CHANNEL"]


def test_tool_calls_beside_a_22_tool_call_are_both_read_with_a_warning():
    element = {"role": "assistant", "tool_calls": [CALL],
               "tool_call": {"id": "c2", "recipient": "functions.g", "arguments": "{}"}}
    transcript = parse(json.dumps([element]), "json")
    assert [m.call_id for m in transcript.messages] == ["c1", "c2"]
    assert "W-JSON-MIXED-CALLS" in codes(transcript)


def test_tool_call_that_is_not_an_object_is_skipped():
    transcript = parse(json.dumps([{"role": "assistant", "content": "x", "tool_calls": ["oops", CALL]}]), "json")
    assert [m.call_id for m in transcript.messages] == [None, "c1"]
    assert transcript.text(only(transcript, "W-JSON-SHAPE").span) == '"oops"'


def test_tool_calls_that_are_not_a_list_are_reported():
    transcript = parse('[{"role": "assistant", "content": "x", "tool_calls": 3}]', "json")
    assert len(transcript.messages) == 1
    assert codes(transcript) == ["W-JSON-FIELD-TYPE"]


def test_tool_call_without_a_function_name_is_reported():
    transcript = parse(json.dumps([{"role": "assistant", "tool_calls": [{"id": "c", "function": {}}]}]), "json")
    assert transcript.messages[0].end == "call"
    assert "W-JSON-SHAPE" in codes(transcript)
